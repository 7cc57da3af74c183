package dev.floe.catalog.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
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
  void dotSegmentsAreDroppedAndDotDotIsRefused() {
    String expected = "file:///w/s/t/data/a.parquet";
    assertThat(FileLocations.normalise("/w/s/t/./data/a.parquet")).isEqualTo(expected);
    assertThat(FileLocations.normalise("file:/w/s/t/././data/./a.parquet")).isEqualTo(expected);
    assertThat(FileLocations.normalise("file:///w/s/t/data/.")).isEqualTo("file:///w/s/t/data");
    assertThat(FileLocations.normalise("file:/w/s/t/data/..a.parquet"))
        .isEqualTo("file:///w/s/t/data/..a.parquet");
    assertThatThrownBy(() -> FileLocations.normalise("/w/s/t/data/../data/a.parquet"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot compare file location /w/s/t/data/../data/a.parquet: it has a '..' segment,"
                + " which file systems resolve differently");
    assertThatThrownBy(() -> FileLocations.normalise("s3://b/t/..")).hasMessageContaining("'..'");
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

  @Test
  void theParentOfAFileAndTheSameDirectoryUnderTwoSpellings() {
    assertThat(FileLocations.parent("file:/w/t/metadata/1.metadata.json"))
        .isEqualTo("file:///w/t/metadata");
    assertThat(FileLocations.sameDirectory(FileLocations.parent("s3a://b/1.json"), "s3://b"))
        .isTrue();
    assertThat(FileLocations.sameDirectory("file:///w/t/metadata/", "/w/t/metadata")).isTrue();
    assertThat(FileLocations.sameDirectory("/w/t/metadata2", "/w/t/metadata")).isFalse();
  }
}
