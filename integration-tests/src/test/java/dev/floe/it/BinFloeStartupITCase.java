package dev.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How bin/floe starts a command quickly: a metadata command loads neither Flink's SQL planner nor a
 * MiniCluster, and bin/floe keeps a class-data archive per command under the build output that it
 * creates itself, maps on later starts, replaces when its inputs change and never crashes on.
 * Checked by class loading and by the files, not by time.
 */
class BinFloeStartupITCase {
  private static final Path ARCHIVES = BinFloe.repoRoot().resolve("flink-jobs/target/cds");

  @TempDir Path work;

  @BeforeEach
  void createTheExampleTables() throws Exception {
    Path tables = BinFloe.repoRoot().resolve("examples/tables");
    BinFloe.Result applied = BinFloe.run(work, "tables", "apply", tables.toString());
    assertThat(applied.exitCode()).as(applied.err()).isZero();
  }

  @Test
  void snapshotsLoadsNoSqlPlannerNorMiniClusterAndMapsTheArchiveItsFirstRunCreated()
      throws Exception {
    // A JVM option unique to this test gives it archives of its own (the options are in the key).
    Map<String, String> environment = classLoadLog("startup-" + UUID.randomUUID());
    Set<Path> before = archives("snapshots");
    // Help runs no command: an archive of its classes would stand for none.
    BinFloe.Result help = BinFloe.run(work, environment, "snapshots", "--help");
    assertThat(help.exitCode()).as(help.err()).isZero();
    assertThat(archives("snapshots")).as("no archive from --help").isEqualTo(before);
    // A command without its subcommand is a usage error (exit 2): no archive either.
    Set<Path> tablesBefore = archives("tables");
    BinFloe.Result usage = BinFloe.run(work, environment, "tables");
    assertThat(usage.exitCode()).as(usage.err()).isEqualTo(2);
    assertThat(usage.err()).contains("without a subcommand", "(see `floe tables --help`)");
    assertThat(archives("tables")).as("no archive from a usage text").isEqualTo(tablesBefore);

    BinFloe.Result first = BinFloe.run(work, environment, "snapshots", "sales.fact_orders");
    String firstClasses = Files.readString(work.resolve("classes.log"), StandardCharsets.UTF_8);
    Set<Path> created = difference(archives("snapshots"), before);
    BinFloe.Result second = BinFloe.run(work, environment, "snapshots", "sales.fact_orders");
    String secondClasses = Files.readString(work.resolve("classes.log"), StandardCharsets.UTF_8);

    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(second.exitCode()).as(second.err()).isZero();
    assertThat(second.out()).isEqualTo(first.out()).contains("has no snapshots yet");
    assertThat(second.err()).isEqualTo(first.err());
    for (String classes : new String[] {firstClasses, secondClasses}) {
      assertThat(classes)
          .contains("dev.floe.flink.cli.SnapshotsCommand")
          .doesNotContain("org.apache.flink.table.planner.")
          .doesNotContain("org.apache.flink.runtime.")
          .doesNotContain("org.apache.flink.table.api.internal.TableEnvironmentImpl");
    }
    assertThat(created).as("the first run dumps one archive").hasSize(1);
    assertThat(Files.size(created.iterator().next())).isPositive();
    assertThat(firstClasses).doesNotContain("source: shared objects file (top)");
    assertThat(secondClasses).contains("source: shared objects file (top)");
    // The embedded catalog's SQLite library is kept in floe.native-cache (SqliteNativeLibrary)
    // and loaded from there, not extracted to the temporary folder in every run.
    assertThat(Files.readString(work.resolve("libraries.log"), StandardCharsets.UTF_8))
        .containsPattern(
            "Loaded library "
                + Pattern.quote(work.resolve("native").toString())
                + "/sqlite-[^/]+/libsqlitejdbc");
  }

  @Test
  void noArchiveFromAFailedRunATruncatedOneIsReplacedAndOneForOtherOptionsIsDeleted()
      throws Exception {
    Map<String, String> firstOptions = classLoadLog("startup-" + UUID.randomUUID());
    Set<Path> before = archives("tags");
    // A run that fails early loads too few classes to be worth an archive: none is kept.
    BinFloe.Result failed = BinFloe.run(work, firstOptions, "tags", "sales.no_such_table");
    assertThat(failed.exitCode()).isNotZero();
    assertThat(archives("tags")).isEqualTo(before);
    BinFloe.Result dumped = BinFloe.run(work, firstOptions, "tags", "sales.fact_orders");
    Path archive = difference(archives("tags"), before).iterator().next();

    // Truncated, as a full disk or a copy cut short would leave it: mapping it would crash the JVM.
    byte[] head = new byte[1 << 20];
    try (var in = Files.newInputStream(archive)) {
      assertThat(in.readNBytes(head, 0, head.length)).isEqualTo(head.length);
    }
    Files.delete(archive);
    Files.write(archive, head);
    BinFloe.Result afterTruncation = BinFloe.run(work, firstOptions, "tags", "sales.fact_orders");
    String classes = Files.readString(work.resolve("classes.log"), StandardCharsets.UTF_8);

    assertThat(dumped.exitCode()).as(dumped.err()).isZero();
    assertThat(afterTruncation.exitCode()).as(afterTruncation.err()).isZero();
    assertThat(afterTruncation.out()).isEqualTo(dumped.out());
    assertThat(classes).doesNotContain("source: shared objects file (top)");
    Set<Path> redumped = difference(archives("tags"), before);
    assertThat(redumped).as("dumped anew").hasSize(1);
    assertThat(Files.size(redumped.iterator().next())).isGreaterThan(head.length);

    // Other JVM options (as after a rebuilt jar or another JDK): a new archive, the old one goes.
    Map<String, String> otherOptions = classLoadLog("startup-" + UUID.randomUUID());
    BinFloe.Result other = BinFloe.run(work, otherOptions, "tags", "sales.fact_orders");
    assertThat(other.exitCode()).as(other.err()).isZero();
    String oldKey = archive.getFileName().toString().replaceAll("-[0-9]+\\.jsa$", "-");
    assertThat(archives("tags"))
        .hasSize(1)
        .noneMatch(f -> f.getFileName().toString().startsWith(oldKey));
  }

