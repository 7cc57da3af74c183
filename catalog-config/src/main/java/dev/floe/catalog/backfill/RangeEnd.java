package dev.floe.catalog.backfill;

/**
 * One end of a backfill range and where it came from, so that a message about the range names each
 * end's real source: its flag, or the backfill manifest's key.
 *
 * @param value the slice value, or null when neither the flag nor the file gives it
 * @param source its flag ({@code --from}), or the backfill manifest and key ({@code m.yaml: to})
 */
public record RangeEnd(String value, String source) {

  /** The end {@code flag} ({@code --from} or {@code --to}) gives. */
  public static RangeEnd flag(String flag, String value) {
    return new RangeEnd(value, flag);
  }

  /**
   * The {@code key} end of a backfill, {@code from} or {@code to}: its flag's value when given (the
   * flag wins over the file, as {@link BackfillSpecParser#load(java.nio.file.Path, java.util.Set)}
   * reads it), else the backfill manifest's ({@code file} null: a job manifest, which has none),
   * else none, a missing flag.
   */
  public static RangeEnd of(String key, String flagValue, BackfillSpec file) {
    String fileValue =
        file == null
            ? null
            : switch (key) {
              case "from" -> file.from();
              case "to" -> file.to();
              default -> throw new IllegalArgumentException("not a range key: " + key);
            };
    return flagValue != null || fileValue == null
        ? flag("--" + key, flagValue)
        : new RangeEnd(fileValue, file.source() + ": " + key);
  }

  /**
   * The source and the value as the user wrote them: {@code --from 2026-10-09}, or {@code m.yaml:
   * to: 2026-10-01}.
   */
  public String describe() {
    return source.startsWith("--") ? source + " " + value : source + ": " + value;
  }
}
