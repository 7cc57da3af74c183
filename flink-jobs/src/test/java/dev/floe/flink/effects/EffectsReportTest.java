package dev.floe.flink.effects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.effects.Delivery;
import dev.floe.catalog.effects.OutboxKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The warning lines a run prints on stderr for effects that did not arrive. */
class EffectsReportTest {
  private static final OutboxKey KEY = new OutboxKey("k", "notify_bi");

  @Test
  void aWarningCountsOnlyThePostsThisCallMade() {
    EffectsReport report =
        new EffectsReport(
            List.of(
                new Delivery(KEY, "u", Delivery.Outcome.FAILED, 2, 500, "HTTP 500"),
                new Delivery(KEY, "u", Delivery.Outcome.FAILED, 0, null, "Cannot send: unset"),
                new Delivery(KEY, "u", Delivery.Outcome.FAILED_EARLIER, 0, 500, "HTTP 500")),
            null);

    assertThat(report.warnings())
        .extracting(w -> w.substring(0, w.indexOf(';')))
        .containsExactly(
            "effect notify_bi was not delivered (failed after 2 attempt(s): HTTP 500)",
            "effect notify_bi was not delivered (failed before any POST: Cannot send: unset)",
            "effect notify_bi was not delivered (failed earlier: HTTP 500)");
  }
}
