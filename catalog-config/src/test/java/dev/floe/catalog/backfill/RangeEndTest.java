package dev.floe.catalog.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RangeEndTest {
  @TempDir Path dir;

  @Test
  void eachEndIsItsFlagWhenGivenElseTheManifestsKeyAndIsDescribedByWhereItCameFrom()
      throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(file, "job: job.yaml\nfrom: 2026-10-01\nto: 2026-10-09\n");
    BackfillSpec spec =
        BackfillSpecParser.load(file, BackfillSpecParser.givenByFlags("2026-10-09", null, null));

    RangeEnd from = RangeEnd.of("from", "2026-10-09", spec);
    RangeEnd to = RangeEnd.of("to", null, spec);

    assertThat(from).isEqualTo(new RangeEnd("2026-10-09", "--from"));
    assertThat(from.describe()).isEqualTo("--from 2026-10-09");
    assertThat(to).isEqualTo(new RangeEnd("2026-10-09", file + ": to"));
    assertThat(to.describe()).isEqualTo(file + ": to: 2026-10-09");
  }

  @Test
  void withoutAManifestAnEndIsItsFlagWithOrWithoutAValue() {
    assertThat(RangeEnd.of("to", "2026-10-05", null)).isEqualTo(new RangeEnd("2026-10-05", "--to"));
    assertThat(RangeEnd.of("from", null, null)).isEqualTo(new RangeEnd(null, "--from"));
  }
}
