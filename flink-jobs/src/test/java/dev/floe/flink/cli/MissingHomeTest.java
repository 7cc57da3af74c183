package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A command that only reads, plans or dry-runs, given a Floe home that holds no catalog (a typo in
 * FLOE_HOME, a cron job run from another folder), fails with one line naming the home and creates
 * nothing there; it used to create a whole empty catalog and send the user to `tables apply`.
 * Commands that create things keep creating the home; a dry run of `tables apply` shows what the
 * first apply creates.
 */
class MissingHomeTest {
  @TempDir Path work;

  static Stream<List<String>> commandsThatOnlyUseWhatExists() {
    String daily = CliRun.examples().resolve("jobs/fact_orders_daily.yaml").toString();
    return Stream.of(
        List.of("snapshots", "sales.fact_orders"),
        List.of("tags", "sales.fact_orders"),
        List.of("rollback", "sales.fact_orders", "--to-snapshot", "1", "--dry-run"),
        List.of("report", "sales.fact_orders", "--out", "WORK/report.html"),
        List.of("late", "plan", daily),
        List.of("maintain", "--plan", "--all"),
        List.of("run", daily, "--slice", "2026-10-03", "--dry-run"),
        // The outbox is the catalog's database: listing it created catalog.db.
        List.of("effects"),
        List.of("effects", "sales.fact_orders"));
  }

  @ParameterizedTest
  @MethodSource("commandsThatOnlyUseWhatExists")
  void aHomeThatDoesNotExistIsNotCreated(List<String> command) throws IOException {
    Path home = work.resolve("typo");

    CliRun run = CliRun.floe(home, args(command));

    assertRefused(run, home);
    assertThat(home).doesNotExist();
  }

  @ParameterizedTest
  @MethodSource("commandsThatOnlyUseWhatExists")
  void anEmptyFolderGetsNoCatalog(List<String> command) throws IOException {
    Path home = Files.createDirectories(work.resolve("empty"));

    CliRun run = CliRun.floe(home, args(command));

    assertRefused(run, home);
    try (Stream<Path> files = Files.list(home)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void aDryRunOfTablesApplyPlansTheFirstApplyAndCreatesNothing() {
    Path home = work.resolve("new");
    String tables = CliRun.examples().resolve("tables").toString();

    CliRun run = CliRun.floe(home, "tables", "apply", tables, "--dry-run");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("Plan (dry run, nothing changed)", "create table sales.fact_orders");
    assertThat(home).doesNotExist();
  }

  @ParameterizedTest
  @MethodSource("commandsThatOnlyUseWhatExists")
  void aHomeThatExistsIsUsedAsBefore(List<String> command) {
    Path home = work.resolve("home");
    String tables = CliRun.examples().resolve("tables").toString();
    assertThat(CliRun.floe(home, "tables", "apply", tables).exitCode()).isZero();

    CliRun run = CliRun.floe(home, args(command));

    assertThat(run.err()).doesNotContain("holds no Floe home");
  }

  /** The command's arguments, its files in the test's folder ({@code WORK/...}). */
  private String[] args(List<String> command) {
    return command.stream().map(arg -> arg.replace("WORK/", work + "/")).toArray(String[]::new);
  }

  private static void assertRefused(CliRun run, Path home) {
    assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "floe: Cannot open the catalog: "
                + home
                + " holds no Floe home (FLOE_HOME or --home); create one with `floe tables apply`"
                + " or `floe quickstart`\n");
  }
}
