package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
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

  @Test
  void quickstartRefusesACatalogOtherThanTheEmbeddedOneAndTouchesNothing(@TempDir Path project)
      throws Exception {
    // Run in a project folder whose floe.yaml names a shared catalog, it replaced that catalog's
    // sales.staging_orders with its three rows.
    Path floeYaml = project.resolve("floe.yaml");
    Files.writeString(
        floeYaml, "catalog:\n  type: rest\n  properties:\n    uri: http://127.0.0.1:9\n");

    CliRun run = floe(home, "quickstart", "--config", floeYaml.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "floe: Cannot run the quickstart on catalog 'floe' (rest): it overwrites"
                + " sales.staging_orders and sales.staging_customers and loads sales.fact_orders and"
                + " sales.dim_customer, which may be real tables there; it runs on the embedded"
                + " catalog only: run it in a folder without floe.yaml, or pass --config naming a"
                + " floe.yaml of type embedded\n");
    assertThat(home).isEmptyDirectory();
  }
}
