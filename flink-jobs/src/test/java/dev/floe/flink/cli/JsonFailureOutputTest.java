package dev.floe.flink.cli;

import static dev.floe.flink.cli.CliRun.examples;
import static dev.floe.flink.cli.CliRun.floe;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With --json a failing command still prints one JSON object on stdout (status, exit code and the
 * error line), so a script that reads stdout gets an object either way; without --json stdout stays
 * empty on failure.
 */
class JsonFailureOutputTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  @Test
  void aFailedRunAndAFailedMetadataCommandPrintTheirFailureAsJson() throws Exception {
    CliRun apply = floe(home, "tables", "apply", examples().resolve("tables").toString());
    assertThat(apply.exitCode()).as(apply.err()).isZero();
    String job = examples().resolve("jobs/fact_orders_daily.yaml").toString();

    CliRun badSlice = floe(home, "run", job, "--slice", "2026-02-30", "--json");
    CliRun noTable = floe(home, "snapshots", "sales.nope", "--json");
    CliRun plain = floe(home, "snapshots", "sales.nope");

    for (CliRun run : new CliRun[] {badSlice, noTable}) {
      assertThat(run.exitCode()).isEqualTo(2);
      JsonNode json = JSON.readTree(run.out());
      assertThat(json.get("status").asText()).isEqualTo("failed");
      assertThat(json.get("exit_code").asInt()).isEqualTo(2);
      assertThat("floe: " + json.get("error").asText() + "\n").isEqualTo(run.err());
    }
    assertThat(badSlice.err()).startsWith("floe: Cannot parse --slice '2026-02-30'");
    assertThat(plain.exitCode()).isEqualTo(2);
    assertThat(plain.out()).isEmpty();
  }
}
