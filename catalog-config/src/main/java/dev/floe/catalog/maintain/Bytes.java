package dev.floe.catalog.maintain;

import java.util.Locale;

/** Byte counts as people read them: 812 B, 4.2 KiB, 1.3 MiB. */
public final class Bytes {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

  private Bytes() {}

  public static String format(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    double value = bytes;
    int unit = 0;
    while (value >= 1024 && unit < UNITS.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
  }
}
