package dev.floe.flink.cli;

import picocli.CommandLine.Option;

/**
 * {@code --[no-]allow-effects}, whether every slice of a backfill sends its job's effects: {@code
 * floe backfill} and {@code k8s render-backfill}. The description below is backfill's; render's is
 * in {@code OptionTexts.properties}. ({@code floe run --allow-effects} is a plain flag of its own:
 * one slice, no manifest to override.)
 */
public final class AllowEffectsOption {
  @Option(
      names = "--allow-effects",
      negatable = true,
      descriptionKey = "allow-effects",
      description =
          "Let every slice fire its job's effects (default: the manifest's, else off during a"
              + " backfill); --no-allow-effects overrides a manifest's allow_effects: true.")
  Boolean allowEffects;

  /** The flag given, or null when neither form was. */
  public Boolean value() {
    return allowEffects;
  }
}
