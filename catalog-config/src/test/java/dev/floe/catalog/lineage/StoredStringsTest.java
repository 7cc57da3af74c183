package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.EmbeddedCatalog;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The bytes a Parquet file stores for the table's string columns are read undecoded, whatever the
 * file's annotation: a file another tool wrote with the column as plain binary (Hive, a migrated
 * table) still has its bytes that are not UTF-8 found, and a rewrite of its rows is refused.
 */
class StoredStringsTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void aStringColumnStoredAsUnannotatedBinaryIsCheckedByItsFieldId() throws Exception {
    Schema strings =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "s", Types.StringType.get()),
            Types.NestedField.optional(3, "b", Types.BinaryType.get()));
    Table table = catalog.create("s.t", strings, PartitionSpec.unpartitioned());

    DataFile bad = rawFile(table, "bad", new byte[] {'c', 'a', 'f', (byte) 0xff}, new byte[] {1});
    DataFile good =
        rawFile(
            table,
            "good",
            new byte[] {'c', 'a', 'f', (byte) 0xef, (byte) 0xbf, (byte) 0xbd},
            new byte[] {(byte) 0xff});

    assertThat(StoredStrings.allWellFormed(table, bad)).contains(false);
    // The binary column may hold any bytes; only the string column counts.
    assertThat(StoredStrings.allWellFormed(table, good)).contains(true);
    assertThat(refusalOfFirstRow(table, bad))
        .contains("column s of a row in")
        .contains("the file stores bytes that are not UTF-8");
    assertThat(refusalOfFirstRow(table, good)).isNull();
  }

  private static String refusalOfFirstRow(Table table, DataFile file) throws Exception {
    StoredStrings.RewriteCheck check =
        StoredStrings.rewriteCheck(table, file, StoredRows.schema(table).asStruct());
    try (CloseableIterable<Record> rows =
        StoredRows.read(table, table.spec(), file, List.of(), new AtomicLong())) {
      return check.refusal(rows.iterator().next());
    }
  }

  /** One row written with the string column as plain binary (no UTF-8 annotation). */
  private static DataFile rawFile(Table table, String name, byte[] s, byte[] b) throws Exception {
    Schema asBinary =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "s", Types.BinaryType.get()),
            Types.NestedField.optional(3, "b", Types.BinaryType.get()));
    OutputFile out = table.io().newOutputFile(table.location() + "/data/" + name + ".parquet");
    Record row = GenericRecord.create(asBinary);
    row.setField("id", 1L);
    row.setField("s", ByteBuffer.wrap(s));
    row.setField("b", ByteBuffer.wrap(b));
    FileAppender<Record> writer =
        Parquet.write(out).schema(asBinary).createWriterFunc(GenericParquetWriter::create).build();
    try (writer) {
      writer.add(row);
    }
    DataFile file =
        DataFiles.builder(table.spec())
            .withPath(out.location())
            .withFormat(FileFormat.PARQUET)
            .withRecordCount(1)
            .withFileSizeInBytes(writer.length())
            .build();
    table.newAppend().appendFile(file).commit();
    return file;
  }
}
