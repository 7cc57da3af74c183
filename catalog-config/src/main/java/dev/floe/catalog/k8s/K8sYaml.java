package dev.floe.catalog.k8s;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;
import dev.floe.catalog.error.Shown;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints rendered resources as a multi-document YAML stream ({@code ---} between documents,
 * comments above each) or as JSON ({@code kubectl apply -f} reads both).
 */
public final class K8sYaml {
  private static final ObjectMapper YAML =
      new ObjectMapper(
              YAMLFactory.builder()
                  .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                  .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                  .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
                  .stringQuotingChecker(new QuoteAmbiguous())
                  .build())
          .enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private K8sYaml() {}

  /** {@code header} as comments, then each document after {@code ---} with its comment. */
  public static String yaml(List<String> header, List<K8sDocument> documents) {
    StringBuilder out = new StringBuilder();
    comment(out, header);
    for (K8sDocument document : documents) {
      out.append("---\n");
      comment(out, document.comment());
      out.append(write(YAML, document.body()));
    }
    return out.toString();
  }

  /** One resource as a JSON object; several as a {@code v1 List} of them. */
  public static String json(List<K8sDocument> documents) {
    if (documents.size() == 1) {
      return write(JSON, documents.get(0).body()) + "\n";
    }
    Map<String, Object> list = new LinkedHashMap<>();
    list.put("apiVersion", "v1");
    list.put("kind", "List");
    list.put("items", documents.stream().map(K8sDocument::body).toList());
    return write(JSON, list) + "\n";
  }

  private static void comment(StringBuilder out, List<String> lines) {
    for (String line : lines) {
      out.append(commentLine(line)).append('\n');
    }
  }

  /**
   * {@code line} as one YAML comment line: {@code # line}, its line breaks and other control
   * characters escaped by {@link Shown#oneLine} (not cut), so a value spliced into a comment (a
   * manifest path, a URI) can never end the comment and start a key of the resource. Every comment
   * of a render is written through here.
   */
  public static String commentLine(String line) {
    if (line.isEmpty()) {
      return "#";
    }
    StringBuilder out = new StringBuilder("# ");
    Shown.oneLine(line)
        .codePoints()
        .forEach(
            c -> {
              if (isYamlPrintable(c)) {
                out.appendCodePoint(c);
              } else {
                out.append(String.format("\\u%04x", c));
              }
            });
    return out.toString();
  }

  /**
   * YAML's printable characters (its spec, 5.1), without the byte order mark, which Go's YAML
   * reader (kubectl's) refuses inside a document: any other character stops the whole render from
   * parsing, also in a comment.
   */
  private static boolean isYamlPrintable(int c) {
    return c == 0x09
        || c == 0x0A
        || c == 0x0D
        || (c >= 0x20 && c <= 0x7E)
        || c == 0x85
        || (c >= 0xA0 && c <= 0xD7FF)
        || (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF)
        || (c >= 0x10000 && c <= 0x10FFFF);
  }

  private static String write(ObjectMapper mapper, Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("Cannot print a rendered resource", e);
    }
  }

  /**
   * Quotes what Jackson quotes, and also any string a YAML 1.1 reader (kubectl's) could take for
   * something else: a slice such as {@code 2026-10-03} would otherwise be read as a date, {@code 2}
   * in flinkConfiguration as a number.
   */
  private static final class QuoteAmbiguous extends StringQuotingChecker.Default {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean needToQuoteValue(String value) {
      return value.isEmpty()
          || Character.isDigit(value.charAt(0))
          || value.length() > 1
              && "+-.".indexOf(value.charAt(0)) >= 0
              && (Character.isDigit(value.charAt(1)) || value.charAt(1) == '.')
          // YAML 1.1's infinity and not-a-number: .inf, -.Inf, +.INF, .nan, .NaN
          || value.matches("[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)")
          || super.needToQuoteValue(value);
    }
  }
}
