package dev.floe.catalog.lineage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The bytes a data file stores for its string columns, read without decoding them: whether they are
 * all UTF-8 ({@link Utf8Strings#wellFormed}). Iceberg's generic reader decodes strings and puts
 * U+FFFD for bytes that are not UTF-8; when a row read that way shows U+FFFD, this tells a string
 * that holds the character from bytes a rewrite would replace. Parquet files only.
 */
public final class StoredStrings {

  private StoredStrings() {}

  /**
   * Whether every string value stored in {@code file} (deleted rows included) is UTF-8; empty when
   * its format cannot be read this way (not Parquet, or encrypted).
   */
  public static Optional<Boolean> allWellFormed(Table table, DataFile file) {
    if (file.format() != FileFormat.PARQUET || file.keyMetadata() != null) {
      return Optional.empty();
    }
    org.apache.iceberg.io.InputFile input = table.io().newInputFile(file.location());
    try (ParquetFileReader reader = ParquetFileReader.open(new Input(input))) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
      Set<Integer> stringIds = stringFieldIds(table.schema());
      List<ColumnDescriptor> strings =
          schema.getColumns().stream().filter(c -> readAsString(c, stringIds)).toList();
      if (strings.isEmpty()) {
        return Optional.of(true);
      }
      PageReadStore pages;
      while ((pages = reader.readNextRowGroup()) != null) {
        ColumnReadStoreImpl store =
            new ColumnReadStoreImpl(
                pages, new GroupRecordConverter(schema).getRootConverter(), schema, createdBy);
        for (ColumnDescriptor column : strings) {
          ColumnReader values = store.getColumnReader(column);
          int defined = column.getMaxDefinitionLevel();
          for (long i = 0, n = values.getTotalValueCount(); i < n; i++) {
            if (values.getCurrentDefinitionLevel() == defined) {
              Binary value = values.getBinary();
              byte[] bytes = value.getBytesUnsafe();
              if (!Utf8Strings.wellFormed(bytes, 0, bytes.length)) {
                return Optional.of(false);
              }
            }
            values.consume();
          }
        }
      }
      return Optional.of(true);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the strings stored in " + file.location(), e);
    }
  }

  /**
   * A check of the rows read from {@code file} before they are rewritten: a row that reads U+FFFD
   * makes the file's stored bytes be read once ({@link #allWellFormed}); the rows may be rewritten
   * when they are all UTF-8 (the U+FFFD is a character the data holds).
   *
   * @param type the rows' type (the schema they were read with)
   */
  public static RewriteCheck rewriteCheck(Table table, DataFile file, Types.StructType type) {
    return new RewriteCheck(table, file, type);
  }

  /** See {@link #rewriteCheck}. Not thread-safe: one per file and reader. */
  public static final class RewriteCheck {
    private final Table table;
    private final DataFile file;
    private final Types.StructType type;
    private final boolean holdsStrings;
    private Optional<Boolean> wellFormed; // null until a row reads U+FFFD

    private RewriteCheck(Table table, DataFile file, Types.StructType type) {
      this.table = table;
      this.file = file;
      this.type = type;
      this.holdsStrings = Utf8Strings.holdsStrings(type);
    }

    /** Why {@code row} must not be rewritten, or null when it may. */
    public String refusal(StructLike row) {
      if (!holdsStrings || (wellFormed != null && wellFormed.orElse(false))) {
        return null;
      }
      Optional<String> column = Utf8Strings.columnWithReplacement(row, type);
      if (column.isEmpty()) {
        return null;
      }
      if (wellFormed == null) {
        wellFormed = allWellFormed(table, file);
      }
      if (wellFormed.orElse(false)) {
        return null;
      }
      return String.format(
          "column %s of a row in %s reads U+FFFD, and %s; a rewrite would store U+FFFD in their"
              + " place, so nothing was rewritten",
          column.get(),
          file.location(),
          wellFormed.isPresent()
              ? "the file stores bytes that are not UTF-8 (Iceberg's reader puts U+FFFD for them)"
              : "its bytes cannot be read undecoded to tell a stored U+FFFD from bytes that are"
                  + " not UTF-8 (only Parquet files can)");
    }
  }

  /**
   * Whether Iceberg reads the column as a string: a binary column whose field id is one of the
   * table's string fields, whatever its annotation (a file Hive wrote may have none); in a file
   * without field ids (read through a name mapping), every binary column that is not annotated as
   * something other than text.
   */
  private static boolean readAsString(ColumnDescriptor column, Set<Integer> stringIds) {
    PrimitiveType type = column.getPrimitiveType();
    if (type.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BINARY) {
      return false;
    }
    if (type.getId() != null) {
      return stringIds.contains(type.getId().intValue());
    }
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    return annotation == null
        || annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
        || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
        || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
  }

  private static Set<Integer> stringFieldIds(org.apache.iceberg.Schema schema) {
    Set<Integer> ids = new HashSet<>();
    TypeUtil.indexById(schema.asStruct())
        .forEach(
            (id, field) -> {
              if (field.type().typeId() == org.apache.iceberg.types.Type.TypeID.STRING) {
                ids.add(id);
              }
            });
    return ids;
  }

  /** An Iceberg input file as Parquet reads one. */
  private record Input(org.apache.iceberg.io.InputFile file) implements InputFile {
    @Override
    public long getLength() {
      return file.getLength();
    }

    @Override
    public SeekableInputStream newStream() {
      org.apache.iceberg.io.SeekableInputStream stream = file.newStream();
      return new DelegatingSeekableInputStream(stream) {
        @Override
        public long getPos() throws IOException {
          return stream.getPos();
        }

        @Override
        public void seek(long position) throws IOException {
          stream.seek(position);
        }
      };
    }
  }
}
