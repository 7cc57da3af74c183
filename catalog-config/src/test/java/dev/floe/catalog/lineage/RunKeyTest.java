package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RunKeyTest {
  private static final String JOB = "fact_orders_daily";
  private static final String TARGET = "sales.fact_orders";
  private static final String SLICE = "order_date=[2026-10-03,2026-10-04)";
  private static final String MANIFEST = "job: fact_orders_daily\ntarget: sales.fact_orders\n";
  private static final String CODE = "0.1.0+abc1234";

  @Test
  void theSameInputsGiveTheSameKey() {
    String key = RunKey.of(JOB, TARGET, SLICE, MANIFEST, CODE);

    assertThat(RunKey.of(JOB, TARGET, SLICE, MANIFEST, CODE)).isEqualTo(key);
    assertThat(key).matches("[0-9a-f]{24}");
  }

  @Test
  void theKeyIsStableAcrossBuildsAndMachines() {
    // Pinned: a change here invalidates every recorded run key (resumed backfills, no-op checks).
    assertThat(RunKey.of("j", "t", "s", "m", "c"))
        .isEqualTo(RunKey.of("j", "t", "s", "m", "c"))
        .isEqualTo(sha256Prefix("1:j1:t1:s1:m1:c"));
  }

  @Test
  void eachOfTheFiveInputsChangesTheKey() {
    List<String> keys =
        List.of(
            RunKey.of(JOB, TARGET, SLICE, MANIFEST, CODE),
            RunKey.of("fact_orders_hourly", TARGET, SLICE, MANIFEST, CODE),
            RunKey.of(JOB, "sales.fact_orders_v2", SLICE, MANIFEST, CODE),
            RunKey.of(JOB, TARGET, "order_date=[2026-10-04,2026-10-05)", MANIFEST, CODE),
            RunKey.of(JOB, TARGET, SLICE, MANIFEST + "parallelism: 4\n", CODE),
            RunKey.of(JOB, TARGET, SLICE, MANIFEST, "0.1.0+def5678"));

    assertThat(new HashSet<>(keys)).hasSize(6);
  }

  @Test
  void partsAreLengthPrefixedSoShiftingABoundaryChangesTheKey() {
    Set<String> keys =
        new HashSet<>(
            List.of(
                RunKey.of("ab", "c", "s", "m", "v"),
                RunKey.of("a", "bc", "s", "m", "v"),
                RunKey.of("a", "b", "cs", "m", "v"),
                RunKey.of("", "abc", "s", "m", "v")));

    assertThat(keys).hasSize(4);
  }

  private static String sha256Prefix(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 24);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
