package dev.floe.catalog.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code maintenance:} section of a table spec: parsed, turned into the {@code floe.maintain.*}
 * properties the table carries, read back identically, and refused with file, key and value.
 */
class MaintenancePolicySpecTest {
  private static final String SOURCE = "tables/t.yaml";
  private static final String BASE =
      "table: s.t\n"
          + "schema:\n"
          + "  - {name: id, type: long, required: true}\n"
          + "  - {name: c, type: long}\n"
          + "  - {name: d, type: date, required: true}\n"
          + "partition: [d]\n"
          + "retention: {keep_last: 5}\n";

  @Test
  void aSpecPolicyBecomesTablePropertiesThatReadBackAsTheSamePolicy() {
    TableSpec spec =
        TableSpecParser.parse(
            SOURCE,
            BASE
                + "maintenance:\n"
                + "  target_file_size: 128 MiB\n"
                + "  min_input_files: 8\n"
                + "  delete_file_threshold: 3\n"
                + "  deleted_row_ratio: 0.25\n"
                + "  strategy: zorder\n"
                + "  zorder_columns: [id, c]\n"
                + "  max_manifests: 40\n"
                + "  orphan_min_age: P2D\n");

    Map<String, String> properties = FloeTableProperties.of(spec);

    assertThat(properties)
        .containsEntry(MaintenancePolicy.TARGET_FILE_SIZE, String.valueOf(128L << 20))
        .containsEntry(MaintenancePolicy.MIN_INPUT_FILES, "8")
        .containsEntry(MaintenancePolicy.STRATEGY, "zorder")
        .containsEntry(MaintenancePolicy.ZORDER_COLUMNS, "id,c")
        .containsEntry(MaintenancePolicy.ORPHAN_MIN_AGE, "P2D")
        .containsEntry(FloeTableProperties.RETENTION_KEEP_LAST, "5");
    MaintenancePolicy read = MaintenancePolicy.of(properties);
    assertThat(read.targetFileSizeBytes()).isEqualTo(128L << 20);
    assertThat(read.minInputFiles()).isEqualTo(8);
    assertThat(read.deleteFileThreshold()).isEqualTo(3);
    assertThat(read.deletedRowRatio()).isEqualTo(0.25);
    assertThat(read.strategy()).isEqualTo(MaintenancePolicy.Strategy.ZORDER);
    assertThat(read.zorderColumns()).containsExactly("id", "c");
    assertThat(read.maxManifests()).isEqualTo(40);
    assertThat(read.orphanMinAge()).isEqualTo(Duration.ofDays(2));
    assertThat(read.retention()).contains(new RetentionSpec(5, null));
  }

  @Test
  void aTableWithoutPolicyPropertiesHasTheDocumentedDefaults() {
    MaintenancePolicy policy = MaintenancePolicy.of(Map.of());

    assertThat(policy.minInputFiles())
        .hasToString(TableSpecKeys.MAINTENANCE_MIN_INPUT_FILES.defaultValue());
    assertThat(String.valueOf(policy.deletedRowRatio()))
        .isEqualTo(TableSpecKeys.MAINTENANCE_DELETED_ROW_RATIO.defaultValue());
    assertThat(policy.strategy().text())
        .isEqualTo(TableSpecKeys.MAINTENANCE_STRATEGY.defaultValue());
    assertThat(policy.targetFileSizeBytes(Map.of()))
        .isEqualTo(MaintenancePolicy.ICEBERG_TARGET_FILE_SIZE);
    assertThat(policy.targetFileSizeBytes(Map.of("write.target-file-size-bytes", "1000")))
        .isEqualTo(1000);
    assertThat(policy.effectiveOrphanMinAge()).isEqualTo(Duration.ofDays(3));
  }

