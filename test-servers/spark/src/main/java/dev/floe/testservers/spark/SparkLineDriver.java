package dev.floe.testservers.spark;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Apache Spark in local mode as a child process of a test, bound to 127.0.0.1 with its UI off, one
 * Iceberg catalog named {@code floe} when arguments configure one ({@code key=value}, Iceberg
 * catalog properties such as {@code catalog-impl}, {@code uri}, {@code warehouse}), and more
 * catalogs added while it runs.
 *
 * <p>The protocol, one request per line on stdin: {@code CATALOG <name> <key=value>...} adds an
 * Iceberg catalog (Spark loads it at first use; names cannot be reused), {@code SQL <statement>}
 * runs the statement and answers each result row as {@code ROW <canonical form>} ({@link
 * CanonicalValue}), then {@code OK <rows>}; a failure answers {@code ERR <message on one line>}.
 * {@code QUIT} (or the end of stdin) stops Spark and the process. {@code READY} is printed once
 * Spark has started. Answers are the only thing on stdout: logs go to stderr.
 */
public final class SparkLineDriver {
  private SparkLineDriver() {}

  public static void main(String[] args) throws Exception {
    PrintStream answers =
        new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err); // whatever Spark prints must not look like an answer
    long started = System.nanoTime();
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName("floe-test-spark")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.default.parallelism", "2")
            .config("spark.sql.catalogImplementation", "in-memory")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.datetime.java8API.enabled", "true")
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
    if (args.length > 0) {
      builder.config("spark.sql.catalog.floe", "org.apache.iceberg.spark.SparkCatalog");
    }
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("Cannot read argument '" + arg + "': expected k=v");
      }
      builder.config("spark.sql.catalog.floe." + arg.substring(0, eq), arg.substring(eq + 1));
    }
    SparkSession spark = builder.getOrCreate();
    answers.printf("READY %d ms%n", (System.nanoTime() - started) / 1_000_000);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.equals("QUIT")) {
          break;
        }
        if (line.startsWith("CATALOG ")) {
          String[] words = line.substring("CATALOG ".length()).trim().split(" ");
          String prefix = "spark.sql.catalog." + words[0];
          spark.conf().set(prefix, "org.apache.iceberg.spark.SparkCatalog");
          for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            spark.conf().set(prefix + "." + words[i].substring(0, eq), words[i].substring(eq + 1));
          }
          answers.println("OK 0");
          continue;
        }
        if (!line.startsWith("SQL ")) {
          answers.println("ERR Cannot read request: expected CATALOG, SQL or QUIT");
          continue;
        }
        try {
          List<Row> rows = spark.sql(line.substring(4)).collectAsList();
          for (Row row : rows) {
            List<Object> values = new ArrayList<>(row.length());
            for (int i = 0; i < row.length(); i++) {
              values.add(row.get(i));
            }
            answers.println("ROW " + CanonicalValue.row(values));
          }
          answers.println("OK " + rows.size());
        } catch (Exception e) {
          e.printStackTrace();
          String message = String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
          answers.println("ERR " + e.getClass().getSimpleName() + ": " + message);
        }
      }
    } finally {
      spark.stop();
    }
  }
}
