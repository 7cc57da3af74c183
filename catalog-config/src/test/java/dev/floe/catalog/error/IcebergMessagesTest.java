package dev.floe.catalog.error;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IcebergMessagesTest {
  @Test
  void aListOfFilesAtTheEndIsCounted() {
    // A revert's conflict printed 683 characters for two files, growing with every file.
    assertThat(
            IcebergMessages.withoutFileLists(
                "Found conflicting files that can contain records matching"
                    + " ref(name=\"order_date\") >= 20466: [file:/w/a.parquet, file:/w/b.parquet]"))
        .isEqualTo(
            "Found conflicting files that can contain records matching ref(name=\"order_date\")"
                + " >= 20466: 2 files");
    assertThat(
            IcebergMessages.withoutFileLists(
                "Missing required files to delete: file:/w/a.parquet,file:/w/b.parquet,s3://b/c"))
        .isEqualTo("Missing required files to delete: 3 files");
  }

  @Test
  void aMessageWithoutAFileListIsKept() {
    assertThat(IcebergMessages.withoutFileLists("Cannot commit: the table moved on"))
        .isEqualTo("Cannot commit: the table moved on");
    assertThat(IcebergMessages.withoutFileLists("partitions [a, b]"))
        .isEqualTo("partitions [a, b]");
  }
}
