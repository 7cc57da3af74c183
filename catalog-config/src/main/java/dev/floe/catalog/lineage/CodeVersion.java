package dev.floe.catalog.lineage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The running build's version, e.g. {@code 0.1.0-SNAPSHOT+3f2a1bc} (plus {@code -dirty} when it was
 * built from uncommitted changes). Pinned into every run key and snapshot, so a backfill can insist
 * on the code it was validated with.
 */
public final class CodeVersion {
  private static final String CURRENT = load();

  private CodeVersion() {}

  public static String current() {
    return CURRENT;
  }

  private static String load() {
    Properties properties = new Properties();
    try (InputStream in =
        CodeVersion.class.getResourceAsStream("/dev/floe/floe-version.properties")) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read floe-version.properties", e);
    }
    String version = clean(properties.getProperty("version"), "unknown");
    String commit = clean(properties.getProperty("commit"), null);
    if (commit == null) {
      return version;
    }
    boolean dirty = "true".equals(properties.getProperty("dirty"));
    return version + "+" + commit + (dirty ? "-dirty" : "");
  }

  private static String clean(String value, String fallback) {
    return value == null || value.isBlank() || value.startsWith("${") ? fallback : value;
  }
}
