package dev.floe.flink.late;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.effects.Delivery;
import dev.floe.catalog.effects.DeliverySettings;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.lineage.TableContent;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.flink.effects.RunEffects;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LateApply} sends a job's effects as {@code floe run} does (Flink MiniCluster, embedded
 * catalog and its outbox, a real HTTP server). Waits between attempts are recorded, never slept.
 */
class LateApplyEffectsITCase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant AS_OF = Instant.parse("2026-10-05T00:00:00Z");

  @RegisterExtension final WebhookServer server = new WebhookServer();
  @TempDir Path home;

  private final List<Duration> slept = new ArrayList<>();
  private CatalogConfig config;
  private LateTables tables;

  /** Oct 3 and 4 loaded (by runs that sent nothing), then one late order for each. */
  @BeforeEach
  void twoLoadedDaysWithLateRows() {
    config = CatalogConfigLoader.embedded(home);
    tables = LateTables.create(config, "P3D", "report");
    tables.arrive("2026-10-03", 2);
    tables.arrive("2026-10-04", 2);
    tables.load("2026-10-03");
    tables.load("2026-10-04");
    tables.arrive("2026-10-03", 1);
    tables.arrive("2026-10-04", 1);
  }

  @Test
  void eachCommittedRerunSendsItsEffectAndAFailedEffectFailsNoSlice() throws Exception {
    server.failNext(1, 500); // Oct 3's only attempt fails; Oct 4's arrives

    LateApplyResult result =
        LateApply.of(config, job(server.url("/hook"))).asOf(AS_OF).effects(effects(Map.of())).run();

    assertThat(result.reruns())
        .extracting(
            r -> r.planned().slice().value(),
            SliceRerun::status,
            r -> r.effects().deliveries().get(0).outcome())
        .containsExactly(
            tuple("2026-10-03", "committed", Delivery.Outcome.FAILED),
            tuple("2026-10-04", "committed", Delivery.Outcome.SENT));
    assertThat(result.exitCode()).isZero();
    assertThat(result.reruns().get(0).effects().warnings()).hasSize(1);
    assertThat(server.count()).isEqualTo(2);
    for (int i = 0; i < 2; i++) {
      JsonNode body = JSON.readTree(server.requests().get(i).body());
      SliceRerun rerun = result.reruns().get(i);
      assertThat(body.get("snapshot").asLong()).isEqualTo(rerun.result().outcome().snapshotId());
      assertThat(body.get("rows").asLong()).isEqualTo(3);
      assertThat(server.requests().get(i).headers())
          .containsEntry("idempotency-key", rerun.result().runKey() + "/notify_bi");
    }
  }

  @Test
  void theDryRunSendsNothing() {
    LateApplyResult dry =
        LateApply.of(config, job(server.url("/hook")))
            .asOf(AS_OF)
            .dryRun(true)
            .effects(effects(Map.of()))
            .run();

    assertThat(dry.plan().reruns()).hasSize(2);
    assertThat(dry.reruns()).isEmpty();
    assertThat(server.count()).isZero();
  }

  @Test
  void effectsThatCannotBeSentAreRefusedBeforeAnySliceIsRerun() {
    ContentHash before = TableContent.hash(tables.table("sales.fact_orders"));
    long snapshot = tables.table("sales.fact_orders").currentSnapshot().snapshotId();

    assertThatThrownBy(
            () ->
                LateApply.of(config, job("${env:BI_HOOK_URL}"))
                    .asOf(AS_OF)
                    .effects(effects(Map.of()))
                    .run())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("BI_HOOK_URL");

    assertThat(TableContent.hash(tables.table("sales.fact_orders"))).isEqualTo(before);
    assertThat(tables.table("sales.fact_orders").currentSnapshot().snapshotId())
        .isEqualTo(snapshot);
    assertThat(server.count()).isZero();
  }

  private RunEffects effects(Map<String, String> environment) {
    return new RunEffects(
        DeliverySettings.of(
            Clock.fixed(Instant.parse("2026-10-05T02:00:00Z"), ZoneOffset.UTC),
            slept::add,
            environment));
  }

  private static JobSpec job(String url) {
    String text =
        LateTables.JOB
            + """
            effects:
              - name: notify_bi
                webhook:
                  url: "%s"
                  body: '{"slice": "${slice}", "snapshot": ${snapshot_id}, "rows": ${rows}}'
                max_attempts: 1
            """
                .formatted(url);
    return JobSpecParser.parse(Manifests.parse("jobs/fact_orders_daily.yaml", text), text);
  }
}
