package dev.floe.catalog.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The table spec parser accepts exactly the declared keys; declared defaults match the parser. */
class TableSpecKeysTest {

  @Test
  void declaresTheKeysTheParserAccepts() {
    assertThat(TableSpecKeys.GROUP.keysUnder(""))
        .containsExactly(
            "table",
            "schema",
            "partition",
            "key",
            "late_data",
            "retention",
            "maintenance",
            "properties");
    assertThat(TableSpecKeys.GROUP.keysUnder("schema[]"))
        .containsExactly("name", "type", "required", "doc");
    assertThat(TableSpecKeys.GROUP.keysUnder("late_data"))
        .containsExactly("window", "after_window");
    assertThat(TableSpecKeys.GROUP.keysUnder("retention")).containsExactly("keep_last", "max_age");
    assertThat(TableSpecKeys.GROUP.keysUnder("maintenance"))
        .containsExactly(
            "target_file_size",
            "min_input_files",
            "delete_file_threshold",
            "deleted_row_ratio",
            "strategy",
            "zorder_columns",
            "max_manifests",
            "orphan_min_age");
  }

  @Test
  void declaredDefaultsAreTheParsersDefaults() {
    TableSpec spec =
        TableSpecParser.parse(
            "tables/t.yaml",
            "table: a.b\nschema: [{name: x, type: long}]\nlate_data: {window: P1D}\n");

    assertThat(spec.columns().get(0).required())
        .isEqualTo(Boolean.parseBoolean(TableSpecKeys.COLUMN_REQUIRED.defaultValue()));
    assertThat(spec.lateData().orElseThrow().afterWindow().name().toLowerCase(Locale.ROOT))
        .isEqualTo(TableSpecKeys.LATE_DATA_AFTER_WINDOW.defaultValue());
  }
}
