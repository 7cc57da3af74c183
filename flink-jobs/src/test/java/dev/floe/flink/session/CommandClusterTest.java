package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.flink.cli.CliRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command's jobs run on one local cluster of its own, stopped when the command ends. */
class CommandClusterTest {
  @TempDir Path home;

  @Test
  void aSqlScriptsStatementsShareOneClusterThatIsStoppedWhenTheScriptEnds() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();

    CliRun ran =
        floe(
            "sql",
            "CREATE DATABASE IF NOT EXISTS s; CREATE TABLE s.t (id BIGINT);"
                + " INSERT INTO s.t VALUES (1), (2); INSERT INTO s.t VALUES (3);"
                + " SELECT count(*) AS n FROM s.t");

    assertThat(ran.exitCode()).as(ran.err()).isZero();
    assertThat(ran.out()).contains("3");
    assertThat(LocalCluster.clustersStarted() - started).as("three jobs, one cluster").isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void aStatementFailingMidScriptStillStopsTheCluster() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();

    CliRun ran =
        floe(
            "sql",
            "CREATE DATABASE IF NOT EXISTS s; CREATE TABLE s.u (id BIGINT);"
                + " INSERT INTO s.u VALUES (1); SELECT CAST('x' AS INT); SELECT 1");

    assertThat(ran.exitCode()).as(ran.err()).isNotZero();
    assertThat(LocalCluster.clustersStarted() - started).isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void theQuickstartRunsEveryStepOnOneCluster() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();

    CliRun ran = floe("quickstart");

    assertThat(ran.exitCode()).as(ran.err()).isZero();
    assertThat(LocalCluster.clustersStarted() - started).isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void aStatementWithoutAJobStartsNoCluster() {
    int started = LocalCluster.clustersStarted();

    CliRun ran = floe("sql", "CREATE DATABASE IF NOT EXISTS s");

    assertThat(ran.exitCode()).isZero();
    assertThat(LocalCluster.clustersStarted()).isEqualTo(started);
  }

  @Test
  void aStatementRefusedByValidationStartsNoCluster() {
    int started = LocalCluster.clustersStarted();

    CliRun ran = floe("sql", "SELECT * FROM no_such_table");

    assertThat(ran.exitCode()).isEqualTo(2);
    assertThat(LocalCluster.clustersStarted()).isEqualTo(started);
  }

  @Test
  void aQueryRefusedWhileFlinkPlansItStopsTheClusterStartedForIt() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();

    // Valid, so its cluster starts while Flink plans it; folding 1 / 0 then fails the planning.
    CliRun ran = floe("sql", "SELECT 1 / 0");

    assertThat(ran.exitCode()).as(ran.err()).isEqualTo(2);
    assertThat(LocalCluster.clustersStarted() - started).isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  private CliRun floe(String... args) {
    return CliRun.floe(home, args);
  }
}
