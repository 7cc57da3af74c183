package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.EmbeddedCatalog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Text and JSON renderings of a (dry-run) compaction result of a real table. */
class CompactionReportTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  @Test
  void theTextShowsEachSliceBeforeAndAfterAndTheJsonCarriesTheSameNumbers() {
    Table fact = catalog.create(SmallFiles.FACT, SmallFiles.SCHEMA, SmallFiles.BY_DAY);
    SmallFiles.append(fact, "2026-10-03", 4, 5, 1);
    SmallFiles.append(fact, "2026-10-04", 1, 5, 100);
    CompactionResult result =
        Compaction.of(catalog.config(), SmallFiles.FACT)
            .slices(List.of("2026-10-03", "2026-10-04"))
            .targetFileSizeBytes(64L << 20)
            .apply();
    StringWriter text = new StringWriter();

    CompactionReport.print(result, new PrintWriter(text, true));
    Map<String, Object> json = CompactionReport.toMap(result);

    assertThat(text.toString())
        .startsWith("dry run: compact sales.fact_orders (base snapshot ")
        .contains("files below 48.0 MiB count as small")
        .contains("  2026-10-03     would compact\n    files 4 -> 1   bytes ")
        .contains("rows 20 -> 20   (expected)")
        .contains("  2026-10-04     nothing to compact\n    files 1 -> 1")
        .contains("  total          files 5 -> 2   average file ");
    assertThat(json)
        .containsEntry("table", SmallFiles.FACT)
        .containsEntry("dry_run", true)
        .containsEntry("exit_code", 0);
    @SuppressWarnings("unchecked")
    Map<String, Object> day3 = ((List<Map<String, Object>>) json.get("slices")).get(0);
    assertThat(day3)
        .containsEntry("status", "would compact")
        .containsEntry("expected_output_files", 1)
        .containsEntry("label", "order_date=[2026-10-03,2026-10-04)");
    assertThat((Map<String, Object>) day3.get("before")).containsEntry("files", 4);
    assertThat(CompactionReport.bytes(1536)).isEqualTo("1.5 KiB");
  }
}
