package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliRunTimerTest {

  @TempDir Path root;

  @Test
  void aProcessThatWritesOrReplacesAClassDataArchiveChangesTheArchives() throws Exception {
    assertThat(CliRunTimer.archives(root)).isEmpty(); // no cds directory yet
    Path cds = Files.createDirectories(root.resolve("flink-jobs/target/cds"));
    Files.writeString(cds.resolve("notes.txt"), "not an archive");
    assertThat(CliRunTimer.archives(root)).isEmpty();

    Path archive = Files.writeString(cds.resolve("run-1-10.jsa"), "0123456789");
    Files.setLastModifiedTime(archive, FileTime.fromMillis(1_000_000));
    var before = CliRunTimer.archives(root);
    assertThat(before).hasSize(1);
    assertThat(CliRunTimer.archives(root)).isEqualTo(before);

    Files.setLastModifiedTime(archive, FileTime.fromMillis(2_000_000)); // dumped again
    assertThat(CliRunTimer.archives(root)).isNotEqualTo(before);

    Files.setLastModifiedTime(archive, FileTime.fromMillis(1_000_000));
    Files.writeString(cds.resolve("run-2-10.jsa"), "0123456789"); // another key
    assertThat(CliRunTimer.archives(root)).isNotEqualTo(before).hasSize(2);
  }
}
