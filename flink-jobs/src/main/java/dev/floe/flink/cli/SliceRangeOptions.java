package dev.floe.flink.cli;

import picocli.CommandLine.Option;

/** {@code --from} and {@code --to} of a backfill range: `floe backfill` and `floe k8s`. */
final class SliceRangeOptions {
  @Option(
      names = "--from",
      paramLabel = "SLICE",
      description = "The first slice, inclusive, e.g. 2026-01-01 (its unit is every slice's).")
  String from;

  @Option(
      names = "--to",
      paramLabel = "SLICE",
      description = "The end of the range, exclusive, e.g. 2026-04-01.")
  String to;
}
