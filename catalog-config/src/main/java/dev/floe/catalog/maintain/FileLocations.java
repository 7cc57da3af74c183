package dev.floe.catalog.maintain;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One spelling per file location, so that a path from table metadata and the same path from a
 * storage listing compare equal: {@code /w/t/a}, {@code file:/w/t/a} and {@code file:///w/t/a} are
 * one file, as are {@code s3a://b/k} and {@code s3://b/k}. Getting this wrong would make referenced
 * files look like orphans, which is why orphan removal also refuses when the listing misses the
 * table's current metadata file.
 */
final class FileLocations {
  private static final Pattern SCHEME = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$");

  private FileLocations() {}

  /**
   * {@code scheme://authority/path} with repeated and trailing slashes and {@code .} segments
   * removed.
   *
   * @throws InvalidInputException for a path with a {@code ..} segment: Hadoop resolves it by
   *     dropping the segment before it, an object store keeps it in the key, a local file system
   *     resolves it after following links. No one spelling is right for all of them.
   */
  static String normalise(String location) {
    String scheme = "file";
    String rest = location;
    Matcher matcher = SCHEME.matcher(location);
    if (matcher.matches()) {
      scheme = matcher.group(1).toLowerCase(Locale.ROOT);
      rest = matcher.group(2);
    }
    String authority = "";
    String path = rest;
    if (rest.startsWith("//")) {
      int slash = rest.indexOf('/', 2);
      authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
      path = slash < 0 ? "" : rest.substring(slash);
    }
    if (scheme.equals("file") && authority.equalsIgnoreCase("localhost")) {
      authority = "";
    }
    if (scheme.equals("s3a") || scheme.equals("s3n")) {
      scheme = "s3";
    }
    path = path.replaceAll("/{2,}", "/");
    if (path.equals("..")
        || path.startsWith("../")
        || path.contains("/../")
        || path.endsWith("/..")) {
      throw InvalidInputException.of(
          "Cannot compare file location %s: it has a '..' segment, which file systems resolve"
              + " differently",
          location);
    }
    path = path.replaceAll("/(\\./)+", "/").replaceAll("^\\./", "");
    if (path.endsWith("/.")) {
      path = path.substring(0, path.length() - 1);
    }
    if (path.equals(".")) {
      path = "";
    }
    if (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (!path.startsWith("/")) {
      path = "/" + path;
    }
    return scheme + "://" + authority + path;
  }

  /** Whether {@code location} lies strictly under the directory {@code directory}. */
  static boolean isUnder(String location, String directory) {
    String dir = normalise(directory);
    return normalise(location).startsWith(dir.endsWith("/") ? dir : dir + "/");
  }

  /** The directory {@code location} lies in, normalised, without a trailing slash. */
  static String parent(String location) {
    String normalised = normalise(location);
    return normalised.substring(0, normalised.lastIndexOf('/'));
  }

  /** Whether two spellings name the same directory (a root's trailing slash aside). */
  static boolean sameDirectory(String a, String b) {
    return withoutTrailingSlash(normalise(a)).equals(withoutTrailingSlash(normalise(b)));
  }

  private static String withoutTrailingSlash(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }
}
