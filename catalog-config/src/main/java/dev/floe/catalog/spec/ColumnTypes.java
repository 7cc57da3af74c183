package dev.floe.catalog.spec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The column type names of a table spec ({@code long}, {@code decimal(10,2)}, {@code fixed(16)}
 * ...) and their Iceberg types. The same spelling is used to parse specs and to print plans, so a
 * plan line can be pasted back into a spec.
 */
public final class ColumnTypes {
  private static final Map<String, Type.PrimitiveType> SIMPLE = new LinkedHashMap<>();

  static {
    SIMPLE.put("boolean", Types.BooleanType.get());
    SIMPLE.put("int", Types.IntegerType.get());
    SIMPLE.put("long", Types.LongType.get());
    SIMPLE.put("float", Types.FloatType.get());
    SIMPLE.put("double", Types.DoubleType.get());
    SIMPLE.put("date", Types.DateType.get());
    SIMPLE.put("time", Types.TimeType.get());
    SIMPLE.put("timestamp", Types.TimestampType.withoutZone());
    SIMPLE.put("timestamptz", Types.TimestampType.withZone());
    SIMPLE.put("string", Types.StringType.get());
    SIMPLE.put("uuid", Types.UUIDType.get());
    SIMPLE.put("binary", Types.BinaryType.get());
  }

  private static final Pattern FIXED = Pattern.compile("fixed\\(\\s*(\\d{1,9})\\s*\\)");
  private static final Pattern DECIMAL =
      Pattern.compile("decimal\\(\\s*(\\d{1,9})\\s*,\\s*(\\d{1,9})\\s*\\)");
  private static final int MAX_DECIMAL_PRECISION = 38;

  /** Every accepted spelling, for error messages. */
  public static final String ACCEPTED =
      String.join(", ", SIMPLE.keySet()) + ", fixed(N), decimal(P,S)";

  private ColumnTypes() {}

  /**
   * The Iceberg type for a spec type name, or empty when the name is not one of {@link #ACCEPTED}
   * or its parameters are out of range.
   */
  public static Optional<Type.PrimitiveType> parse(String name) {
    String text = name.trim().toLowerCase(Locale.ROOT);
    Type.PrimitiveType simple = SIMPLE.get(text);
    if (simple != null) {
      return Optional.of(simple);
    }
    Matcher fixed = FIXED.matcher(text);
    if (fixed.matches()) {
      int length = Integer.parseInt(fixed.group(1));
      return length > 0 ? Optional.of(Types.FixedType.ofLength(length)) : Optional.empty();
    }
    Matcher decimal = DECIMAL.matcher(text);
    if (decimal.matches()) {
      int precision = Integer.parseInt(decimal.group(1));
      int scale = Integer.parseInt(decimal.group(2));
      boolean valid = precision >= 1 && precision <= MAX_DECIMAL_PRECISION && scale <= precision;
      return valid ? Optional.of(Types.DecimalType.of(precision, scale)) : Optional.empty();
    }
    return Optional.empty();
  }

  /** The spec spelling of an Iceberg type; types a spec cannot declare print as Iceberg does. */
  public static String format(Type type) {
    return switch (type.typeId()) {
      case TIMESTAMP ->
          ((Types.TimestampType) type).shouldAdjustToUTC() ? "timestamptz" : "timestamp";
      case FIXED -> "fixed(" + ((Types.FixedType) type).length() + ")";
      case DECIMAL -> {
        Types.DecimalType decimal = (Types.DecimalType) type;
        yield "decimal(" + decimal.precision() + "," + decimal.scale() + ")";
      }
      default -> type.toString();
    };
  }

  /** One example of every declarable type, to list which types a partition transform accepts. */
  static List<Type.PrimitiveType> examples() {
    List<Type.PrimitiveType> examples = new ArrayList<>(SIMPLE.values());
    examples.add(Types.FixedType.ofLength(16));
    examples.add(Types.DecimalType.of(10, 2));
    return examples;
  }
}
