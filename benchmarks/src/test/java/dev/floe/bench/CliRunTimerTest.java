package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliRunTimerTest {

  @TempDir Path root;

  @Test
  void onlyANewOrRewrittenRunArchiveCountsAsWritten() throws Exception {
    assertThat(CliRunTimer.archives(root)).isEmpty(); // no cds directory yet
    Path cds = Files.createDirectories(root.resolve("flink-jobs/target/cds"));
    Path archive = Files.writeString(cds.resolve("run-1-10.jsa"), "0123456789");
    Files.setLastModifiedTime(archive, FileTime.fromMillis(1_000_000));
    Set<String> before = CliRunTimer.archives(root);
    assertThat(before).hasSize(1);

    // Nothing else counts: another command's archive, bin/floe's temporary file, other files.
    Files.writeString(cds.resolve("sql-7-10.jsa"), "0123456789");
    Files.writeString(cds.resolve(".run-2.123.abc.tmp"), "partial");
    Files.writeString(cds.resolve("notes.txt"), "not an archive");
    assertThat(CliRunTimer.wroteArchive(before, CliRunTimer.archives(root))).isFalse();

    // Dumped again under the same name.
    Files.setLastModifiedTime(archive, FileTime.fromMillis(2_000_000));
    assertThat(CliRunTimer.wroteArchive(before, CliRunTimer.archives(root))).isTrue();

    // A new key's archive, the old one deleted.
    Files.delete(archive);
    Files.writeString(cds.resolve("run-2-10.jsa"), "0123456789");
    assertThat(CliRunTimer.wroteArchive(before, CliRunTimer.archives(root))).isTrue();

    // Deleted only (a stale archive removed): no archive was written.
    Set<String> withNew = CliRunTimer.archives(root);
    Files.delete(cds.resolve("run-2-10.jsa"));
    assertThat(CliRunTimer.wroteArchive(withNew, CliRunTimer.archives(root))).isFalse();
  }
}