  @Test
  void sqlKeepsTheArchiveOfItsFirstQueryWithAJobNotOfAStatementWithoutOneNorOfAFailure()
      throws Exception {
    Map<String, String> environment = classLoadLog("startup-" + UUID.randomUUID());
    Set<Path> before = archives("sql");
    String query = "SELECT count(*) AS n FROM sales.fact_orders";

    // No job: an archive of these classes would lack the planner's and the cluster's.
    BinFloe.Result noJob = BinFloe.run(work, environment, "sql", "SHOW TABLES FROM sales");
    assertThat(noJob.exitCode()).as(noJob.err()).isZero();
    assertThat(noJob.out()).contains("fact_orders");
    assertThat(archives("sql")).as("no archive without a job").isEqualTo(before);
    BinFloe.Result failed =
        BinFloe.run(work, environment, "sql", "SELECT count(*) FROM sales.no_such_table");
    assertThat(failed.exitCode()).as(failed.err()).isEqualTo(2);
    assertThat(archives("sql")).as("no archive from a failed run").isEqualTo(before);

    BinFloe.Result first = BinFloe.run(work, environment, "sql", "--json", query);
    String firstClasses = Files.readString(work.resolve("classes.log"), StandardCharsets.UTF_8);
    Set<Path> created = difference(archives("sql"), before);
    BinFloe.Result second = BinFloe.run(work, environment, "sql", "--json", query);
    String secondClasses = Files.readString(work.resolve("classes.log"), StandardCharsets.UTF_8);
    BinFloe.Result noJobAgain = BinFloe.run(work, environment, "sql", "SHOW TABLES FROM sales");
    String noJobClasses = Files.readString(work.resolve("classes.log"), StandardCharsets.UTF_8);

    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(second.exitCode()).as(second.err()).isZero();
    // The dumping run's results stay exact: the JDK's "Dynamic dump to file" line is not in them.
    assertThat(second.out()).isEqualTo(first.out()).contains("\"row_count\" : 1");
    assertThat(second.err()).isEqualTo(first.err());
    assertThat(created).as("the query with a job dumps one archive").hasSize(1);
    // Flink's loaders would unpack the planner and Pekko into the temporary directory and load
    // them from there, in class loaders of their own that no archive covers.
    assertThat(firstClasses)
        .containsPattern(
            "org\\.apache\\.flink\\.table\\.planner\\.\\S+ source: \\S*flink-table-planner_2\\.12")
        .containsPattern(
            "org\\.apache\\.flink\\.runtime\\.rpc\\.pekko\\.\\S+ source: \\S*flink-rpc-akka-2");
    assertThat(secondClasses)
        .containsPattern(
            "org\\.apache\\.flink\\.table\\.planner\\.\\S+ source: shared objects file \\(top\\)")
        .containsPattern(
            "org\\.apache\\.flink\\.runtime\\.rpc\\.pekko\\.\\S+ source: shared objects file \\(top\\)")
        .containsPattern(
            "org\\.apache\\.flink\\.runtime\\.minicluster\\.MiniCluster source: shared objects file \\(top\\)");
    // The planner loads thousands of classes only to compare types, without linking them; the
    // dumping run links them, so the archive holds them and later runs read few from jars (about
    // 250: class files older than Java 6, which the JDK cannot archive, classes extending them,
    // classes loaded after the dump). Unlinked, it was about 3,800.
    assertThat(secondClasses.lines().filter(line -> line.contains(" source: file:")).count())
        .as("classes the run with the archive read from jars")
        .isLessThan(600);
    assertThat(noJobAgain.exitCode()).as(noJobAgain.err()).isZero();
    assertThat(noJobAgain.out()).isEqualTo(noJob.out());
    assertThat(noJobClasses).contains("source: shared objects file (top)");
  }

  /**
   * Class-data sharing on (BinFloe turns it off for other tests), with FLOE_JAVA_OPTS that log
   * loaded classes to classes.log and native libraries to libraries.log, keep SQLite's library in
   * this test's folder, and carry a marker in the archive's key.
   */
  private Map<String, String> classLoadLog(String marker) {
    return Map.of(
        "FLOE_JAVA_OPTS",
        "-Xlog:class+load=info:file=classes.log -Xlog:library=info:file=libraries.log"
            + " -Dfloe.native-cache="
            + work.resolve("native")
            + " -Dfloe.test.marker="
            + marker,
        "FLOE_CDS",
        "1");
  }

  private static Set<Path> archives(String command) throws IOException {
    if (!Files.isDirectory(ARCHIVES)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.list(ARCHIVES)) {
      return files
          .filter(f -> f.getFileName().toString().startsWith(command + "-"))
          .filter(f -> f.getFileName().toString().endsWith(".jsa"))
          .collect(Collectors.toSet());
    }
  }

  private static Set<Path> difference(Set<Path> after, Set<Path> before) {
    return after.stream().filter(p -> !before.contains(p)).collect(Collectors.toSet());
  }
}
