package dev.floe.catalog.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The spellings metadata and storage listings use for one file compare equal; others do not. */
class FileLocationsTest {

  @Test
  void localSpellingsOfOneFileAreEqual() {
    String expected = "file:///w/s/t/data/a.parquet";
    assertThat(FileLocations.normalise("/w/s/t/data/a.parquet")).isEqualTo(expected);
    assertThat(FileLocations.normalise("file:/w/s/t/data/a.parquet")).isEqualTo(expected);
    assertThat(FileLocations.normalise("file:///w/s/t/data/a.parquet")).isEqualTo(expected);
    assertThat(FileLocations.normalise("file://localhost/w/s/t//data/a.parquet"))
        .isEqualTo(expected);
  }

  @Test
  void objectStoreSpellingsKeepTheBucket() {
    assertThat(FileLocations.normalise("s3a://bucket/w//t/a")).isEqualTo("s3://bucket/w/t/a");
    assertThat(FileLocations.normalise("s3://bucket/w/t/a"))
        .isNotEqualTo(FileLocations.normalise("s3://other/w/t/a"));
  }

  @Test
  void underMeansInsideTheDirectoryNotAPrefixOfItsName() {
    assertThat(FileLocations.isUnder("file:/w/s/t/data/a", "file:///w/s/t")).isTrue();
    assertThat(FileLocations.isUnder("file:/w/s/t2/data/a", "file:///w/s/t")).isFalse();
    assertThat(FileLocations.isUnder("s3://b/w/t/a", "s3://b/w/t/")).isTrue();
  }
}
