package dev.floe.catalog.spec;

import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The type changes {@code floe tables apply} makes: the ones every reader of existing files
 * handles, because each old value is exactly representable in the new type.
 */
final class TypeWidening {
  static final String ALLOWED =
      "int -> long, float -> double, decimal(P,S) -> decimal(P2,S), P2 > P";

  private TypeWidening() {}

  static boolean isWidening(Type from, Type to) {
    if (from.typeId() == Type.TypeID.INTEGER) {
      return to.typeId() == Type.TypeID.LONG;
    }
    if (from.typeId() == Type.TypeID.FLOAT) {
      return to.typeId() == Type.TypeID.DOUBLE;
    }
    if (from.typeId() == Type.TypeID.DECIMAL && to.typeId() == Type.TypeID.DECIMAL) {
      Types.DecimalType narrow = (Types.DecimalType) from;
      Types.DecimalType wide = (Types.DecimalType) to;
      return wide.scale() == narrow.scale() && wide.precision() > narrow.precision();
    }
    return false;
  }
}
