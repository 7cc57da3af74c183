package dev.floe.catalog.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.manifest.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackfillSpecParserTest {
  @TempDir Path dir;

  @Test
  void aBackfillManifestNamesItsJobRelativeToItselfAndItsRange() throws Exception {
    Path file =
        write(
            "backfills/q1.yaml",
            """
            backfill: orders_q1_rebuild
            description: new currency rounding
            job: ../jobs/fact_orders.yaml
            from: 2026-01-01
            to: 2026-04-01
            max_concurrency: 2
            slices_per_job: 31
            sample: 2026-03-31
            expect_version: 1.4.0
            fail_fast: true
            """);

    BackfillSpec spec = BackfillSpecParser.load(file);

    assertThat(spec.id()).isEqualTo("orders_q1_rebuild");
    assertThat(spec.job()).isEqualTo(dir.resolve("jobs/fact_orders.yaml").toAbsolutePath());
    assertThat(spec.from()).isEqualTo("2026-01-01");
    assertThat(spec.to()).isEqualTo("2026-04-01");
    assertThat(spec.maxConcurrency()).isEqualTo(2);
    assertThat(spec.slicesPerJob()).isEqualTo(31);
    assertThat(spec.sample()).isEqualTo("2026-03-31");
    assertThat(spec.expectVersion()).isEqualTo("1.4.0");
    assertThat(spec.failFast()).isTrue();
    assertThat(spec.allowEffects()).isNull(); // left to the flag and the default
    assertThat(BackfillSpecParser.isBackfillManifest(Manifests.load(file).root())).isTrue();
  }

  @Test
  void theIdTheJobAndTheVersionAreReadAsTheFileSpellsThem() throws Exception {
    Path file =
        write(
            "q.yaml", "backfill: 2026_01\njob: 0755\nfrom: 2026\nto: 2027\nexpect_version: 1.10\n");

    BackfillSpec spec = BackfillSpecParser.load(file);

    assertThat(spec.id()).isEqualTo("2026_01"); // YAML 1.1 reads 202601
    assertThat(spec.job()).isEqualTo(dir.resolve("0755").toAbsolutePath()); // not 493
    assertThat(spec.expectVersion()).isEqualTo("1.10"); // not 1.1
  }

  @Test
  void aBlankSpacedOrControlCharacterIdIsRefusedShownOnOneLine() throws Exception {
    for (String id : new String[] {"''", "' q1 '", "\"q1\\nrm\""}) {
      Path file = write("q.yaml", "backfill: " + id + "\njob: j.yaml\nfrom: 2026\nto: 2027\n");

      assertThatThrownBy(() -> BackfillSpecParser.load(file))
          .isInstanceOf(InvalidInputException.class)
          .hasMessageStartingWith("Cannot use backfill id '")
          .hasMessageContaining("from " + file)
          .hasMessageNotContaining("\n");
    }
    Path control = write("c.yaml", "backfill: \"q1\\nrm\"\njob: j.yaml\nfrom: 2026\nto: 2027\n");
    assertThatThrownBy(() -> BackfillSpecParser.load(control))
        .hasMessageStartingWith("Cannot use backfill id 'q1\\nrm' from ");
  }

  @Test
  void aJobManifestIsNotABackfillManifest() {
    assertThat(
            BackfillSpecParser.isBackfillManifest(
                Manifests.parse("jobs/x.yaml", "job: x\ntarget: a.b\nquery: SELECT 1\n")))
        .isFalse();
  }

  @Test
  void unknownKeysBadIdsAndBadConcurrencyAreRefusedNamingTheFile() throws Exception {
    Path unknown = write("a.yaml", "job: j.yaml\nfrom: 2026-01-01\nto: 2026-02-01\nparallel: 3\n");
    Path badId = write("b.yaml", "backfill: 'q1 rebuild'\njob: j.yaml\nfrom: 2026\nto: 2027\n");
    Path zero = write("c.yaml", "job: j.yaml\nfrom: 2026\nto: 2027\nmax_concurrency: 0\n");
    Path noSlices = write("d.yaml", "job: j.yaml\nfrom: 2026\nto: 2027\nslices_per_job: 0\n");

    assertThatThrownBy(() -> BackfillSpecParser.load(unknown))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("a.yaml")
        .hasMessageContaining("unknown key 'parallel'");
    assertThatThrownBy(() -> BackfillSpecParser.load(badId))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot use backfill id 'q1 rebuild'");
    assertThatThrownBy(() -> BackfillSpecParser.load(zero))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("expected 1 to 1024, got 0");
    assertThatThrownBy(() -> BackfillSpecParser.load(noSlices))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("d.yaml")
        .hasMessageContaining("slices_per_job")
        .hasMessageContaining("expected 1 to 100000, got 0");
  }

  @Test
  void aDerivedIdIsStableAndChangesWithTheManifestOrTheCode() {
    String id = BackfillId.derive("fact_orders_daily", "s.f", "2026-01-01", "2026-04-01", "m", "1");

    assertThat(id)
        .startsWith("fact_orders_daily_2026-01-01_2026-04-01_")
        .isEqualTo(
            BackfillId.derive("fact_orders_daily", "s.f", "2026-01-01", "2026-04-01", "m", "1"));
    assertThat(BackfillId.derive("fact_orders_daily", "s.f", "2026-01-01", "2026-04-01", "m2", "1"))
        .isNotEqualTo(id);
    assertThat(BackfillId.derive("fact_orders_daily", "s.f", "2026-01-01", "2026-04-01", "m", "2"))
        .isNotEqualTo(id);
    BackfillId.requireValid(id, "derived");
    // Any job name gives a valid id: long names are cut, the hash keeps them apart.
    String longName = "x".repeat(200);
    String a = BackfillId.derive(longName, "s.f", "2026-01-01", "2026-04-01", "m", "1");
    String b = BackfillId.derive(longName + "y", "s.f", "2026-01-01", "2026-04-01", "m", "1");
    BackfillId.requireValid(a, "derived");
    assertThat(a).isNotEqualTo(b).hasSizeLessThanOrEqualTo(128);
    BackfillId.requireValid(BackfillId.derive("_job", "s.f", "2026", "2027", "m", "1"), "derived");
  }

  @Test
  void anOverallTimeoutIsReadAndABadOneIsRefusedNamingKeyFileAndValue() throws Exception {
    Path good =
        write("good.yaml", "job: j.yaml\nfrom: 2026-01-01\nto: 2026-02-01\noverall_timeout: 8h\n");
    Path bad =
        write("bad.yaml", "job: j.yaml\nfrom: 2026-01-01\nto: 2026-02-01\noverall_timeout: soon\n");

    BackfillSpec spec = BackfillSpecParser.load(good);

    assertThat(spec.overallTimeout().duration()).isEqualTo(Duration.ofHours(8));
    assertThat(spec.overallTimeout().origin()).isEqualTo("overall_timeout in " + good);
    assertThatThrownBy(() -> BackfillSpecParser.load(bad))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot read " + bad + " at 'overall_timeout': 'soon' is not a timeout");
  }

  private Path write(String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, text);
  }
}
