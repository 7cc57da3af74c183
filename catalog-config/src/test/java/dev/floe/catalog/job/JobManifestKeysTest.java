package dev.floe.catalog.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.manifest.Manifests;
import org.junit.jupiter.api.Test;

/** The job manifest parser accepts exactly the declared keys, with the same messages as before. */
class JobManifestKeysTest {
  private static final String SOURCE = "jobs/fact_orders.yaml";
  private static final String MINIMAL =
      """
      job: fact_orders_daily
      target: sales.fact_orders
      slice: {column: order_date}
      query: SELECT * FROM sales.staging_orders
      """;

  @Test
  void declaresTheKeysTheParserAccepts() {
    assertThat(JobManifestKeys.GROUP.keysUnder(""))
        .containsExactly(
            "job",
            "description",
            "target",
            "mode",
            "slice",
            "query",
            "key",
            "ordering",
            "delete_missing",
            "allow_empty",
            "checks",
            "allow_nondeterministic",
            "parallelism",
            "timeout",
            "effects");
    assertThat(JobManifestKeys.GROUP.keysUnder("slice")).containsExactly("column");
    assertThat(JobManifestKeys.GROUP.keysUnder("effects[]"))
        .containsExactly("name", "webhook", "max_attempts");
    assertThat(JobManifestKeys.GROUP.keysUnder("effects[].webhook"))
        .containsExactly("url", "headers", "body");
    assertThat(JobManifestKeys.GROUP.keysUnder("checks[]"))
        .containsExactly("not_null", "unique", "row_count", "accepted_values");
    assertThat(JobManifestKeys.GROUP.keysUnder("checks[].row_count")).containsExactly("min", "max");
    assertThat(JobManifestKeys.GROUP.keysUnder("checks[].accepted_values"))
        .containsExactly("column", "values");
  }

  @Test
  void parsesEveryDeclaredKey() {
    JobSpec job =
        parse(
            MINIMAL
                + """
                description: daily orders
                mode: overwrite
                checks:
                  - not_null: [order_id]
                  - unique: [order_id]
                  - row_count: {min: 1, max: 10}
                  - accepted_values: {column: status, values: [open, closed]}
                allow_nondeterministic: true
                parallelism: 2
                timeout: PT30M
                """);

    assertThat(job.checks()).hasSize(4);
    assertThat(job.allowNondeterministic()).isTrue();
    assertThat(job.parallelism()).isEqualTo(2);
    assertThat(job.timeout().text()).isEqualTo("PT30M");
  }

  @Test
  void appliesTheDeclaredDefaults() {
    JobSpec job = parse(MINIMAL);

    assertThat(job.mode().text()).isEqualTo(JobManifestKeys.MODE.defaultValue());
    assertThat(job.allowNondeterministic()).isFalse();
    assertThat(job.parallelism()).isZero();
  }

  @Test
  void namesUnknownKeysAndTheAllowedOnes() {
    assertThatThrownBy(() -> parse(MINIMAL + "owner: me\n"))
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml: unknown key 'owner' (allowed:"
                + " allow_empty, allow_nondeterministic, checks, delete_missing, description,"
                + " effects, job, key, mode, ordering, parallelism, query, slice, target,"
                + " timeout)");
    assertThatThrownBy(() -> parse(MINIMAL.replace("{column: order_date}", "{col: d}")))
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml at 'slice': unknown key 'col' (allowed: column)");
    assertThatThrownBy(() -> parse(MINIMAL + "checks: [{row_count: {least: 1}}]"))
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml at 'checks[0].row_count': unknown key 'least'"
                + " (allowed: max, min)");
    assertThatThrownBy(() -> parse(MINIMAL + "checks: [{accepted_values: {column: s, in: [a]}}]"))
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml at 'checks[0].accepted_values': unknown key 'in'"
                + " (allowed: column, values)");
    assertThatThrownBy(() -> parse(MINIMAL + "checks: [{positive: [amount]}]"))
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml at 'checks[0]': unknown key 'positive' (allowed:"
                + " accepted_values, not_null, row_count, unique)");
  }

  private static JobSpec parse(String text) {
    return JobSpecParser.parse(Manifests.parse(SOURCE, text), text);
  }
}
