package dev.floe.catalog.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.manifest.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobSpecParserTest {
  private static final String SOURCE = "jobs/fact_orders.yaml";

  private static final String QUERY =
      """
      SELECT order_id, customer_id, amount, order_date, status
      FROM sales.staging_orders
      WHERE order_date >= :slice_start AND order_date < :slice_end
      """;

  /** The README example (mode left to its default) with one check of every kind. */
  private static final String FACT_ORDERS =
      """
      job: fact_orders_daily
      description: One day of orders, replaced as a whole.
      target: sales.fact_orders
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date, status
        FROM sales.staging_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
      checks:
        - not_null: [order_id, amount]
        - unique: [order_id]
        - row_count: {min: 1, max: 1000000}
        - accepted_values: {column: status, values: [open, shipped, 3]}
      allow_nondeterministic: true
      parallelism: 4
      """;

  /** The smallest valid manifest; tests replace one line of it. */
  private static final String MINIMAL =
      """
      job: fact_orders_daily
      target: sales.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: SELECT 1
      """;

  @TempDir Path dir;

  @Test
  void parsesTheReadmeExampleWithEveryKindOfCheck() {
    JobSpec spec = parse(FACT_ORDERS);

    assertThat(spec.job()).isEqualTo("fact_orders_daily");
    assertThat(spec.target()).isEqualTo("sales.fact_orders");
    assertThat(spec.mode()).isEqualTo(WriteMode.OVERWRITE);
    assertThat(spec.sliceColumn()).isEqualTo("order_date");
    assertThat(spec.query()).isEqualTo(QUERY);
    assertThat(spec.checks())
        .containsExactly(
            new CheckSpec.NotNull(List.of("order_id", "amount")),
            new CheckSpec.Unique(List.of("order_id")),
            new CheckSpec.RowCount(1L, 1_000_000L),
            new CheckSpec.AcceptedValues("status", List.of("open", "shipped", "3")));
    assertThat(spec.allowNondeterministic()).isTrue();
    assertThat(spec.parallelism()).isEqualTo(4);
    assertThat(spec.source()).isEqualTo(SOURCE);
    assertThat(spec.text()).isEqualTo(FACT_ORDERS);
  }

  @Test
  void defaultsToOverwriteNoChecksDeterministicAndDefaultParallelism() {
    JobSpec spec = parse(MINIMAL.replace("mode: overwrite\n", ""));

    assertThat(spec.mode()).isEqualTo(WriteMode.OVERWRITE);
    assertThat(spec.checks()).isEmpty();
    assertThat(spec.allowNondeterministic()).isFalse();
    assertThat(spec.parallelism()).isZero();
  }

  @Test
  void loadsTheBundledExampleFromItsFileAndKeepsTheExactText() throws IOException {
    Path example = Path.of("../examples/jobs/fact_orders_daily.yaml");

    JobSpec spec = JobSpecParser.load(example);

    assertThat(spec.job()).isEqualTo("fact_orders_daily");
    assertThat(spec.sliceColumn()).isEqualTo("order_date");
    assertThat(spec.checks()).hasSize(3);
    assertThat(spec.source()).isEqualTo(example.toString());
    assertThat(spec.text()).isEqualTo(Files.readString(example));
  }

  @Test
  void refusesAnUnknownTopLevelKeyNamingTheKeyAndTheFile() {
    assertThatThrownBy(() -> parse(MINIMAL + "schedule: daily\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("unknown key 'schedule'")
        .hasMessageContaining(SOURCE);
  }

  @Test
  void refusesAnUnknownCheckKindNamingItAndWhereItIs() {
    String manifest = MINIMAL + "checks:\n  - not_null: [order_id]\n  - freshness: {max: PT1H}\n";

    assertThatThrownBy(() -> parse(manifest))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("unknown key 'freshness'")
        .hasMessageContaining("checks[1]")
        .hasMessageContaining(SOURCE);
  }

  @Test
  void refusesACheckWithTwoKinds() {
    String manifest = MINIMAL + "checks:\n  - {not_null: [a], unique: [a]}\n";

    assertThatThrownBy(() -> parse(manifest))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("exactly one of");
  }

  @Test
  void refusesAMultiColumnSlice() {
    String manifest = MINIMAL.replace("{column: order_date}", "{column: [order_date, region]}");

    assertThatThrownBy(() -> parse(manifest))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("slice.column")
        .hasMessageContaining("[order_date, region]")
        .hasMessageContaining("multi-column slices are not supported");
  }

  @Test
  void refusesAMissingSlice() {
    assertThatThrownBy(() -> parse(MINIMAL.replace("slice: {column: order_date}\n", "")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("missing required key 'slice'")
        .hasMessageContaining(SOURCE);
  }

  @Test
  void refusesASliceWithoutAColumn() {
    assertThatThrownBy(() -> parse(MINIMAL.replace("{column: order_date}", "{}")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("missing required key 'column'");
  }

  @Test
  void refusesAMissingQuery() {
    assertThatThrownBy(() -> parse(MINIMAL.replace("query: SELECT 1\n", "")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("missing required key 'query'");
  }

  @Test
  void refusesAMissingTarget() {
    assertThatThrownBy(() -> parse(MINIMAL.replace("target: sales.fact_orders\n", "")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("missing required key 'target'");
  }

  @Test
  void refusesAppendModeExplainingThatAppendIsNotRerunSafe() {
    assertThatThrownBy(() -> parse(MINIMAL.replace("mode: overwrite", "mode: append")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("unknown mode 'append'")
        .hasMessageContaining("there is no append mode")
        .hasMessageContaining("not rerun-safe")
        .hasMessageContaining(SOURCE);
  }

  /** The seed's dimension job: merge by key with an ordering guard, no slice. */
  private static final String MERGE =
      """
      job: dim_customer_merge
      target: sales.dim_customer
      mode: merge
      key: [customer_id]
      ordering: updated_at
      query: SELECT customer_id, tier, updated_at FROM sales.staging_customer
      """;

  @Test
  void refusesAParameterFloeDoesNotBindButNotOneInALiteralOrComment() {
    assertThatThrownBy(
            () ->
                parse(
                    MINIMAL.replace(
                        "query: SELECT 1", "query: SELECT 1 FROM t WHERE d = :slice_date")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml at 'query': unknown parameter ':slice_date'"
                + " (available: :slice_start, :slice_end)");

    assertThat(
            parse(
                    MINIMAL.replace(
                        "query: SELECT 1",
                        "query: \"SELECT ':slice_date' FROM t /* :x */ WHERE d >= :slice_start\""))
                .query())
        .contains(":slice_date");
  }

  @Test
  void refusesASliceParameterInAJobWithoutSlice() {
    assertThatThrownBy(
            () ->
                parse(
                    MERGE.replace(
                        "FROM sales.staging_customer",
                        "FROM sales.staging_customer WHERE updated_at >= :slice_start")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "at 'query': the query uses :slice_start, but the job has no slice (add slice:"
                + " {column: ...} to the manifest and pass --slice)");
  }

  @Test
  void readsEveryNameAndColumnAsTheFileSpellsItNotAsYaml11TypesIt() {
    JobSpec overwrite =
        parse(
            """
            job: 0755
            target: 2024.10
            slice: {column: off}
            query: SELECT 1
            checks:
              - not_null: [on, 1e3]
              - unique: [+12]
              - accepted_values: {column: 0x1F, values: [yes]}
            """);
    JobSpec merge =
        parse(MERGE.replace("[customer_id]", "[0b101]").replace("updated_at\n", "1.10\n"));

    assertThat(overwrite.job()).isEqualTo("0755");
    assertThat(overwrite.target()).isEqualTo("2024.10");
    assertThat(overwrite.sliceColumn()).isEqualTo("off");
    assertThat(overwrite.checks())
        .containsExactly(
            new CheckSpec.NotNull(List.of("on", "1e3")),
            new CheckSpec.Unique(List.of("+12")),
            new CheckSpec.AcceptedValues("0x1F", List.of("yes")));
    assertThat(merge.key()).containsExactly("0b101");
    assertThat(merge.ordering()).isEqualTo("1.10");
  }

  @Test
  void refusesABlankSpacedOrControlCharacterJobNameNamingTheFileAndKey() {
    String where = "Cannot read " + SOURCE + " at 'job': ";

    assertThatThrownBy(() -> parse(MINIMAL.replace("job: fact_orders_daily", "job: \"\"")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(where + "expected a job name, got ''");
    assertThatThrownBy(() -> parse(MINIMAL.replace("job: fact_orders_daily", "job: '  '")))
        .hasMessage(where + "expected a job name, got '  '");
    assertThatThrownBy(() -> parse(MINIMAL.replace("job: fact_orders_daily", "job: ' daily '")))
        .hasMessage(where + "job name ' daily ' has spaces around it");
    assertThatThrownBy(() -> parse(MINIMAL.replace("job: fact_orders_daily", "job: \"a\\tb\"")))
        .hasMessage(where + "job name 'a\\tb' holds a control or invisible character (U+0009)");
    // A no-break space is no whitespace to String.strip(); a zero-width space is not seen at all.
    assertThatThrownBy(() -> parse(MINIMAL.replace("job: fact_orders_daily", "job: daily\u00a0")))
        .hasMessage(where + "job name 'daily\u00a0' has spaces around it");
    assertThatThrownBy(() -> parse(MINIMAL.replace("job: fact_orders_daily", "job: \"\u00a0\"")))
        .hasMessage(where + "expected a job name, got '\u00a0'");
    assertThatThrownBy(() -> parse(MINIMAL.replace("job: fact_orders_daily", "job: dai\u200bly")))
        .hasMessage(
            where + "job name 'dai\u200bly' holds a control or invisible character (U+200B)");
    assertThatThrownBy(() -> parse(MINIMAL.replace("job: fact_orders_daily", "job:")))
        .hasMessage("Cannot read " + SOURCE + ": missing required key 'job'");
  }

  @Test
  void parsesAMergeWithKeyOrderingAndNoSlice() {
    JobSpec spec = parse(MERGE);

    assertThat(spec.mode()).isEqualTo(WriteMode.MERGE);
    assertThat(spec.key()).containsExactly("customer_id");
    assertThat(spec.ordering()).isEqualTo("updated_at");
    assertThat(spec.hasSlice()).isFalse();
    assertThat(spec.deleteMissing()).isFalse();
  }

  @Test
  void refusesAMergeWithoutOrderingNamingTheMissingKey() {
    assertThatThrownBy(() -> parse(MERGE.replace("ordering: updated_at\n", "")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("missing required key 'ordering' for mode merge")
        .hasMessageContaining(SOURCE);
  }

  @Test
  void refusesDeleteMissingWithoutASliceBecauseAnEmptySourceWouldEmptyTheTable() {
    assertThatThrownBy(() -> parse(MERGE + "delete_missing: true\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("delete_missing needs a slice")
        .hasMessageContaining("'delete_missing'");
  }

  @Test
  void acceptsDeleteMissingWithASlice() {
    JobSpec spec = parse(MERGE + "slice: {column: updated_at}\ndelete_missing: true\n");

    assertThat(spec.deleteMissing()).isTrue();
    assertThat(spec.sliceColumn()).isEqualTo("updated_at");
  }

  @Test
  void refusesKeyOrderingOnAnOverwriteInsteadOfIgnoringThem() {
    assertThatThrownBy(() -> parse(MINIMAL + "ordering: updated_at\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'ordering' applies to modes merge and insert-if-absent")
        .hasMessageContaining("not overwrite");
  }

  @Test
  void requiresASliceToOverwriteAndRefusesOneToSwap() {
    assertThatThrownBy(() -> parse(MINIMAL.replace("slice: {column: order_date}\n", "")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("missing required key 'slice'")
        .hasMessageContaining("mode: swap");
    assertThatThrownBy(() -> parse(MINIMAL.replace("mode: overwrite", "mode: swap")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("mode swap replaces the whole table, so it takes no slice");
  }

  @Test
  void parsesASwapWithAllowEmptyAndInsertIfAbsentWithoutOrdering() {
    JobSpec swap =
        parse(
            MINIMAL
                .replace("mode: overwrite", "mode: swap")
                .replace("slice: {column: order_date}\n", "allow_empty: true\n"));
    JobSpec insert = parse(MERGE.replace("mode: merge", "mode: insert-if-absent"));
    JobSpec insertWithoutOrdering =
        parse(
            MERGE
                .replace("mode: merge", "mode: insert-if-absent")
                .replace("ordering: updated_at\n", ""));

    assertThat(swap.mode()).isEqualTo(WriteMode.SWAP);
    assertThat(swap.allowEmpty()).isTrue();
    assertThat(insert.mode()).isEqualTo(WriteMode.INSERT_IF_ABSENT);
    assertThat(insertWithoutOrdering.ordering()).isNull();
  }

  @Test
  void refusesAllowEmptyOutsideSwap() {
    assertThatThrownBy(() -> parse(MINIMAL + "allow_empty: true\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'allow_empty' applies to mode swap, not overwrite");
  }

  @Test
  void refusesARowCountWhoseMinimumExceedsItsMaximum() {
    String manifest = MINIMAL + "checks:\n  - row_count: {min: 10, max: 5}\n";

    assertThatThrownBy(() -> parse(manifest))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("min 10 is greater than max 5")
        .hasMessageContaining("checks[0].row_count");
  }

  @Test
  void refusesChecksThatCheckNothing() {
    // Each was accepted and passed on every run.
    assertThatThrownBy(() -> parse(MINIMAL + "checks:\n  - row_count: {}\n"))
        .hasMessageContaining(
            "at 'checks[0].row_count': expected min, max or both (a row count without them checks"
                + " nothing)");
    assertThatThrownBy(() -> parse(MINIMAL + "checks:\n  - row_count: {min: -1}\n"))
        .hasMessageContaining(
            "at 'checks[0].row_count.min': expected a row count of 0 or more, got -1");
    assertThatThrownBy(() -> parse(MINIMAL + "checks:\n  - unique: [id, name, id]\n"))
        .hasMessageContaining("at 'checks[0].unique': column 'id' is listed twice");
    assertThatThrownBy(() -> parse(MINIMAL + "checks:\n  - not_null: [id, ID]\n"))
        .hasMessageContaining("at 'checks[0].not_null': column 'ID' is listed twice");
    assertThat(parse(MINIMAL + "checks:\n  - row_count: {min: 0}\n").checks()).hasSize(1);
  }

  @Test
  void refusesAFileThatIsNotValidYaml() throws IOException {
    Path file = dir.resolve("broken.yaml");
    Files.writeString(file, "job: [unclosed\ntarget: x\n");

    assertThatThrownBy(() -> JobSpecParser.load(file))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("not valid YAML")
        .hasMessageContaining("(line 2, column")
        .hasMessageContaining(file.toString());
  }

  @Test
  void refusesAMissingFile() {
    Path file = dir.resolve("nope.yaml");

    assertThatThrownBy(() -> JobSpecParser.load(file))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no such file")
        .hasMessageContaining(file.toString());
  }

  @Test
  void refusesAnEmptyQuery() {
    assertThatThrownBy(() -> parse(MINIMAL.replace("query: SELECT 1", "query: \"  \"")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("the query is empty")
        .hasMessageContaining("'query'");
  }

  @Test
  void refusesANegativeParallelism() {
    assertThatThrownBy(() -> parse(MINIMAL + "parallelism: -2\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("parallelism");
  }

  @Test
  void refusesAParallelismTooLargeForAnIntInsteadOfWrappingIt() {
    assertThatThrownBy(() -> parse(MINIMAL + "parallelism: 4294967297\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("parallelism")
        .hasMessageContaining("4294967297");
  }

  @Test
  void refusesAParallelismAboveFlinksLimitAsRunWouldLaterOn() {
    assertThatThrownBy(() -> parse(MINIMAL + "parallelism: 40000\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("parallelism")
        .hasMessageContaining("at most 32768")
        .hasMessageContaining("got 40000");
    assertThat(parse(MINIMAL + "parallelism: 32768\n").parallelism()).isEqualTo(32768);
  }

  @Test
  void refusesAllowNondeterministicThatIsNotABoolean() {
    assertThatThrownBy(() -> parse(MINIMAL + "allow_nondeterministic: sometimes\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("expected true or false, got 'sometimes'");
  }

  @Test
  void aSecondChecksListDoesNotSilentlyReplaceTheFirst() throws IOException {
    Path file = dir.resolve("fact_orders.yaml");
    Files.writeString(file, MINIMAL + "checks:\n  - not_null: [order_id]\nchecks: []\n");

    assertThatThrownBy(() -> JobSpecParser.load(file))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read "
                + file
                + ": key 'checks' appears twice, on lines 6 and 8; a key may appear once per"
                + " mapping");
  }

  @Test
  void aJobManifestOverTheSizeLimitIsRefusedNamingItsKind() throws IOException {
    Path file = dir.resolve("huge.yaml");
    Files.writeString(file, MINIMAL + "#".repeat(Manifests.MAX_MANIFEST_BYTES));

    assertThatThrownBy(() -> JobSpecParser.load(file))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot read job manifest " + file + ": it is ")
        .hasMessageEndingWith("a manifest may be at most 1048576 bytes");
  }

  @Test
  void refusesASecondStatementAfterTheQueryNamingItsLine() {
    String manifest =
        MINIMAL.replace(
            "query: SELECT 1\n",
            "query: |\n  SELECT order_id\n  FROM sales.staging_orders;\n  DROP TABLE t.src\n");

    assertThatThrownBy(() -> parse(manifest))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml at 'query': the query must be one SELECT"
                + " statement; a second statement starts on line 3 of the query");
  }

  @Test
  void acceptsATrailingSemicolonAndSemicolonsInLiteralsIdentifiersAndComments() {
    String query =
        "SELECT ';' AS a, `b;c` -- not; a statement\n"
            + "FROM t /* ; */ WHERE x = 'it''s; fine';  -- done\n";
    JobSpec spec = parse(MINIMAL.replace("query: SELECT 1", "query: " + quoted(query)));

    assertThat(spec.query()).isEqualTo(query);
  }

  @Test
  void readsATimeoutInIsoOrShortFormAndRemembersWhereItWasSet() {
    JobSpec iso = parse(MINIMAL + "timeout: PT30M\n");
    JobSpec shortForm = parse(MINIMAL + "timeout: 2h\n");

    assertThat(iso.timeout().duration()).isEqualTo(Duration.ofMinutes(30));
    assertThat(iso.timeout().describe()).isEqualTo("PT30M (timeout in jobs/fact_orders.yaml)");
    assertThat(shortForm.timeout().duration()).isEqualTo(Duration.ofHours(2));
    assertThat(parse(MINIMAL).timeout()).isNull();
  }

  @Test
  void aTimeoutThatIsNotAPositiveDurationIsRefusedNamingKeyFileAndValue() {
    assertThatThrownBy(() -> parse(MINIMAL + "timeout: soon\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith(
            "Cannot read jobs/fact_orders.yaml at 'timeout': 'soon' is not a timeout: expected a"
                + " duration, ISO-8601 such as PT30M");
    assertThatThrownBy(() -> parse(MINIMAL + "timeout: -PT5M\n"))
        .hasMessageContaining("'-PT5M' is not a timeout: a timeout must be positive");
    assertThatThrownBy(() -> parse(MINIMAL + "timeout: 0s\n"))
        .hasMessageContaining("'0s' is not a timeout: a timeout must be positive");
    assertThatThrownBy(() -> parse(MINIMAL + "timeout: 30\n"))
        .hasMessageContaining("'30' is not a timeout");
  }

  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  private static JobSpec parse(String text) {
    return JobSpecParser.parse(Manifests.parse(SOURCE, text), text);
  }
}
