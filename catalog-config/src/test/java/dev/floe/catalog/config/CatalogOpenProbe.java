package dev.floe.catalog.config;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.catalog.Catalog;

/**
 * Run in several JVMs at once by {@link SqliteCatalogInitTest}, as commands start on a new home:
 * for each round {@code r} of {@code args[3]}, opens the embedded catalog in {@code
 * <args[0]>/home-r} once all {@code args[2]} probes are ready for that round, and prints {@code
 * opened r}. {@code args[1]} is this probe's number. A probe that fails leaves a file {@code
 * failed} behind, and the others stop waiting for it.
 */
public final class CatalogOpenProbe {
  private CatalogOpenProbe() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    String id = args[1];
    int probes = Integer.parseInt(args[2]);
    int rounds = Integer.parseInt(args[3]);
    Path failed = dir.resolve("failed");
    for (int round = 0; round < rounds; round++) {
      Files.createFile(dir.resolve("ready-" + round + "-" + id));
      for (int other = 0; other < probes; other++) {
        while (!Files.exists(dir.resolve("ready-" + round + "-" + other))) {
          if (Files.exists(failed)) {
            System.exit(3);
          }
          Thread.onSpinWait();
        }
      }
      try {
        Catalog catalog = Catalogs.open(CatalogConfigLoader.embedded(dir.resolve("home-" + round)));
        Catalogs.close(catalog);
      } catch (RuntimeException e) {
        Files.writeString(failed, id);
        throw new IllegalStateException("round " + round + " failed", e);
      }
      System.out.println("opened " + round);
    }
  }
}
