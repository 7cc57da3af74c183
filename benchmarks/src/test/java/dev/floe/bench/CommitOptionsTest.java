package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CommitOptionsTest {

  @Test
  void defaultsAreTheIssuesScenario() {
    CommitOptions o = CommitOptions.parse();

    assertThat(o.commits()).isEqualTo(1000);
    assertThat(o.partitions()).isEqualTo(365);
    assertThat(o.retention()).isTrue();
  }

  @Test
  void keepLastZeroTurnsRetentionOffAndBadValuesAreNamed() {
    assertThat(CommitOptions.parse("--keep-last", "0", "--commits", "1k").retention()).isFalse();
    assertThat(CommitOptions.parse("--commits", "1k").commits()).isEqualTo(1000);
    assertThatThrownBy(() -> CommitOptions.parse("--commits", "0"))
        .hasMessageContaining("--commits 0: must be >= 1");
    assertThatThrownBy(() -> CommitOptions.parse("--window", "x")).hasMessageContaining("'x'");
    assertThatThrownBy(() -> CommitOptions.parse("--comits", "1"))
        .hasMessageContaining("'--comits'");
  }
}
