package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class MergeOptionsTest {

  @Test
  void defaultsMeasureThreeSizesInBothLayoutsWithAThousandKeyBatch() {
    MergeOptions o = MergeOptions.parse();

    assertThat(o.targetRows()).containsExactly(100_000L, 1_000_000L, 5_000_000L);
    assertThat(o.layouts()).containsExactly(Layout.CLUSTERED, Layout.RANDOM);
    assertThat(o.days()).isEqualTo(100);
    assertThat(o.rowsPerFile()).isZero();
    assertThat(o.batchKeys()).isEqualTo(1000);
    assertThat(o.updateKeys()).isEqualTo(500);
    assertThat(o.newKeys()).isEqualTo(500);
    assertThat(o.updatesPerHotDay()).isEqualTo(100);
    assertThat(o.repeat()).isEqualTo(3);
    assertThat(o.warmup()).isEqualTo(1);
    assertThat(o.parallelism()).isEqualTo(2);
    assertThat(o.deepVerify()).isTrue();
    assertThat(o.waitQuiet()).isTrue();
  }

  @Test
  void readsTheDocumentedArguments() {
    MergeOptions o =
        MergeOptions.parse(
            "--target-rows",
            "100k,1_000_000,2M",
            "--layouts",
            "RANDOM, clustered,random",
            "--days",
            "10",
            "--rows-per-file",
            "10k",
            "--batch-keys",
            "11",
            "--hot-days",
            "3",
            "--repeat",
            "5",
            "--warmup",
            "0",
            "--parallelism",
            "4",
            "--profile",
            "--no-deep-verify",
            "--keep",
            "--no-wait-quiet");

    assertThat(o.targetRows()).isEqualTo(List.of(100_000L, 1_000_000L, 2_000_000L));
    assertThat(o.layouts()).containsExactly(Layout.RANDOM, Layout.CLUSTERED);
    assertThat(o.days()).isEqualTo(10);
    assertThat(o.rowsPerFile()).isEqualTo(10_000);
    assertThat(o.updateKeys()).isEqualTo(5);
    assertThat(o.newKeys()).isEqualTo(6);
    assertThat(o.updatesPerHotDay()).isEqualTo(2);
    assertThat(o.repeat()).isEqualTo(5);
    assertThat(o.warmup()).isZero();
    assertThat(o.parallelism()).isEqualTo(4);
    assertThat(o.profile()).isTrue();
    assertThat(o.deepVerify()).isFalse();
    assertThat(o.keep()).isTrue();
    assertThat(o.waitQuiet()).isFalse();
    assertThat(MergeOptions.parse("--rows-per-file", "0").rowsPerFile()).isZero();
  }

  @Test
  void rejectsUnknownArgumentsAndBadValuesByName() {
    assertThatThrownBy(() -> MergeOptions.parse("--rows", "1M")).hasMessageContaining("'--rows'");
    assertThatThrownBy(() -> MergeOptions.parse("--layouts", "sorted"))
        .hasMessageContaining("'sorted'")
        .hasMessageContaining("clustered or random");
    assertThatThrownBy(() -> MergeOptions.parse("--batch-keys", "1"))
        .hasMessageContaining("--batch-keys 1");
    assertThatThrownBy(() -> MergeOptions.parse("--days")).hasMessageContaining("needs a value");
    assertThatThrownBy(() -> MergeOptions.parse("--days", "5", "--hot-days", "6"))
        .hasMessageContaining("--hot-days 6")
        .hasMessageContaining("only 5 days");
  }

  @Test
  void refusesATargetTooSmallToHoldTheUpdatesOfEachHotDay() {
    // 500 updates from 5 days: 100 per day, every other id, so 200 rows per day, 20,000 in all.
    assertThat(MergeOptions.parse("--target-rows", "20000").targetRows()).containsExactly(20_000L);
    assertThatThrownBy(() -> MergeOptions.parse("--target-rows", "19999,1M"))
        .hasMessageContaining("--target-rows 19,999")
        .hasMessageContaining("200 rows per day")
        .hasMessageContaining("at least 20,000 rows");
  }
}
