package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DESIGN rule 12: 64-bit ids are JSON strings, so jq and JavaScript cannot round them. */
class JsonIdsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  // Above 2^53: a double holds 2493417652711171000 instead.
  private static final long ID = 2493417652711171295L;

  record Committed(long snapshotId, Long parentId, long rows) {}

  @Test
  void snapshotIdsQualifiedIdsParentIdsAndSourceSnapshotsAreStringsCountsStayNumbers()
      throws Exception {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("snapshot_id", ID);
    map.put("to_snapshot_id", -ID);
    map.put("main_snapshot_id_before", ID);
    map.put("parent_id", null);
    map.put("source_snapshots", Map.of("sales.staging", ID));
    map.put("rows", 3L);
    map.put("duration_ms", 1200L);
    map.put("commits", List.of(new Committed(ID, ID - 1, 5L)));

    JsonNode json = JSON.readTree(Json.write(map));

    assertThat(textOf(json.get("snapshot_id"))).isEqualTo("2493417652711171295");
    assertThat(textOf(json.get("to_snapshot_id"))).isEqualTo("-2493417652711171295");
    assertThat(textOf(json.get("main_snapshot_id_before"))).isEqualTo("2493417652711171295");
    assertThat(json.get("parent_id").isNull()).isTrue();
    assertThat(textOf(json.get("source_snapshots").get("sales.staging")))
        .isEqualTo("2493417652711171295");
    assertThat(json.get("rows").isNumber()).isTrue();
    assertThat(json.get("duration_ms").isNumber()).isTrue();
    JsonNode commit = json.get("commits").get(0);
    assertThat(textOf(commit.get("snapshotId"))).isEqualTo("2493417652711171295");
    assertThat(textOf(commit.get("parentId"))).isEqualTo("2493417652711171294");
    assertThat(commit.get("rows").isNumber()).isTrue();
  }

  @Test
  void rowCountsByPartitionPathStayNumbersWhateverTheColumnsAreNamed() throws Exception {
    // A bucket on customer_id gave "customer_id_bucket=0/tier=x": "2", which jq added as text.
    Map<String, Object> map = new LinkedHashMap<>();
    map.put(
        "rows_before",
        Map.of("customer_id_bucket=0/tier=x", 2L, "order_id=7", 3L, "tier_id=null", 4L));

    JsonNode rows = JSON.readTree(Json.write(map)).get("rows_before");

    assertThat(rows.get("customer_id_bucket=0/tier=x").isNumber()).isTrue();
    assertThat(rows.get("order_id=7").isNumber()).isTrue();
    assertThat(rows.get("tier_id=null").asLong()).isEqualTo(4L);
    assertThat(rows.get("tier_id=null").isNumber()).isTrue();
  }

  /** The node's text, failing unless it is a JSON string (a number's text would read the same). */
  private static String textOf(JsonNode node) {
    assertThat(node.isTextual()).as("%s is a JSON string", node).isTrue();
    return node.asText();
  }
}
