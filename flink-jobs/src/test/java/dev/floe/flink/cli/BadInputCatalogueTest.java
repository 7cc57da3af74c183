package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.flink.cli.BadInput.Group;
import dev.floe.flink.session.LocalCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input catalogue (issue 13): every row of {@link BadInputCatalogue} runs the CLI
 * in-process against one Floe home holding the examples, and must end with its exit code, one line
 * on stderr that starts with {@code floe: } and nothing else, no stack trace, no secret, and
 * nothing committed: every table's snapshot, refs, schema, partition spec, properties and content
 * hash, read through Iceberg, are as before. The tables in docs/reliability.md are generated from
 * the same rows; run with {@code -Dfloe.docs.update=true} to rewrite them.
 */
class BadInputCatalogueTest {
  /** The longest line a row may print: a value quoted in a message is cut, never the line. */
  static final int MAX_LINE = 1500;

  static final String DOC = "docs/reliability.md";
  static final String BEGIN =
      "<!-- The tables below are generated from the rows of BadInputCatalogue; BadInputCatalogueTest"
          + " fails when they drift. Regenerate them with:\n"
          + "./mvnw -B -o -q -pl flink-jobs test -Dtest=BadInputCatalogueTest"
          + " -Dfloe.docs.update=true -Dsurefire.failIfNoSpecifiedTests=false -->\n";
  static final String END = "<!-- end of the generated bad-input tables -->\n";

  @TempDir static Path root;
  private static Path home;
  private static LocalCluster cluster;
  private static Map<String, String> before;
  private static Catalog catalog;

  @BeforeAll
  static void aHomeWithTheExamplesLoaded() {
    cluster = LocalCluster.start(2);
    home = root.resolve("home");
    Path examples = CliRun.examples();
    ok("tables", "apply", examples.resolve("tables").toString());
    ok("sql", "-f", examples.resolve("sql/seed_staging.sql").toString());
    ok("sql", "-f", examples.resolve("sql/seed_staging_customer.sql").toString());
    ok("run", examples.resolve("jobs/fact_orders_daily.yaml").toString(), "--slice", "2026-10-03");
    catalog = Catalogs.open(CatalogConfigLoader.embedded(home));
    Map<String, String> beforeTheMerge = catalogState();
    ok("run", examples.resolve("jobs/dim_customer_merge.yaml").toString());
    before = catalogState();
    assertThat(before)
        .as("the state a row must leave sees a commit")
        .containsKeys("sales.fact_orders", "sales.dim_customer")
        .isNotEqualTo(beforeTheMerge);
  }

