package dev.floe.catalog.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.lineage.RunKey;
import org.junit.jupiter.api.Test;

class K8sNamesTest {
  private static final String KEY = RunKey.of("j", "t", "s", "m", "v");

  @Test
  void aNameIsPrefixJobSliceAndTheRunKeyPrefix() {
    String name = K8sNames.resourceName("fact_orders_daily", "2026-10-03", KEY);

    assertThat(name).isEqualTo("floe-fact-orders-daily-2026-10-03-" + KEY.substring(0, 8));
    assertThat(K8sNames.isOperatorName(name)).isTrue();
  }

  @Test
  void aLongJobNameIsCutSoTheSliceAndTheRunKeyStay() {
    String job = "a_very_long_job_name_that_loads_every_order_of_every_region_" + "x".repeat(80);

    String day = K8sNames.resourceName(job, "2026-10-03", KEY);
    String hour = K8sNames.resourceName(job, "2026-10-03T05", KEY);

    assertThat(day)
        .hasSize(K8sNames.MAX_NAME_LENGTH)
        .endsWith("-2026-10-03-" + KEY.substring(0, 8));
    assertThat(hour)
        .hasSizeLessThanOrEqualTo(K8sNames.MAX_NAME_LENGTH)
        .endsWith("-2026-10-03t05-" + KEY.substring(0, 8));
    assertThat(K8sNames.isOperatorName(day)).isTrue();
    assertThat(K8sNames.isOperatorName(hour)).isTrue();
  }

  @Test
  void anyJobNameGivesAValidName() {
    for (String job :
        new String[] {"9lives", "___", "Ünïcödé Jöb", "a--b", "x", "trailing_", "a".repeat(300)}) {
      String name = K8sNames.resourceName(job, "2026-10", KEY);
      assertThat(K8sNames.isOperatorName(name)).as(job + " -> " + name).isTrue();
      assertThat(name).doesNotContain("--");
    }
    assertThat(K8sNames.resourceName("___", "2026", KEY))
        .isEqualTo("floe-2026-" + KEY.substring(0, 8));
  }

  @Test
  void aWholeTableRunHasNoSlicePart() {
    assertThat(K8sNames.resourceName("dim_customer_merge", null, KEY))
        .isEqualTo("floe-dim-customer-merge-" + KEY.substring(0, 8));
  }

  @Test
  void aLabelValueIsKeptWhenValidAndCutWithAHashOtherwise() {
    assertThat(K8sNames.labelValue("orders_january_rebuild")).isEqualTo("orders_january_rebuild");
    assertThat(K8sNames.labelValue("2026-10-03T05")).isEqualTo("2026-10-03T05");

    String longA = "b".repeat(70) + "A";
    String longB = "b".repeat(70) + "B";
    assertThat(K8sNames.labelValue(longA)).isNotEqualTo(K8sNames.labelValue(longB));
    for (String value : new String[] {longA, "job with spaces", "_x_", "-", "ä"}) {
      assertThat(K8sNames.isLabelValue(K8sNames.labelValue(value))).as(value).isTrue();
    }
  }

  @Test
  void aBackfillKeyDependsOnTheRunKeyTheBackfillIdAndEffectsAndNamesAsLongAsARunKey() {
    String a = K8sNames.backfillKey(KEY, "a", false);

    assertThat(K8sNames.backfillKey(KEY, "a", false)).isEqualTo(a);
    assertThat(a).hasSameSizeAs(KEY).isNotEqualTo(KEY);
    assertThat(K8sNames.backfillKey(KEY, "b", false)).isNotEqualTo(a);
    assertThat(K8sNames.backfillKey(KEY, "a", true)).isNotEqualTo(a);
    assertThat(K8sNames.backfillKey(RunKey.of("j", "t", "s", "m", "w"), "a", false))
        .isNotEqualTo(a);
    String job = "a_very_long_job_name_" + "x".repeat(80);
    assertThat(K8sNames.resourceName(job, "2026-10-03T05", a))
        .hasSize(K8sNames.resourceName(job, "2026-10-03T05", KEY).length())
        .matches(K8sNames.OPERATOR_NAME);
  }
}
