package dev.floe.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Map;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlValuesTest {

  /** The text table prints TIMESTAMP_LTZ as PostgreSQL prints timestamptz in a UTC session. */
  @ParameterizedTest
  @CsvSource({
    "2026-10-03T12:00:00Z,           2026-10-03 12:00:00+00",
    "2026-10-03T12:00:00.5Z,         2026-10-03 12:00:00.500+00",
    "2026-10-03T12:00:00.123456Z,    2026-10-03 12:00:00.123456+00",
    "2026-10-03T12:00:00.123456789Z, 2026-10-03 12:00:00.123456789+00",
    "1969-12-31T23:59:59.999999Z,    1969-12-31 23:59:59.999999+00",
    "2026-10-03T23:30:00+05:00,      2026-10-03 18:30:00+00"
  })
  void textPrintsTimestampLtzInUtcWithPostgreSqlsOffsetAndExactFractions(
      String instant, String text) {
    assertThat(SqlValues.text(Instant.parse(instant))).isEqualTo(text);
  }

  /** JSON stays ISO 8601 with Z: Instant.parse and JavaScript's Date read it, not "+00". */
  @ParameterizedTest
  @CsvSource({
    "2026-10-03T12:00:00Z,        2026-10-03T12:00:00Z",
    "2026-10-03T12:00:00.123456Z, 2026-10-03T12:00:00.123456Z"
  })
  void jsonKeepsIsoInstantsThatParseBack(String instant, String iso) {
    String json = SqlValues.json(Instant.parse(instant), JsonNodeFactory.instance).asText();

    assertThat(json).isEqualTo(iso);
    assertThat(Instant.parse(json)).isEqualTo(Instant.parse(instant));
  }

  @Test
  void timestampsWithoutTimeZoneHaveNoOffset() {
    LocalDateTime noon = LocalDateTime.of(2026, 10, 3, 12, 0);

    assertThat(SqlValues.text(noon)).isEqualTo("2026-10-03 12:00:00");
    assertThat(SqlValues.isoText(noon)).isEqualTo("2026-10-03T12:00:00");
  }

  @Test
  void nestedTimestampLtzValuesUseTheSameFormAsTopLevelOnes() {
    Instant noon = Instant.parse("2026-10-03T12:00:00Z");

    assertThat(SqlValues.text(Row.of(10L, noon))).isEqualTo("(10, 2026-10-03 12:00:00+00)");
    assertThat(SqlValues.text(new Instant[] {noon, null}))
        .isEqualTo("[2026-10-03 12:00:00+00, NULL]");
    assertThat(SqlValues.text(Map.of("at", noon))).isEqualTo("{at=2026-10-03 12:00:00+00}");
    assertThat(SqlValues.json(new Instant[] {noon}, JsonNodeFactory.instance).toString())
        .isEqualTo("[\"2026-10-03T12:00:00Z\"]");
  }
}
