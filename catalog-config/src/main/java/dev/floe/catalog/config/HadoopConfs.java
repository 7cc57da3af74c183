package dev.floe.catalog.config;

import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;

/**
 * Hadoop configurations without parsing Hadoop's XML defaults again for every catalog.
 *
 * <p>Iceberg needs a Hadoop {@link Configuration} for every catalog it opens (JdbcCatalog's
 * HadoopFileIO, Flink's catalog loader), even on S3. A new one parses {@code core-default.xml} (and
 * any {@code core-site.xml}) on first use: 8–20 ms of CPU on our 2 cores, and a backfill opened
 * three per slice, ≈ 10 % of its CPU. The files cannot change while the JVM runs, so they are
 * parsed once into a template and every caller gets its own copy, which it may change freely.
 */
public final class HadoopConfs {

  private static final Template DEFAULTS = new Template(Configuration::new);

  private HadoopConfs() {}

  /** A fresh copy of {@code new Configuration()}: Hadoop's defaults and site files. */
  public static Configuration defaults() {
    return DEFAULTS.copy();
  }

  /**
   * A configuration built once by {@code build} (its properties loaded then), handed out as copies.
   */
  public static final class Template {
    private final Supplier<Configuration> build;
    private volatile Configuration loaded;

    public Template(Supplier<Configuration> build) {
      this.build = build;
    }

    /** A copy of the template, which the caller owns. */
    public Configuration copy() {
      Configuration template = loaded;
      if (template == null) {
        synchronized (this) {
          template = loaded;
          if (template == null) {
            template = build.get();
            template.size(); // parse the resources now, once, not in every copy
            loaded = template;
          }
        }
      }
      // The copy constructor takes the parsed properties and locks the template while it reads.
      Configuration copy = new Configuration(template);
      // ... and the template's class loader, which is the thread's that built it: in a Flink task
      // that is one job's loader. Take this thread's, as a new Configuration would.
      ClassLoader context = Thread.currentThread().getContextClassLoader();
      copy.setClassLoader(context != null ? context : Configuration.class.getClassLoader());
      return copy;
    }
  }
}
