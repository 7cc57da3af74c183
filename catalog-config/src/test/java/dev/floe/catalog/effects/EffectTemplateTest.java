package dev.floe.catalog.effects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EffectTemplateTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aValueInsideAJsonStringIsEscapedSoItCannotBreakOutOfIt() throws Exception {
    String body = "{\"table\": \"${target}\", \"note\": \"slice ${slice} done\"}";
    String hostile = "a\"}, \"admin\": true, \"x\": {\"\n\\";

    String filled = EffectTemplate.renderJson(body, Map.of("target", hostile, "slice", "d=1"));

    JsonNode node = JSON.readTree(filled);
    assertThat(node.get("table").asText()).isEqualTo(hostile);
    assertThat(node.get("note").asText()).isEqualTo("slice d=1 done");
    assertThat(node.has("admin")).isFalse();
  }

  @Test
  void outsideAStringNumbersStayNumbersTextIsQuotedAndNullIsNull() throws Exception {
    Map<String, Object> values = new HashMap<>();
    values.put("rows", 2L);
    values.put("slice", "order_date=[2026-10-03,2026-10-04)");
    values.put("snapshot_id", null);

    JsonNode node =
        JSON.readTree(
            EffectTemplate.renderJson(
                "{\"rows\": ${rows}, \"slice\": ${slice}, \"snapshot\": ${snapshot_id}}", values));

    assertThat(node.get("rows").isNumber()).isTrue();
    assertThat(node.get("rows").asLong()).isEqualTo(2);
    assertThat(node.get("slice").asText()).isEqualTo("order_date=[2026-10-03,2026-10-04)");
    assertThat(node.get("snapshot").isNull()).isTrue();
  }

  @Test
  void anEscapedQuoteInTheTemplateDoesNotEndTheString() throws Exception {
    String filled =
        EffectTemplate.renderJson("{\"m\": \"say \\\"${job}\\\"\"}", Map.of("job", "a\"b"));

    assertThat(JSON.readTree(filled).get("m").asText()).isEqualTo("say \"a\"b\"");
  }

  @Test
  void theDefaultBodyIsAnObjectOfEveryVariable() throws Exception {
    Map<String, Object> values = new HashMap<>();
    EffectTemplate.RUN_VARIABLES.forEach(v -> values.put(v, v.equals("rows") ? 3L : "v-" + v));
    values.put("snapshot_id", 2493417652711171295L);

    JsonNode node =
        JSON.readTree(
            EffectTemplate.renderJson(
                EffectTemplate.defaultBody(EffectTemplate.RUN_VARIABLES), values));

    assertThat(node.size()).isEqualTo(EffectTemplate.RUN_VARIABLES.size());
    assertThat(node.get("rows").asLong()).isEqualTo(3);
    assertThat(node.get("target").asText()).isEqualTo("v-target");
    // A 64-bit id as a string, or a JSON reader using doubles rounds it to another id.
    assertThat(node.get("snapshot_id").isTextual()).isTrue();
    assertThat(node.get("snapshot_id").asText()).isEqualTo("2493417652711171295");
  }

  @Test
  void aVariableWithoutAValueIsAnError() {
    assertThatThrownBy(() -> EffectTemplate.renderJson("{\"a\": ${rows}}", Map.of()))
        .hasMessageContaining("no value for '${rows}'");
  }

  @Test
  void envReferencesResolveFromTheInjectedEnvironmentAndNameAMissingVariable() {
    assertThat(
            EnvReferences.resolve(
                "Bearer ${env:BI_TOKEN}", Map.of("BI_TOKEN", "t$1\\x"), "effect p header A"))
        .isEqualTo("Bearer t$1\\x");
    assertThatThrownBy(() -> EnvReferences.resolve("${env:NOPE}", Map.of(), "effect p url"))
        .hasMessage("Cannot send effect p url: the environment variable NOPE is not set");
  }
}
