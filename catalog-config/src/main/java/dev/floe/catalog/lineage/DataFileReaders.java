package dev.floe.catalog.lineage;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.iceberg.ContentScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.util.ByteBuffers;
import org.apache.iceberg.util.PartitionUtil;

/**
 * The one place that opens a reader of a table's data file by hand. A file written by Iceberg
 * carries a field id on every column and is read by id; a file without field ids (added by a
 * migration or {@code add_files}) has its columns matched by name through the table's name mapping
 * ({@value TableProperties#DEFAULT_NAME_MAPPING}), as Iceberg's engine readers do. Without the
 * mapping the format readers fall back to matching columns by position, which swaps the values of
 * any two columns whose order in the file differs from the table's.
 */
public final class DataFileReaders {

  private DataFileReaders() {}

  /**
   * A builder of a generic {@link Record} reader of {@code file}, one of {@code table}'s data
   * files, with the table's name mapping applied when the table has one. The caller sets the
   * projection and anything else it needs.
   *
   * @throws IllegalArgumentException if the table's name mapping property is not a valid mapping
   */
  public static ReadBuilder<Record, Object> readBuilder(Table table, DataFile file) {
    ReadBuilder<Record, Object> builder =
        FormatModelRegistry.readBuilder(file.format(), Record.class, table.io().newInputFile(file));
    NameMapping mapping = nameMapping(table);
    return mapping == null ? builder : builder.withNameMapping(mapping);
  }

  /**
   * The values a reader of {@code task}'s file sets from its partition rather than from the file
   * ({@link ReadBuilder#idToConstant}), as generic records hold them. Iceberg's converter leaves a
   * {@code fixed} identity partition value as the manifest's {@link ByteBuffer}, where a generic
   * record (and every writer and hasher of one) holds a {@code byte[]}: converted here.
   */
  public static Map<Integer, ?> partitionConstants(ContentScanTask<DataFile> task) {
    return PartitionUtil.constantsMap(task, DataFileReaders::partitionValue);
  }

  private static Object partitionValue(Type type, Object value) {
    Object converted = IdentityPartitionConverters.convertConstant(type, value);
    return type.typeId() == Type.TypeID.FIXED && converted instanceof ByteBuffer buffer
        ? ByteBuffers.toByteArray(buffer)
        : converted;
  }

  /**
   * The table's name mapping, or {@code null} when it has none (then every file it reads must carry
   * field ids, as Iceberg writes them).
   *
   * @throws IllegalArgumentException if the property is set but is not a valid name mapping
   */
  public static NameMapping nameMapping(Table table) {
    String json = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    if (json == null) {
      return null;
    }
    try {
      return NameMappingParser.fromJson(json);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Cannot read the data files of "
              + table.name()
              + ": its property "
              + TableProperties.DEFAULT_NAME_MAPPING
              + " is not a valid name mapping ("
              + e.getMessage()
              + ")",
          e);
    }
  }
}
