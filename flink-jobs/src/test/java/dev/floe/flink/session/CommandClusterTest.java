package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.flink.cli.FloeMain;
import java.io.PrintWriter;
import java.io.StringWriter;
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

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        FloeMain.execute(
            new String[] {
              "sql",
              "CREATE DATABASE IF NOT EXISTS s; CREATE TABLE s.t (id BIGINT);"
                  + " INSERT INTO s.t VALUES (1), (2); INSERT INTO s.t VALUES (3);"
                  + " SELECT count(*) AS n FROM s.t",
              "--home",
              home.toString()
            },
            new PrintWriter(out, true),
            new PrintWriter(err, true));

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("3");
    assertThat(LocalCluster.clustersStarted() - started).as("three jobs, one cluster").isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void aStatementFailingMidScriptStillStopsTheCluster() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();
    StringWriter err = new StringWriter();

    int code =
        FloeMain.execute(
            new String[] {
              "sql",
              "CREATE DATABASE IF NOT EXISTS s; CREATE TABLE s.u (id BIGINT);"
                  + " INSERT INTO s.u VALUES (1); SELECT CAST('x' AS INT); SELECT 1",
              "--home",
              home.toString()
            },
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true));

    assertThat(code).as(err.toString()).isNotZero();
    assertThat(LocalCluster.clustersStarted() - started).isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void theQuickstartRunsEveryStepOnOneCluster() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();
    StringWriter err = new StringWriter();

    int code =
        FloeMain.execute(
            new String[] {"quickstart", "--home", home.toString()},
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true));

    assertThat(code).as(err.toString()).isZero();
    assertThat(LocalCluster.clustersStarted() - started).isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void aStatementWithoutAJobStartsNoCluster() {
    int started = LocalCluster.clustersStarted();

    int code =
        FloeMain.execute(
            new String[] {"sql", "CREATE DATABASE IF NOT EXISTS s", "--home", home.toString()},
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(new StringWriter(), true));

    assertThat(code).isZero();
    assertThat(LocalCluster.clustersStarted()).isEqualTo(started);
  }
}
