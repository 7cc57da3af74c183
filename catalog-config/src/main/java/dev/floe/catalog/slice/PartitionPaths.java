package dev.floe.catalog.slice;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;

/**
 * A partition's path, {@code d=2026-10-03/s=abc}, one per partition: the key Floe groups files by
 * partition with, and the text it shows. Iceberg's {@link PartitionSpec#partitionToPath} writes a
 * NULL value and the string {@code "null"} alike ({@code s=null}), which would put two partitions'
 * files in one group (a compaction would write them into one file of one partition, and queries
 * filtering the other would miss its rows). Here a string value {@code "null"} is written with raw
 * double quotes, {@code s="null"}, which Iceberg's URL-encoded values never hold (a value with
 * quotes reads {@code %22}); every other value as Iceberg writes it. A key, not a file location:
 * files lie under Iceberg's own paths.
 */
public final class PartitionPaths {
  private static final String NULL_TEXT = "null";
  private static final String QUOTED_NULL_TEXT = "\"null\"";

  private PartitionPaths() {}

  /**
   * @param spec the partition spec the values belong to
   * @param partition the partition's values, in the spec's order
   */
  public static String of(PartitionSpec spec, StructLike partition) {
    String path = spec.partitionToPath(partition);
    if (!path.contains("=" + NULL_TEXT)) {
      return path;
    }
    // Names and values are URL-encoded, so '/' only separates the spec's fields.
    String[] segments = path.split("/", -1);
    Class<?>[] classes = spec.javaClasses();
    for (int i = 0; i < classes.length; i++) {
      Object value = partition.get(i, classes[i]);
      if (value instanceof CharSequence text && NULL_TEXT.contentEquals(text)) {
        segments[i] =
            segments[i].substring(0, segments[i].length() - NULL_TEXT.length()) + QUOTED_NULL_TEXT;
      }
    }
    return String.join("/", segments);
  }
}
