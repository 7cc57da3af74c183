package dev.floe.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.floe.catalog.error.InvalidInputException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

class ResultJsonTest {

  // Jackson's tree model strips trailing zeros (70.00 -> 7E+1) unless told not to.
  static final ObjectMapper EXACT =
      new ObjectMapper()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

  @Test
  void writesOneObjectPerStatementWithTypedValues() throws Exception {
    QueryResult query =
        new QueryResult(
            new SqlStatement(2, 3, "SELECT ..."),
            List.of("id", "amount", "d", "ts", "ltz", "note", "ok", "ratio"),
            List.of(
                "BIGINT",
                "DECIMAL(10, 2)",
                "DATE",
                "TIMESTAMP(6)",
                "TIMESTAMP_LTZ(6)",
                "STRING",
                "BOOLEAN",
                "DOUBLE"),
            List.of(
                Arrays.asList(
                    7L,
                    new BigDecimal("70.00"),
                    LocalDate.of(2026, 10, 3),
                    LocalDateTime.of(2026, 10, 3, 12, 0),
                    Instant.parse("2026-10-03T12:00:00.5Z"),
                    null,
                    false,
                    0.1)));
    List<StatementResult> results =
        List.of(new OkResult(new SqlStatement(1, 1, "CREATE DATABASE d")), query);

    JsonNode json = EXACT.readTree(ResultJson.render(results));

    assertThat(json.size()).isEqualTo(2);
    assertThat(json.get(0).get("kind").asText()).isEqualTo("ok");
    JsonNode second = json.get(1);
    assertThat(second.get("statement").asInt()).isEqualTo(2);
    assertThat(second.get("line").asInt()).isEqualTo(3);
    assertThat(second.get("kind").asText()).isEqualTo("query");
    assertThat(second.get("row_count").asInt()).isEqualTo(1);
    assertThat(second.get("columns").get(1).get("type").asText()).isEqualTo("DECIMAL(10, 2)");
    JsonNode row = second.get("rows").get(0);
    assertThat(row.get("id").isIntegralNumber()).isTrue();
    assertThat(row.get("id").asLong()).isEqualTo(7L);
    assertThat(row.get("amount").decimalValue()).isEqualTo(new BigDecimal("70.00"));
    assertThat(row.get("d").asText()).isEqualTo("2026-10-03");
    assertThat(row.get("ts").asText()).isEqualTo("2026-10-03T12:00:00");
    assertThat(row.get("ltz").asText()).isEqualTo("2026-10-03T12:00:00.500Z");
    assertThat(row.get("note").isNull()).isTrue();
    assertThat(row.get("ok").asBoolean()).isFalse();
    assertThat(row.get("ratio").decimalValue()).isEqualTo(new BigDecimal("0.1"));
  }

  @Test
  void writesDecimalsExactlyAsPlainNumbers() {
    QueryResult query =
        new QueryResult(
            new SqlStatement(1, 1, "SELECT ..."),
            List.of("a", "b"),
            List.of("DECIMAL(10, 2)", "DECIMAL(38, 0)"),
            List.of(List.of(new BigDecimal("70.00"), new BigDecimal("1E+3"))));

    assertThat(ResultJson.render(List.of(query)))
        .contains("\"a\" : 70.00")
        .contains("\"b\" : 1000")
        .doesNotContain("E+");
  }

  @Test
  void aMapIsAnObjectUnlessJsonWouldLoseOneOfItsEntries() throws Exception {
    Map<String, Integer> textNull = new HashMap<>();
    textNull.put("NULL", 1);
    Map<String, Integer> bothNulls = new HashMap<>(textNull);
    bothNulls.put(null, 2);
    Map<String, Integer> nullKey = new HashMap<>();
    nullKey.put(null, 2);

    JsonNode json = EXACT.readTree(ResultJson.render(List.of(mapQuery(textNull))));
    assertThat(json.get(0).get("rows").get(0).get("m").toString()).isEqualTo("{\"NULL\":1}");
    for (Map<String, Integer> map : List.of(bothNulls, nullKey)) {
      assertThatThrownBy(() -> ResultJson.render(List.of(mapQuery(map))))
          .isInstanceOf(InvalidInputException.class)
          .hasMessage(
              "Cannot write the rows of SQL statement 4 (line 2) as JSON: column 'm' holds a map"
                  + " with a NULL key, which a JSON object cannot hold; give the key a value"
                  + " (COALESCE)");
    }
    // Two keys Flink holds apart (BYTES compare by identity in a Java map) but JSON would merge.
    Map<byte[], Integer> sameBytes = new HashMap<>();
    sameBytes.put(new byte[] {1}, 1);
    sameBytes.put(new byte[] {1}, 2);
    assertThatThrownBy(() -> ResultJson.render(List.of(mapQuery(sameBytes))))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("column 'm' holds a map with two keys that read '01' as JSON text");
  }

  @Test
  void aCompositeMapKeyIsItsJsonTextSoKeysTheSqlTextWouldMergeStayApart() throws Exception {
    // ROW('a, b', 'c') and ROW('a', 'b, c') both read (a, b, c) as SQL text.
    Map<Object, Integer> rows = new LinkedHashMap<>();
    rows.put(Row.of("a, b", "c"), 1);
    rows.put(Row.of("a", "b, c"), 2);
    Map<Object, Integer> nullField = new LinkedHashMap<>();
    nullField.put(Row.of((Object) null), 1);
    nullField.put(Row.of("NULL"), 2);
    Map<Object, Integer> arrays = new LinkedHashMap<>();
    arrays.put(new String[] {"a, b"}, 1);
    arrays.put(new String[] {"a", "b"}, 2);

    assertThat(EXACT.readTree(mapJson(rows)).fieldNames())
        .toIterable()
        .containsExactly("[\"a, b\",\"c\"]", "[\"a\",\"b, c\"]");
    assertThat(EXACT.readTree(mapJson(nullField)).fieldNames())
        .toIterable()
        .containsExactly("[null]", "[\"NULL\"]");
    assertThat(EXACT.readTree(mapJson(arrays)).fieldNames())
        .toIterable()
        .containsExactly("[\"a, b\"]", "[\"a\",\"b\"]");
  }

  private static String mapJson(Map<?, Integer> map) throws Exception {
    return EXACT
        .readTree(ResultJson.render(List.of(mapQuery(map))))
        .get(0)
        .get("rows")
        .get(0)
        .get("m")
        .toString();
  }

  private static QueryResult mapQuery(Map<?, Integer> map) {
    return new QueryResult(
        new SqlStatement(4, 2, "SELECT m"),
        List.of("m"),
        List.of("MAP<STRING, INT>"),
        List.of(Arrays.<Object>asList(map)));
  }
}
