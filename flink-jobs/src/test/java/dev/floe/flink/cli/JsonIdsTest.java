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
  void snapshotIdsParentIdsAndSourceSnapshotsAreStringsCountsStayNumbers() throws Exception {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("snapshot_id", ID);
    map.put("to_snapshot_id", -ID);
    map.put("parent_id", null);
    map.put("source_snapshots", Map.of("sales.staging", ID));
    map.put("rows", 3L);
    map.put("duration_ms", 1200L);
    map.put("commits", List.of(new Committed(ID, ID - 1, 5L)));

    JsonNode json = JSON.readTree(Json.write(map));

    assertThat(json.get("snapshot_id").isTextual()).isTrue();
    assertThat(json.get("snapshot_id").asText()).isEqualTo("2493417652711171295");
    assertThat(json.get("to_snapshot_id").asText()).isEqualTo("-2493417652711171295");
    assertThat(json.get("parent_id").isNull()).isTrue();
    assertThat(json.get("source_snapshots").get("sales.staging").asText())
        .isEqualTo("2493417652711171295");
    assertThat(json.get("rows").isNumber()).isTrue();
    assertThat(json.get("duration_ms").isNumber()).isTrue();
    JsonNode commit = json.get("commits").get(0);
    assertThat(commit.get("snapshotId").asText()).isEqualTo("2493417652711171295");
    assertThat(commit.get("parentId").asText()).isEqualTo("2493417652711171294");
    assertThat(commit.get("rows").isNumber()).isTrue();
  }
}