  @AfterAll
  static void stopTheCluster() {
    if (catalog != null) {
      Catalogs.close(catalog);
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  static Stream<Named<Numbered>> rows() {
    return numbered().stream().map(Numbered::named);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void isRefusedInOneLineAndCommitsNothing(Numbered numbered) throws IOException {
    check(numbered);
  }

  @Test
  void theCatalogueHasAtLeastSixtyRows() {
    assertThat(numbered()).hasSizeGreaterThanOrEqualTo(60);
  }

  @Test
  void docsReliabilityShowsTheCatalogue() throws IOException {
    Path file = repositoryRoot().resolve(DOC);
    String text = Files.readString(file, StandardCharsets.UTF_8);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertThat(begin).as("%s holds the marker %s", DOC, BEGIN).isNotNegative();
    assertThat(end).as("%s holds the marker %s", DOC, END).isGreaterThan(begin);
    String current = text.substring(begin + BEGIN.length(), end);
    String rendered = render();
    if (Boolean.getBoolean("floe.docs.update")) {
      Files.writeString(
          file,
          text.substring(0, begin + BEGIN.length()) + rendered + text.substring(end),
          StandardCharsets.UTF_8);
      return;
    }
    assertThat(current)
        .as("%s is out of date with BadInputCatalogue; regenerate it: %s", DOC, BEGIN)
        .isEqualTo(rendered);
  }

  private void check(Numbered numbered) throws IOException {
    BadInput row = numbered.row();
    Path dir = Files.createDirectories(root.resolve("rows").resolve(numbered.id()));
    BadInput.RowFiles files = new BadInput.RowFiles(dir, home, CliRun.examples());
    String[] args = row.command().apply(files);

    CliRun run = CliRun.floe(files.home(), args);

    String err = files.normalize(run.err());
    String shown = err.length() > 3000 ? err.substring(0, 3000) + "..." : err;
    assertThat(run.exitCode()).as("exit code; stderr:%n%s", shown).isEqualTo(row.exit());
    assertThat(err + run.out())
        .as("no stack trace; stderr:%n%s", shown)
        .doesNotContain("\tat ", "Caused by", "Exception", "stack trace");
    List<String> lines = err.lines().toList();
    assertThat(lines).as("stderr").isNotEmpty();
    String line = lines.get(0);
    assertThat(line).as("the line on stderr").startsWith("floe: ").hasSizeLessThan(MAX_LINE);
    assertThat(line).as("the line on stderr").matches(row.pattern());
    assertThat(lines).as("stderr is one line").hasSize(1);
    if (row.secret() != null) {
      assertThat(run.out() + run.err()).as("the secret").doesNotContain(row.secret());
    }
    assertThat(catalogState()).as("nothing committed").isEqualTo(before);
  }

  /**
   * Every table of the catalog with what a commit would change: its snapshot, refs, schema,
   * partition spec, properties and the hash of its rows, read through Iceberg.
   */
  static Map<String, String> catalogState() {
    Map<String, String> state = new TreeMap<>();
    for (Namespace namespace : ((SupportsNamespaces) catalog).listNamespaces()) {
      state.put("namespace " + namespace, "");
      for (TableIdentifier id : catalog.listTables(namespace)) {
        Table table = catalog.loadTable(id);
        Snapshot head = table.currentSnapshot();
        state.put(
            id.toString(),
            String.format(
                "snapshot=%s refs=%s schema=%d spec=%d properties=%s content=%s",
                head == null ? "none" : head.snapshotId(),
                new TreeMap<>(table.refs()),
                table.schema().schemaId(),
                table.spec().specId(),
                new TreeMap<>(table.properties()),
                TableContent.hash(table)));
      }
    }
    return state;
  }

  /** The catalogue's tables, one per group, as docs/reliability.md shows them. */
  static String render() {
    StringBuilder out = new StringBuilder();
    int number = 0;
    for (Group group : BadInputCatalogue.GROUPS) {
      out.append("\n### ").append(group.title()).append("\n\n");
      out.append(group.about()).append("\n\n");
      out.append("| # | Input | The user sees (stderr) | Exit | Committed |\n");
      out.append("| --- | --- | --- | --- | --- |\n");
      for (BadInput row : group.rows()) {
        number++;
        String says = code(row.says());
        out.append("| ")
            .append(number)
            .append(" | ")
            .append(cell(row.input()))
            .append(" | ")
            .append(cell(says))
            .append(" | ")
            .append(row.exit())
            .append(" | nothing |\n");
      }
    }
    return out.append('\n').toString();
  }

  private static String code(String text) {
    String fence = text.contains("`") ? "``" : "`";
    String padding = text.startsWith("`") || text.endsWith("`") ? " " : "";
    return fence + padding + text + padding + fence;
  }

  private static String cell(String markdown) {
    return markdown.replace("|", "\\|").replaceAll("\\s*\\R\\s*", " ");
  }

  /** A row with its number in the catalogue, which also names its folder. */
  record Numbered(int number, String group, BadInput row) {
    String id() {
      return String.format("%03d", number);
    }

    Named<Numbered> named() {
      return Named.of(
          number + " " + group + ": " + row.input().replace("`", "").replaceAll("\\s+", " "), this);
    }
  }

  static List<Numbered> numbered() {
    List<Numbered> all = new ArrayList<>();
    for (Group group : BadInputCatalogue.GROUPS) {
      for (BadInput row : group.rows()) {
        all.add(new Numbered(all.size() + 1, group.title(), row));
      }
    }
    return all;
  }

  private static void ok(String... args) {
    CliRun run = CliRun.floe(home, args);
    assertThat(run.exitCode()).as("floe %s: %s", String.join(" ", args), run.err()).isZero();
  }

  /** Surefire runs in the module folder; the docs live next to {@code mvnw}. */
  private static Path repositoryRoot() {
    Path start = Path.of("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve("mvnw"))) {
        return dir;
      }
    }
    throw new IllegalStateException("Cannot find the repository root above " + start);
  }
}
