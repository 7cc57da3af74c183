package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BackfillOptionsTest {

  @Test
  void defaultsMeasureAHundredSlicesOfTenThousandRowsAtConcurrencyOneAndTwo() {
    BackfillOptions o = BackfillOptions.parse();

    assertThat(o.slices()).isEqualTo(100);
    assertThat(o.rowsPerSlice()).isEqualTo(10_000L);
    assertThat(o.totalRows()).isEqualTo(1_000_000L);
    assertThat(o.concurrency()).containsExactly(1, 2);
    assertThat(o.parallelism()).isEqualTo(1);
    assertThat(o.repeat()).isEqualTo(1);
    assertThat(o.warmup()).isEqualTo(1);
    assertThat(o.warmupSlices()).isEqualTo(4);
    assertThat(o.checks()).isFalse();
    assertThat(o.cliRun()).isTrue();
    assertThat(o.waitQuiet()).isTrue();
    assertThat(o.loop()).isTrue();
    assertThat(o.single()).isTrue();
    assertThat(o.singleParallelism()).isEqualTo(2);
  }

  @Test
  void readsTheDocumentedArguments() {
    BackfillOptions o =
        BackfillOptions.parse(
            "--slices",
            "4",
            "--rows-per-slice",
            "1k",
            "--concurrency",
            "4,1,4,2",
            "--parallelism",
            "2",
            "--repeat",
            "3",
            "--warmup",
            "0",
            "--checks",
            "--no-cli",
            "--dir",
            "/tmp/bf",
            "--keep",
            "--no-wait-quiet",
            "--no-loop",
            "--no-single",
            "--single-parallelism",
            "3");

    assertThat(o.slices()).isEqualTo(4);
    assertThat(o.rowsPerSlice()).isEqualTo(1_000L);
    assertThat(o.concurrency()).containsExactly(4, 1, 2); // distinct, in the order given
    assertThat(o.parallelism()).isEqualTo(2);
    assertThat(o.repeat()).isEqualTo(3);
    assertThat(o.warmup()).isZero();
    assertThat(o.checks()).isTrue();
    assertThat(o.cliRun()).isFalse();
    assertThat(o.workDir()).isEqualTo(Path.of("/tmp/bf"));
    assertThat(o.keep()).isTrue();
    assertThat(o.waitQuiet()).isFalse();
    assertThat(o.loop()).isFalse();
    assertThat(o.single()).isFalse();
    assertThat(o.singleParallelism()).isEqualTo(3);
  }

  @Test
  void aWarmUpRoundNeverLoadsMoreSlicesThanTheRange() {
    assertThat(BackfillOptions.parse("--slices", "2").warmupSlices()).isEqualTo(2);
    assertThat(BackfillOptions.parse("--slices", "1_000").warmupSlices()).isEqualTo(4);
  }

  @Test
  void rejectsUnknownArgumentsAndBadValuesByName() {
    assertThatThrownBy(() -> BackfillOptions.parse("--slice", "3"))
        .hasMessageContaining("'--slice'");
    assertThatThrownBy(() -> BackfillOptions.parse("--slices", "0"))
        .hasMessageContaining("--slices 0: must be >= 1");
    assertThatThrownBy(() -> BackfillOptions.parse("--concurrency", "1,0"))
        .hasMessageContaining("--concurrency 0: must be >= 1");
    assertThatThrownBy(() -> BackfillOptions.parse("--concurrency", "1,two"))
        .hasMessageContaining("'two'");
    assertThatThrownBy(() -> BackfillOptions.parse("--rows-per-slice", "ten"))
        .hasMessageContaining("'ten'");
    assertThatThrownBy(() -> BackfillOptions.parse("--rows-per-slice"))
        .hasMessageContaining("needs a value");
  }
}
