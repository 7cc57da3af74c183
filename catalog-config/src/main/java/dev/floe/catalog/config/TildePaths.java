package dev.floe.catalog.config;

import dev.floe.catalog.error.InvalidInputException;

/**
 * Paths a user writes with a leading {@code ~}. Only a shell expands it, and only unquoted: a
 * {@code '~/x'} quoted on the command line, or read from floe.yaml, a systemd unit or a Docker env
 * file, named a folder {@code ~} in the working directory (or beside floe.yaml), where a catalog or
 * a warehouse was then made.
 */
public final class TildePaths {
  private TildePaths() {}

  /**
   * @param what where the path comes from, as the message names it ({@code --home}, {@code
   *     FLOE_HOME}, {@code catalog.properties.warehouse})
   * @param path the path as given
   * @return {@code path}
   * @throws InvalidInputException when it starts with {@code ~}, with the path written out
   */
  public static String requireNone(String what, String path) {
    InvalidInputException.check(
        !path.startsWith("~"),
        "Cannot use %s '%s': '~' is expanded only by a shell and only unquoted; write the path out,"
            + " e.g. %s",
        what,
        path,
        path.equals("~") || path.startsWith("~/")
            ? System.getProperty("user.home") + path.substring(1)
            : "/home/" + path.substring(1));
    return path;
  }
}
