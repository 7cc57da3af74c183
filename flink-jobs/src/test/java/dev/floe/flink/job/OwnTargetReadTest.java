package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.testing.EmbeddedCatalog;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A job whose query reads its own target is refused: by name, and by identity across case. */
class OwnTargetReadTest {
  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();

  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @Test
  void aTableNamedLikeTheTargetInAnotherCaseIsASourceWhereTheCatalogKeepsBoth() {
    // The embedded catalog keeps s.Fact and s.fact apart: reading s.fact into s.Fact was refused
    // as "reads its own target s.Fact".
    Table target = catalog.create("s.Fact", SCHEMA, PartitionSpec.unpartitioned());
    catalog.create("s.fact", SCHEMA, PartitionSpec.unpartitioned());

    assertThatCode(
            () ->
                SliceJob.requireRerunSafe(
                    job("s.Fact"), "floe", reads("floe.s.fact"), catalog.catalog(), target))
        .doesNotThrowAnyException();
  }

  @Test
  void theTargetItselfIsRefusedAndSoIsANameInAnotherCaseThatLoadsIt() {
    Table target = catalog.create("s.fact", SCHEMA, PartitionSpec.unpartitioned());

    assertThatThrownBy(
            () ->
                SliceJob.requireRerunSafe(
                    job("s.fact"), "floe", reads("floe.s.fact"), catalog.catalog(), target))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("its query reads its own target s.fact");
    // s.FACT does not load here: not knowing which table it is, the run is refused.
    assertThatThrownBy(
            () ->
                SliceJob.requireRerunSafe(
                    job("s.fact"), "floe", reads("floe.s.FACT"), catalog.catalog(), target))
        .isInstanceOf(InvalidInputException.class);
  }

  private static QueryInspector.Inspection reads(String table) {
    return new QueryInspector.Inspection(Set.of(), Set.of(table), Set.of(), "");
  }

  private static JobSpec job(String target) {
    String text =
        "job: j\ntarget: " + target + "\nmode: swap\nquery: |\n  SELECT id FROM s.other\n";
    return JobSpecParser.parse(Manifests.parse("job.yaml", text), text);
  }
}
