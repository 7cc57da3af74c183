package dev.floe.flink.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.catalog.error.InvalidInputException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@code --json} form of {@code floe sql} results: an array with one object per statement, e.g.
 *
 * <pre>{@code
 * [ { "statement": 1, "line": 1, "sql": "CREATE ...", "kind": "ok" },
 *   { "statement": 2, "line": 3, "sql": "INSERT ...", "kind": "insert" },
 *   { "statement": 3, "line": 5, "sql": "SELECT ...", "kind": "query",
 *     "columns": [ { "name": "total", "type": "DECIMAL(38, 2)" } ],
 *     "rows": [ { "total": 70.00 } ], "row_count": 1 } ]
 * }</pre>
 *
 * Numbers are JSON numbers, decimals written exactly with their scale (a reader that must keep the
 * scale reads BigDecimals without stripping zeros); dates, times and timestamps are ISO 8601
 * strings, TIMESTAMP_LTZ in UTC with a {@code Z}; BYTES are hex strings; SQL NULL is {@code null};
 * a MAP is an object keyed by the text of its keys. A map JSON cannot hold without losing an entry
 * (a NULL key, two keys of the same text) is refused (exit 2), never written in part.
 */
public final class ResultJson {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          // 1E+3 is a valid JSON number but not how a DECIMAL column is written.
          .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

  private ResultJson() {}

  /** The JSON text of {@code results}, indented. */
  public static String render(List<? extends StatementResult> results) {
    Collector json = new Collector();
    results.forEach(json);
    return json.render();
  }

  private static String write(ArrayNode results) {
    try {
      return MAPPER.writeValueAsString(results);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("Cannot write SQL results as JSON: " + e.getMessage(), e);
    }
  }

  /**
   * Turns results into JSON as each statement completes, for {@link SqlRunner#run(SqlScript,
   * java.util.function.Consumer)}: a result JSON cannot hold is refused right after its statement,
   * so the script stops there and runs nothing after it.
   */
  public static final class Collector implements Consumer<StatementResult> {
    private final ArrayNode results = NODES.arrayNode();

    @Override
    public void accept(StatementResult result) {
      results.add(toJson(result));
    }

    /**
     * The JSON text of a failure object ({@code status}, {@code exit_code}, {@code error}) with the
     * results so far under {@code completed}: the statements before the failing one ran, and their
     * INSERTs are committed.
     */
    public String renderFailure(Map<String, Object> failure) {
      ObjectNode object = NODES.objectNode();
      failure.forEach((key, value) -> object.set(key, MAPPER.valueToTree(value)));
      object.set("completed", results);
      try {
        return MAPPER.writeValueAsString(object);
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException("Cannot write SQL results as JSON: " + e.getMessage(), e);
      }
    }

    /** The JSON text of the results so far, indented. */
    public String render() {
      return write(results);
    }
  }

  private static ObjectNode toJson(StatementResult result) {
    ObjectNode object = NODES.objectNode();
    object.put("statement", result.statement().number());
    object.put("line", result.statement().line());
    object.put("sql", result.statement().text());
    if (result instanceof QueryResult query) {
      object.put("kind", "query");
      ArrayNode columns = object.putArray("columns");
      for (int i = 0; i < query.columnNames().size(); i++) {
        columns
            .addObject()
            .put("name", query.columnNames().get(i))
            .put("type", query.columnTypes().get(i));
      }
      ArrayNode rows = object.putArray("rows");
      for (List<Object> row : query.rows()) {
        // Flink makes output column names unique (id, id0), so no value is overwritten.
        ObjectNode rowObject = rows.addObject();
        for (int i = 0; i < row.size(); i++) {
          rowObject.set(query.columnNames().get(i), json(query, i, row.get(i)));
        }
      }
      object.put("row_count", query.rowCount());
    } else if (result instanceof InsertResult) {
      object.put("kind", "insert");
    } else {
      object.put("kind", "ok");
    }
    return object;
  }

  private static JsonNode json(QueryResult query, int column, Object value) {
    try {
      return SqlValues.json(value, NODES);
    } catch (IllegalArgumentException e) {
      throw InvalidInputException.of(
          "Cannot write the rows of SQL statement %d (line %d) as JSON: column '%s' holds %s",
          query.statement().number(),
          query.statement().line(),
          query.columnNames().get(column),
          e.getMessage());
    }
  }
}
