package dev.floe.flink.cli;

import picocli.CommandLine.Option;

/** Options every command shares: where the catalog is, and how to print. */
public final class CommonOptions extends CatalogSelection {
  @Option(
      names = "--json",
      description =
          "Print machine-readable JSON instead of text; 64-bit ids (snapshot_id, ...) are strings.")
  boolean json;
}
