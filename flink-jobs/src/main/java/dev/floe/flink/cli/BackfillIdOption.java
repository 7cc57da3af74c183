package dev.floe.flink.cli;

import picocli.CommandLine.Option;

/**
 * {@code --backfill-id ID}: {@code floe run}, {@code backfill} and {@code k8s render-backfill}. The
 * description below is run's; the others' are in {@code OptionTexts.properties}.
 */
public final class BackfillIdOption {
  @Option(
      names = "--backfill-id",
      paramLabel = "ID",
      descriptionKey = "backfill-id",
      description =
          "Run as one slice of this backfill, the way `floe k8s render-backfill` runs each slice:"
              + " the commit records floe.backfill-id (so `floe snapshots --backfill` lists it and"
              + " `floe backfill` counts the slice as loaded), and the job's effects are recorded"
              + " as skipped unless --allow-effects.")
  String backfillId;

  /** The value given, or null. */
  public String value() {
    return backfillId;
  }
}
