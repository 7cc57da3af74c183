package dev.floe.flink.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * JSON output for `--json`: maps and records as objects, in insertion order, pretty-printed.
 *
 * <p>64-bit ids are strings (DESIGN rule 12): a snapshot id such as {@code 2493417652711171295}
 * does not fit a double, and jq or JavaScript would round it to another snapshot's id. The rule is
 * kept here, once, by field name: a {@code long} under a field named {@code *_id}, {@code *_id_*}
 * or {@code *Id} (snapshot_id, parent_id, to_snapshot_id, main_snapshot_id_before, ...; a map key
 * that is no such name, e.g. the partition path {@code order_id_bucket=3}, is data), or a {@code
 * long} value of the map under {@code source_snapshots} (table → snapshot id), is written as a
 * string. Counts, sizes and durations stay numbers.
 */
final class Json {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .registerModule(
              new SimpleModule("floe-ids")
                  .addSerializer(Long.class, new IdsAsStrings())
                  .addSerializer(long.class, new IdsAsStrings()));

  private static final java.util.regex.Pattern FIELD_NAME =
      java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

  private Json() {}

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "Cannot write JSON for " + value.getClass().getSimpleName(), e);
    }
  }

  /** Whether a long under this field (and, for a map's values, its parent field) is an id. */
  static boolean isId(String field, String parentField) {
    if (field != null && isIdName(field)) {
      return true;
    }
    return parentField != null && parentField.equals("source_snapshots");
  }

  private static boolean isIdName(String field) {
    if (!FIELD_NAME.matcher(field).matches()) {
      // A key of a map of data (a partition path "customer_id_bucket=0" → its rows), not a field.
      return false;
    }
    // "main_snapshot_id_before": an id qualified by a suffix is still an id.
    return field.endsWith("_id")
        || field.contains("_id_")
        || field.endsWith("Id")
        || field.equals("id");
  }

  private static final class IdsAsStrings extends StdSerializer<Long> {
    IdsAsStrings() {
      super(Long.class);
    }

    @Override
    public void serialize(Long value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      JsonStreamContext context = gen.getOutputContext();
      String field = context.getCurrentName();
      JsonStreamContext parent = context.getParent();
      String parentField = parent == null ? null : parent.getCurrentName();
      // A map's values sit in an object context whose parent names the map.
      if (context.inObject() && isId(field, parentField)) {
        gen.writeString(Long.toString(value));
      } else {
        gen.writeNumber(value);
      }
    }
  }
}
