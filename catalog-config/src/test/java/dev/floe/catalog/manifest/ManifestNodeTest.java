package dev.floe.catalog.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a strict manifest node says about a key or a value it refuses. */
class ManifestNodeTest {
  private static final String SOURCE = "jobs/fact_orders.yaml";
  private static final Set<String> KEYS = Set.of("job", "target", "mode", "checks", "query");

  @Test
  void anUnknownKeyCloseToAnAllowedOneSuggestsIt() {
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "chekcs: []\n").requireOnlyKeys(KEYS))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml: unknown key 'chekcs' (allowed: checks, job, mode,"
                + " query, target); did you mean 'checks'?");
  }

  @Test
  void anUnknownKeyFarFromEveryAllowedOneSuggestsNothing() {
    assertThatThrownBy(() -> Manifests.parse(SOURCE, "owner: me\n").requireOnlyKeys(KEYS))
        .hasMessageEndingWith("(allowed: checks, job, mode, query, target)");
  }

  @Test
  void suggestionsTakeSwapsAndCaseAsOneEditAndSkipShortOrTiedKeys() {
    assertThat(ManifestNode.closest("taregt", KEYS)).isEqualTo("target");
    assertThat(ManifestNode.closest("Mode", KEYS)).isEqualTo("mode");
    assertThat(ManifestNode.closest("partitions", Set.of("partition", "key")))
        .isEqualTo("partition");
    assertThat(ManifestNode.closest("jo", KEYS)).isNull(); // one edit, but half its length
    assertThat(ManifestNode.closest("mox", Set.of("max", "mix"))).isNull(); // a tie
  }

  @Test
  void aWholeNumberBeyondSixtyFourBitsIsRefusedInsteadOfWrappingAround() {
    // 2^64 + 1: longValue() would read it as 1, a valid parallelism.
    ManifestNode root = Manifests.parse(SOURCE, "parallelism: 18446744073709551617\n");

    assertThatThrownBy(() -> root.child("parallelism").asLong())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml at 'parallelism': expected a whole number between"
                + " -9223372036854775808 and 9223372036854775807, got 18446744073709551617");
  }

  @Test
  void theLargestLongIsStillRead() {
    ManifestNode root = Manifests.parse(SOURCE, "n: 9223372036854775807\n");

    assertThat(root.child("n").asLong()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aWholeNumberIsReadAsItsDecimalDigitsOrRefused() {
    ManifestNode root =
        Manifests.parse(
            SOURCE, "octal: 010\nhex: 0x10\ngrouped: 1_000\nplus: +5\nzero: 0\nminus: -3\n");

    // YAML 1.1 reads 010 as 8: a parallelism or a row count a person reads as 10.
    assertThatThrownBy(() -> root.child("octal").asLong())
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot read jobs/fact_orders.yaml at 'octal': expected a whole number in decimal"
                + " digits without leading zeros, got 010 (YAML reads it as 8)");
    assertThatThrownBy(() -> root.child("hex").asLong())
        .hasMessageContaining("got 0x10 (YAML reads it as 16)");
    assertThatThrownBy(() -> root.child("grouped").asLong())
        .hasMessageContaining("got 1_000 (YAML reads it as 1000)");
    assertThat(root.child("plus").asLong()).isEqualTo(5);
    assertThat(root.child("zero").asLong()).isZero();
    assertThat(root.child("minus").asLong()).isEqualTo(-3);
  }
}