  @Test
  void badValuesAreRefusedNamingTheFileTheKeyAndTheValue() {
    assertRefused("  min_input_files: 0\n", "maintenance.min_input_files", "0");
    assertRefused("  min_input_files: 1\n", "maintenance.min_input_files", "at least 2");
    assertRefused("  deleted_row_ratio: 1.5\n", "maintenance.deleted_row_ratio", "1.5");
    assertRefused("  strategy: hilbert\n", "maintenance.strategy", "hilbert");
    assertRefused("  target_file_size: 12 parsecs\n", "maintenance.target_file_size", "12 parsecs");
    assertRefused("  orphan_min_age: PT30M\n", "maintenance.orphan_min_age", "PT30M");
    assertRefused("  strategy: zorder\n  zorder_columns: [nope]\n", "zorder_columns[0]", "nope");
    assertRefused("  strategy: zorder\n", "maintenance.strategy", "zorder_columns");
    assertRefused("  zorder_columns: [id]\n", "maintenance.zorder_columns", "binpack");
    assertRefused("  max_manfests: 3\n", "max_manfests", "max_manifests");
  }

  @Test
  void aZOrderColumnOfATypeZOrderCannotEncodeIsRefusedAsCompactionWouldRefuseIt() {
    assertThatThrownBy(
            () ->
                TableSpecParser.parse(
                    SOURCE,
                    BASE.replace(
                            "  - {name: c, type: long}\n",
                            "  - {name: c, type: long}\n  - {name: amt, type: \"decimal(10,2)\"}\n")
                        + "maintenance: {strategy: zorder, zorder_columns: [id, amt]}\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'maintenance.zorder_columns[1]'")
        .hasMessageContaining(
            "z-order column 'amt' has type decimal(10,2), which z-order cannot encode");
  }

  @Test
  void aPolicyPropertyAlsoSetUnderPropertiesIsRefused() {
    assertThatThrownBy(
            () ->
                TableSpecParser.parse(
                    SOURCE,
                    BASE
                        + "maintenance: {min_input_files: 3}\n"
                        + "properties: {floe.maintain.min-input-files: '4'}\n"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(SOURCE)
        .hasMessageContaining("floe.maintain.min-input-files");
  }

  @Test
  void floesOwnPropertiesUnderPropertiesAreRefusedEvenWithoutTheirBlock() {
    for (String property :
        List.of(
            "floe.maintain.strategy: hilbert",
            "floe.maintain.min-input-files: '0'",
            "floe.retention.keep-last: '5'",
            "floe.late-data.window: P1D")) {
      assertThatThrownBy(
              () -> TableSpecParser.parse(SOURCE, BASE + "properties: {" + property + "}\n"))
          .as(property)
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining(SOURCE)
          .hasMessageContaining(property.substring(0, property.indexOf(':')))
          .hasMessageContaining("is Floe's own");
    }
  }

  @Test
  void aBadTablePropertyIsRefusedNamingPropertyAndValue() {
    assertThatThrownBy(
            () -> MaintenancePolicy.of(Map.of(MaintenancePolicy.DELETED_ROW_RATIO, "lots")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read table property floe.maintain.deleted-row-ratio=lots: expected a ratio in"
                + " (0, 1], e.g. 0.1");
  }

  @Test
  void aMinInputFilesPropertyBelowTwoIsRefusedAsTheSpecRefusesIt() {
    // Set by hand (ALTER TABLE ... SET): a plan item that compaction never does would come back
    // on every apply.
    assertThatThrownBy(() -> MaintenancePolicy.of(Map.of(MaintenancePolicy.MIN_INPUT_FILES, "1")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read table property floe.maintain.min-input-files=1: expected at least 2"
                + " (compacting one file removes none)");
    assertThat(MaintenancePolicy.of(Map.of(MaintenancePolicy.MIN_INPUT_FILES, "2")).minInputFiles())
        .isEqualTo(2);
  }

  private static void assertRefused(String maintenance, String key, String value) {
    assertThatThrownBy(() -> TableSpecParser.parse(SOURCE, BASE + "maintenance:\n" + maintenance))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(SOURCE)
        .hasMessageContaining(key)
        .hasMessageContaining(value)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }
}
