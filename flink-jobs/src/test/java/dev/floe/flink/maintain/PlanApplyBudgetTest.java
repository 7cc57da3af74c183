package dev.floe.flink.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.maintain.plan.MaintenancePlan;
import dev.floe.catalog.maintain.plan.PlanAction;
import dev.floe.catalog.maintain.plan.PlanItem;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which plan items an apply takes under --max-bytes, --max-tables and a passed --timeout. */
class PlanApplyBudgetTest {
  @TempDir Path home;

  private static final PlanItem A_COMPACT = item("s.a", PlanAction.COMPACT, 50, 800);
  private static final PlanItem B_COMPACT = item("s.b", PlanAction.COMPACT, 40, 300);
  private static final PlanItem A_EXPIRE = item("s.a", PlanAction.EXPIRE, 30, 0);
  private static final PlanItem C_ORPHANS = item("s.c", PlanAction.ORPHANS, 20, 0);
  private static final PlanItem D_COMPACT = item("s.d", PlanAction.COMPACT, 10, 100);

  private final MaintenancePlan plan =
      new MaintenancePlan(
          Instant.EPOCH,
          List.of(A_COMPACT, B_COMPACT, A_EXPIRE, C_ORPHANS, D_COMPACT),
          List.of(),
          List.of(),
          Map.of(),
          0);

  @Test
  void maxBytesSkipsAnItemThatWouldPassItAndTakesLaterOnesThatFit() {
    PlanApply.Selection selection = apply().maxBytes(1000L).select();

    assertThat(selection.chosen()).containsExactly(A_COMPACT, A_EXPIRE, C_ORPHANS, D_COMPACT);
    assertThat(selection.outside().get(B_COMPACT)).contains("--max-bytes 1000");
  }

  @Test
  void maxTablesCountsTablesAndATablesLaterItemsStillFit() {
    PlanApply.Selection selection = apply().maxTables(2).select();

    assertThat(selection.chosen()).containsExactly(A_COMPACT, B_COMPACT, A_EXPIRE);
    assertThat(selection.outside()).containsOnlyKeys(C_ORPHANS, D_COMPACT);
  }

  @Test
  void anEmptyBudgetTakesEverythingInRankOrder() {
    assertThat(apply().select().chosen()).containsExactlyElementsOf(plan.items());
  }

  @Test
  void aTimeoutThatHasPassedStartsNothingAndExitsSix() {
    Clock stopped = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
    Clock later = Clock.offset(stopped, Duration.ofHours(2));
    // The deadline is taken from the first clock reading; every later reading is past it.
    Clock ticking =
        new Clock() {
          private int reads;

          @Override
          public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(java.time.ZoneId zone) {
            return this;
          }

          @Override
          public Instant instant() {
            return reads++ == 0 ? stopped.instant() : later.instant();
          }
        };

    ApplyResult result =
        apply().timeout(new Timeout(Duration.ofMinutes(1), "1m", "--timeout")).clock(ticking).run();

    assertThat(result.outcomes())
        .allSatisfy(o -> assertThat(o.status()).isEqualTo(ItemOutcome.Status.NOT_STARTED));
    assertThat(result.exitCode()).isEqualTo(6);
  }

  @Test
  void theTimeoutCountsFromWhenPlanningStartedNotFromTheApply() {
    Clock now = Clock.fixed(Instant.parse("2026-12-01T00:10:00Z"), ZoneOffset.UTC);
    Timeout oneMinute = new Timeout(Duration.ofMinutes(1), "1m", "--timeout");

    // Planning started 10 minutes ago: the minute is gone before the first table.
    ApplyResult late =
        apply().timeout(oneMinute).timeoutFrom(now.instant().minusSeconds(600)).clock(now).run();

    assertThat(late.outcomes())
        .allSatisfy(
            o -> {
              assertThat(o.status()).isEqualTo(ItemOutcome.Status.NOT_STARTED);
              assertThat(o.detail()).contains("--timeout 1m passed");
            });
    assertThat(late.exitCode()).isEqualTo(6);
  }

  private PlanApply apply() {
    return PlanApply.of(CatalogConfigLoader.embedded(home), plan);
  }

  private static PlanItem item(String table, PlanAction action, long score, long bytes) {
    return new PlanItem(
        table,
        action,
        action == PlanAction.COMPACT ? Optional.of("d=2026-01-05") : Optional.empty(),
        score,
        List.of("test"),
        score + 1,
        1,
        "files",
        bytes,
        0);
  }
}
