package dev.floe.flink.log;

import dev.floe.catalog.config.Redaction;
import java.util.List;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.LogEventPatternConverter;
import org.apache.logging.log4j.core.pattern.PatternConverter;
import org.apache.logging.log4j.core.pattern.PatternFormatter;
import org.apache.logging.log4j.status.StatusLogger;

/**
 * {@code %redact{pattern}} in a log4j layout: the text the inner pattern produces, message and
 * stack trace included, with passwords masked by {@link Redaction}. bin/log4j2-cli.properties
 * writes every log line through it, so no log line of bin/floe shows a secret, whichever library
 * wrote it (Iceberg's "Failed to connect: jdbc:...?password=...").
 */
@Plugin(name = "RedactConverter", category = PatternConverter.CATEGORY)
@ConverterKeys({"redact"})
public final class RedactConverter extends LogEventPatternConverter {
  private final List<PatternFormatter> formatters;

  private RedactConverter(List<PatternFormatter> formatters) {
    super("redact", "redact");
    this.formatters = formatters;
  }

  /** Called by log4j with the pattern between the braces. */
  public static RedactConverter newInstance(Configuration config, String[] options) {
    if (options == null || options.length != 1) {
      StatusLogger.getLogger().error("%redact needs one pattern: %redact{%m%n%ex}");
      return null;
    }
    return new RedactConverter(PatternLayout.createPatternParser(config).parse(options[0]));
  }

  @Override
  public void format(LogEvent event, StringBuilder toAppendTo) {
    StringBuilder text = new StringBuilder();
    for (PatternFormatter formatter : formatters) {
      formatter.format(event, text);
    }
    toAppendTo.append(Redaction.redact(text.toString()));
  }

  /** True when the inner pattern prints the stack trace, so log4j does not print it again. */
  @Override
  public boolean handlesThrowable() {
    return formatters.stream().anyMatch(PatternFormatter::handlesThrowable);
  }
}
