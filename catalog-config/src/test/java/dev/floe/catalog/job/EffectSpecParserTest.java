package dev.floe.catalog.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.manifest.Manifests;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job manifest's effects: what is accepted, and what is refused before any run. */
class EffectSpecParserTest {
  private static final String SOURCE = "jobs/fact_orders.yaml";
  private static final String JOB =
      """
      job: fact_orders_daily
      target: sales.fact_orders
      slice: {column: order_date}
      query: SELECT 1
      """;

  @Test
  void parsesAWebhookWithHeadersBodyAndAttempts() {
    JobSpec job =
        parse(
            JOB
                + """
                effects:
                  - name: notify_bi
                    webhook:
                      url: "http://bi.example/hooks/${env:BI_HOOK}"
                      headers: {Authorization: "Bearer ${env:BI_TOKEN}", X-Team: data}
                      body: '{"table": "${target}", "slice": "${slice}", "snapshot": ${snapshot_id}, "rows": ${rows}}'
                    max_attempts: 3
                """);

    assertThat(job.effects()).hasSize(1);
    EffectSpec effect = job.effects().get(0);
    assertThat(effect.name()).isEqualTo("notify_bi");
    assertThat(effect.url()).isEqualTo("http://bi.example/hooks/${env:BI_HOOK}");
    assertThat(effect.headers())
        .containsExactly(
            Map.entry("Authorization", "Bearer ${env:BI_TOKEN}"), Map.entry("X-Team", "data"));
    assertThat(effect.body()).startsWith("{\"table\": \"${target}\"");
    assertThat(effect.maxAttempts()).isEqualTo(3);
  }

  @Test
  void theNameHeaderValuesAndBodyAreReadAsTheFileSpellsThem() {
    EffectSpec effect =
        parse(
                JOB
                    + "effects: [{name: 0755, webhook: {url: 'https://x.example/',"
                    + " headers: {X-Version: 1.10, X-Dry: off}, body: 1.10}}]")
            .effects()
            .get(0);

    assertThat(effect.name()).isEqualTo("0755");
    assertThat(effect.headers())
        .containsExactly(Map.entry("X-Version", "1.10"), Map.entry("X-Dry", "off"));
    assertThat(effect.body()).isEqualTo("1.10");
  }

  @Test
  void aWebhookWithoutBodySendsEveryRunVariable() {
    EffectSpec effect =
        parse(JOB + "effects: [{name: ping, webhook: {url: 'https://x.example/'}}]")
            .effects()
            .get(0);

    assertThat(effect.body())
        .contains("\"snapshot_id\": \"${snapshot_id}\"", "\"run_key\": ${run_key}");
    assertThat(effect.maxAttempts()).isEqualTo(EffectSpec.DEFAULT_MAX_ATTEMPTS);
    assertThat(parse(JOB).effects()).isEmpty();
  }

  @Test
  void anUnknownEffectKeyIsRefusedNamingKeyAndFile() {
    assertRefused(
        "effects: [{name: ping, webhook: {url: 'http://x/'}, retries: 3}]",
        "Cannot read jobs/fact_orders.yaml at 'effects[0]': unknown key 'retries'");
    assertRefused(
        "effects: [{name: ping, webhook: {url: 'http://x/', method: PUT}}]",
        "at 'effects[0].webhook': unknown key 'method' (allowed: body, headers, url)");
  }

  @Test
  void aBodyReferencingAnUnknownVariableOrTheEnvironmentIsRefused() {
    assertRefused(
        "effects: [{name: p, webhook: {url: 'http://x/', body: '{\"d\": \"${day}\"}'}}]",
        "unknown variable '${day}' (known: job, target, mode, slice, run_key");
    assertRefused(
        "effects: [{name: p, webhook: {url: 'http://x/', body: '{\"t\": \"${env:TOKEN}\"}'}}]",
        "the body is kept in the outbox, so it cannot reference the environment");
  }

  @Test
  void aBodyThatIsNotJsonOnceFilledInIsRefused() {
    assertRefused(
        "effects: [{name: p, webhook: {url: 'http://x/', body: '{\"rows\": ${rows}'}}]",
        "at 'effects[0].webhook.body': not valid JSON once filled in");
  }

  @Test
  void aSecretLookingHeaderWithALiteralValueIsRefusedWithoutQuotingIt() {
    assertThatThrownBy(
            () ->
                parse(
                    JOB
                        + "effects: [{name: p, webhook: {url: 'http://x/',"
                        + " headers: {Authorization: 'Bearer s3cr3t'}}}]"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("header 'Authorization' looks secret")
        .hasMessageNotContaining("s3cr3t");
  }

  @Test
  void aHeaderValueHttpWouldRefuseIsRefusedWhenReadWithoutQuotingIt() {
    assertThatThrownBy(
            () ->
                parse(
                    JOB
                        + "effects: [{name: p, webhook: {url: 'http://x/',"
                        + " headers: {X-Team: \"da\\r\\nta-s3cr3t ${env:T}\"}}}]"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("header 'X-Team' holds a line break")
        .hasMessageNotContaining("s3cr3t");
  }

  @Test
  void runVariablesInTheUrlAndRestrictedHeadersAreRefused() {
    assertRefused(
        "effects: [{name: p, webhook: {url: 'http://x/${target}'}}]",
        "'${target}': only ${env:NAME} references are allowed here");
    assertRefused(
        "effects: [{name: p, webhook: {url: 'ftp://x/'}}]", "expected an http:// or https:// URL");
    assertRefused(
        "effects: [{name: p, webhook: {url: 'http://x/', headers: {Host: y}}}]",
        "header 'Host' is set by the HTTP client");
  }

  @Test
  void effectNamesAreUniqueAndAttemptsBounded() {
    assertRefused(
        "effects: [{name: p, webhook: {url: 'http://x/'}}, {name: p, webhook: {url: 'http://y/'}}]",
        "effect name 'p' is used twice");
    assertRefused(
        "effects: [{name: p, webhook: {url: 'http://x/'}, max_attempts: 0}]",
        "expected 1 to 100 attempts, got 0");
  }

  private static void assertRefused(String effects, String message) {
    assertThatThrownBy(() -> parse(JOB + effects))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(message);
  }

  private static JobSpec parse(String yaml) {
    return JobSpecParser.parse(Manifests.parse(SOURCE, yaml), yaml);
  }
}
