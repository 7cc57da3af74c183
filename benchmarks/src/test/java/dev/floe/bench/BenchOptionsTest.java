package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

  @Test
  void readsTheDocumentedArguments() {
    BenchOptions o =
        BenchOptions.parse("--rows", "1_000_000,10M,500k", "--repeat", "5", "--parallelism", "4");

    assertThat(o.rows()).containsExactly(1_000_000L, 10_000_000L, 500_000L);
    assertThat(o.repeat()).isEqualTo(5);
    assertThat(o.parallelism()).isEqualTo(4);
    assertThat(o.warmup()).isEqualTo(1);
    assertThat(o.waitQuiet()).isTrue();
  }

  @Test
  void defaultsMeasureOneAndTenMillionRowsAtParallelismTwo() {
    BenchOptions o = BenchOptions.parse();

    assertThat(o.rows()).isEqualTo(List.of(1_000_000L, 10_000_000L));
    assertThat(o.parallelism()).isEqualTo(2);
    assertThat(o.deepVerify()).isTrue();
  }

  @Test
  void rejectsUnknownArgumentsAndBadNumbersByName() {
    assertThatThrownBy(() -> BenchOptions.parse("--rowz", "1")).hasMessageContaining("'--rowz'");
    assertThatThrownBy(() -> BenchOptions.parse("--rows", "ten")).hasMessageContaining("'ten'");
    assertThatThrownBy(() -> BenchOptions.parse("--repeat", "0"))
        .hasMessageContaining("--repeat 0");
    assertThatThrownBy(() -> BenchOptions.parse("--repeat")).hasMessageContaining("needs a value");
  }
}
