package dev.floe.it.servers;

/** Stops what a test class started, every one of them even when one fails to stop. */
public final class Servers {
  private Servers() {}

  /** Closes in the order given (dependents first); nulls are servers that never started. */
  public static void closeAll(AutoCloseable... servers) {
    for (AutoCloseable server : servers) {
      if (server == null) {
        continue;
      }
      try {
        server.close();
      } catch (Exception e) {
        System.out.println("Cannot stop " + server + ": " + e);
      }
    }
  }
}
