package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart prints text only: it does not offer {@code --json} (it took the flag and printed
 * its plain text anyway), and refuses it as any unknown option, in one line, exit 2.
 */
class QuickstartOptionsTest {
  @TempDir Path home;

  @Test
  void quickstartDoesNotOfferJson() {
    CliRun help = floe(home, "quickstart", "--help");
    CliRun json = floe(home, "quickstart", "--json");

    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("--home", "--catalog-property").doesNotContain("--json");
    assertThat(json.exitCode()).isEqualTo(2);
    assertThat(json.err())
        .isEqualTo("floe: Unknown option: '--json' (see `floe quickstart --help`)\n");
    assertThat(home).isEmptyDirectory();
  }
}
