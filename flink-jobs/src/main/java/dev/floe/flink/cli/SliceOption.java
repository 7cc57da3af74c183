package dev.floe.flink.cli;

import picocli.CommandLine.Option;

/**
 * {@code --slice VALUE}, the slice one run owns: {@code floe run}, {@code verify} and {@code k8s
 * render}. The description below is run's; the others' are in {@code OptionTexts.properties}.
 */
public final class SliceOption {
  @Option(
      names = "--slice",
      paramLabel = "VALUE",
      descriptionKey = "slice",
      description =
          "The slice the run owns: 2026-10-03 (day), 2026-10-03T05 (hour), 2026-10 (month) or"
              + " 2026 (year), in the years 0001 to 9998 (a slice's end must still be a date SQL"
              + " can write, and a date or timestamp slice must not start or end in 1582-10-05 to"
              + " 1582-10-14); it must cover whole partitions of the target. On a timestamp or"
              + " timestamptz column a slice is UTC wall time: 2026-10-03 is 00:00 to 24:00 UTC"
              + " (Iceberg's partitions are UTC; no zone can be set). Required when the"
              + " manifest has a slice, refused when it has none. A job never derives its slice"
              + " from the clock.")
  String slice;

  /** The value given, or null. */
  public String value() {
    return slice;
  }
}
