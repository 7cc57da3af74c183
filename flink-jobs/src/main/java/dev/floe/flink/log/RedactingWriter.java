package dev.floe.flink.log;

import dev.floe.catalog.config.Redaction;
import java.io.IOException;
import java.io.Writer;

/**
 * Passes text on line by line through {@link Redaction#redact}: what the CLI prints on stderr
 * (error lines, warnings, a stack trace under FLOE_DEBUG) never shows a password, whoever wrote the
 * message. A line is held until its end or a flush, so a secret is never cut in two.
 */
public final class RedactingWriter extends Writer {
  private final Writer target;
  private final StringBuilder line = new StringBuilder();

  public RedactingWriter(Writer target) {
    super(target);
    this.target = target;
  }

  @Override
  public void write(char[] chars, int offset, int length) throws IOException {
    synchronized (lock) {
      for (int i = offset; i < offset + length; i++) {
        line.append(chars[i]);
        if (chars[i] == '\n') {
          emit();
        }
      }
    }
  }

  @Override
  public void flush() throws IOException {
    synchronized (lock) {
      emit();
      target.flush();
    }
  }

  @Override
  public void close() throws IOException {
    synchronized (lock) {
      emit();
      target.close();
    }
  }

  private void emit() throws IOException {
    if (line.length() > 0) {
      target.write(Redaction.redact(line.toString()));
      line.setLength(0);
    }
  }
}
