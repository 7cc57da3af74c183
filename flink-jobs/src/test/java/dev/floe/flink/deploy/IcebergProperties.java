package dev.floe.flink.deploy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;

/**
 * The catalog and S3 property names Iceberg itself declares, read from its constants, so a misspelt
 * variable in docker-compose.yml (a property Iceberg would silently ignore) fails a test.
 */
final class IcebergProperties {
  private static final Set<String> KNOWN =
      constants(CatalogProperties.class, S3FileIOProperties.class, AwsClientProperties.class);

  private IcebergProperties() {}

  static boolean isKnown(String property) {
    return KNOWN.contains(property);
  }

  private static Set<String> constants(Class<?>... holders) {
    Set<String> names = new TreeSet<>();
    for (Class<?> holder : holders) {
      for (Field field : holder.getFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isStatic(modifiers)
            && Modifier.isFinal(modifiers)
            && field.getType() == String.class) {
          try {
            names.add((String) field.get(null));
          } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read " + field, e);
          }
        }
      }
    }
    return names;
  }
}
