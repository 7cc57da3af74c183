package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `floe run` on a manifest the YAML reader must not guess at: exit 2 and one line naming the file,
 * before any catalog or Flink is touched.
 */
class RunRefusesUnreadableManifestsTest {
  @TempDir Path home;
  @TempDir Path work;

  @Test
  void aDuplicateChecksKeyExitsWith2InsteadOfCommittingWithoutTheFirstChecks() throws IOException {
    // The example's checks (not_null, unique, row_count) start on line 11.
    Path manifest = example("dup.yaml", "checks: []\n");

    CliRun run = CliRun.floe(home, "run", manifest.toString(), "--slice", "2026-10-03");

    assertRefused(run, manifest, "key 'checks' appears twice, on lines 11 and 15");
  }

  @Test
  void anAliasExitsWith2InsteadOfBeingReadAsAColumnName() throws IOException {
    Path manifest = example("alias.yaml", "cols: &cols [order_id]\n");

    CliRun run = CliRun.floe(home, "run", manifest.toString(), "--slice", "2026-10-03");

    assertRefused(run, manifest, "line 15 declares the YAML anchor &cols");
  }

  @Test
  void aFiftyMegabyteManifestExitsWith2AtOnce() throws IOException {
    Path manifest = work.resolve("huge.yaml");
    try (RandomAccessFile huge = new RandomAccessFile(manifest.toFile(), "rw")) {
      huge.setLength(52_428_800L);
    }

    CliRun run = CliRun.floe(home, "run", manifest.toString(), "--slice", "2026-10-03");

    assertRefused(
        run,
        manifest,
        "Cannot read job manifest "
            + manifest
            + ": it is 52428800 bytes; a manifest may be at most 1048576 bytes");
  }

  @Test
  void aLatin1ManifestExitsWith2NamingTheByte() throws IOException {
    Path manifest = work.resolve("latin1.yaml");
    Files.write(manifest, "job: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

    CliRun run = CliRun.floe(home, "run", manifest.toString(), "--slice", "2026-10-03");

    assertRefused(run, manifest, "it is not valid UTF-8 (byte 0xE9 at offset 8, line 1)");
  }

  @Test
  void aSecondStatementExitsWith2NamingTheManifest() throws IOException {
    Path manifest = work.resolve("two.yaml");
    Files.writeString(
        manifest,
        Files.readString(CliRun.examples().resolve("jobs/fact_orders_daily.yaml"))
            .replace(":slice_end\n", ":slice_end; DROP TABLE sales.staging_orders\n"));

    CliRun run = CliRun.floe(home, "run", manifest.toString(), "--slice", "2026-10-03");

    assertRefused(
        run,
        manifest,
        "the query must be one SELECT statement; a second statement starts on line 3");
  }

  /** The example job with {@code extra} appended (its last line is line 14). */
  private Path example(String name, String extra) throws IOException {
    Path manifest = work.resolve(name);
    String text = Files.readString(CliRun.examples().resolve("jobs/fact_orders_daily.yaml"));
    assertThat(text.lines().count()).isEqualTo(14);
    Files.writeString(manifest, text + extra);
    return manifest;
  }

  private static void assertRefused(CliRun run, Path manifest, String message) {
    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err()).contains(manifest.toString(), message);
    assertThat(run.err().lines().count()).as(run.err()).isEqualTo(1);
  }
}
