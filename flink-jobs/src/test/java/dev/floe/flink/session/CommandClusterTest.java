package dev.floe.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.flink.cli.FloeMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command's jobs run on one local cluster of its own, stopped when the command ends. */
class CommandClusterTest {
  @TempDir Path home;

  private record Ran(int code, String out, String err) {}

  @Test
  void aSqlScriptsStatementsShareOneClusterThatIsStoppedWhenTheScriptEnds() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();

    Ran ran =
        floe(
            "sql",
            "CREATE DATABASE IF NOT EXISTS s; CREATE TABLE s.t (id BIGINT);"
                + " INSERT INTO s.t VALUES (1), (2); INSERT INTO s.t VALUES (3);"
                + " SELECT count(*) AS n FROM s.t");

    assertThat(ran.code()).as(ran.err()).isZero();
    assertThat(ran.out()).contains("3");
    assertThat(LocalCluster.clustersStarted() - started).as("three jobs, one cluster").isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void aStatementFailingMidScriptStillStopsTheCluster() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();

    Ran ran =
        floe(
            "sql",
            "CREATE DATABASE IF NOT EXISTS s; CREATE TABLE s.u (id BIGINT);"
                + " INSERT INTO s.u VALUES (1); SELECT CAST('x' AS INT); SELECT 1");

    assertThat(ran.code()).as(ran.err()).isNotZero();
    assertThat(LocalCluster.clustersStarted() - started).isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void theQuickstartRunsEveryStepOnOneCluster() {
    int started = LocalCluster.clustersStarted();
    int stopped = LocalCluster.clustersStopped();

    Ran ran = floe("quickstart");

    assertThat(ran.code()).as(ran.err()).isZero();
    assertThat(LocalCluster.clustersStarted() - started).isEqualTo(1);
    assertThat(LocalCluster.clustersStopped() - stopped).isEqualTo(1);
  }

  @Test
  void aStatementWithoutAJobStartsNoCluster() {
    int started = LocalCluster.clustersStarted();

    Ran ran = floe("sql", "CREATE DATABASE IF NOT EXISTS s");

    assertThat(ran.code()).isZero();
    assertThat(LocalCluster.clustersStarted()).isEqualTo(started);
  }

  /** Runs {@code floe args --home <home>} in this JVM. */
  private Ran floe(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--home");
    all.add(home.toString());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        FloeMain.execute(
            all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    return new Ran(code, out.toString(), err.toString());
  }
}
