package dev.floe.flink.maintain;

import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.MaintenanceCatalog;
import dev.floe.flink.cli.FloeMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.apache.iceberg.Table;

/**
 * {@code floe maintain --plan --all --json} on an embedded catalog of many tables
 * (docs/benchmarks.md, "Planning maintenance for 200 tables"). Not a test: run it with {@code java
 * -cp} (see the doc).
 *
 * <p>{@code build [tables]} creates the catalog in a new folder and prints it (200 tables in 10
 * namespaces: a quarter healthy with one file, a quarter with 6 small files in one day, a quarter
 * with 8 commits, 5 beyond {@code keep_last: 3}, a quarter with an orphan file 10 days old).
 *
 * <p>{@code plan HOME [runs] [out.json]} plans it {@code runs} times in this JVM (the first is the
 * cold one), prints each wall time and writes the last plan's JSON, without its {@code as_of} and
 * {@code planning_millis}, to {@code out.json}, so that two builds' plans can be compared byte for
 * byte.
 */
public final class PlanCatalogBench {
  private PlanCatalogBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("build")) {
      build(args.length > 1 ? Integer.parseInt(args[1]) : 200);
      return;
    }
    if (args.length < 2 || !args[0].equals("plan")) {
      System.err.println("usage: build [tables] | plan HOME [runs] [out.json]");
      System.exit(2);
    }
    Path home = Path.of(args[1]);
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path json = args.length > 3 ? Path.of(args[3]) : null;
    String last = null;
    for (int run = 1; run <= runs; run++) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      long started = System.nanoTime();
      long cpuStarted = cpuNanos();
      int code =
          FloeMain.execute(
              new String[] {"maintain", "--plan", "--all", "--json", "--home", home.toString()},
              new PrintWriter(out, true),
              new PrintWriter(err, true));
      double seconds = (System.nanoTime() - started) / 1e9;
      double cpu = (cpuNanos() - cpuStarted) / 1e9;
      if (code != 0) {
        System.err.println(err);
        throw new IllegalStateException("floe maintain --plan exited " + code);
      }
      last = out.toString();
      System.out.printf(
          Locale.ROOT,
          "run %d: %.2f s wall, %.2f s CPU of the process (planner's own planning_millis %s)%n",
          run,
          seconds,
          cpu,
          field(last, "planning_millis"));
    }
    if (json != null) {
      String stable =
          last.replaceAll("\"as_of\"\\s*:\\s*\"[^\"]*\"", "\"as_of\":\"-\"")
              .replaceAll("\"planning_millis\"\\s*:\\s*\\d+", "\"planning_millis\":0");
      Files.writeString(json, stable);
      System.out.println("plan JSON (as_of and planning_millis blanked) written to " + json);
    }
  }

  /** CPU time of the whole process (all threads, JIT and GC included). */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static String field(String json, String name) {
    var matcher = java.util.regex.Pattern.compile("\"" + name + "\"\\s*:\\s*(\\d+)").matcher(json);
    return matcher.find() ? matcher.group(1) : "?";
  }

  private static void build(int tables) throws Exception {
    EmbeddedCatalog catalog = new EmbeddedCatalog();
    catalog.beforeEach(null);
    MaintenanceCatalog t = new MaintenanceCatalog(catalog, Instant.now());
    long started = System.nanoTime();
    for (int i = 0; i < tables; i++) {
      String name = String.format(Locale.ROOT, "ns%02d.t%03d", i % 10, i);
      Table table = t.table(name);
      switch (i % 4) {
        case 0 -> t.files(table, MaintenanceCatalog.OLD_DAY, 1, 5);
        case 1 -> t.files(table, MaintenanceCatalog.OLD_DAY, 6, 5);
        case 2 -> t.history(table, MaintenanceCatalog.OLD_DAY, 8);
        default -> {
          t.files(table, MaintenanceCatalog.OLD_DAY, 1, 5);
          t.uncommitted(table, MaintenanceCatalog.OLD_DAY, Duration.ofDays(10));
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "built %d tables in %.1f s; home: %s%n",
        tables,
        (System.nanoTime() - started) / 1e9,
        catalog.home());
  }
}
