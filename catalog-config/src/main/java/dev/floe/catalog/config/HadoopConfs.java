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
 *
 * <p>Every template also reads {@code file:} through {@link NioLocalFileSystem} (unless the XML
 * names a {@code fs.file.impl} of its own): Hadoop's local file system otherwise forks a {@code
 * chmod} process for every file and directory it creates. It is named only where Hadoop's own class
 * loader loads that very class (Floe and Hadoop on one class path: {@code bin/floe}, its
 * MiniCluster, tests, benchmarks). On a Flink cluster Hadoop lives in Flink's {@code lib/} and Floe
 * in the job jar: there a cached file system of the job's class loader would outlive the job
 * (Hadoop caches file systems per JVM), so Hadoop's own is kept.
 */
public final class HadoopConfs {

  private static final Template DEFAULTS = new Template(Configuration::new);

  static final String LOCAL_FILE_SYSTEM_KEY = "fs.file.impl";

  private HadoopConfs() {}

  /** A fresh copy of {@code new Configuration()}: Hadoop's defaults and site files. */
  public static Configuration defaults() {
    return DEFAULTS.copy();
  }

  /**
   * Names {@link NioLocalFileSystem} as {@code conf}'s file system for {@code file:}, unless {@code
   * conf} names one or Hadoop's class loader does not load that class (see the class comment).
   */
  static void useNioLocalFileSystem(Configuration conf) {
    String configured = conf.getTrimmed(LOCAL_FILE_SYSTEM_KEY);
    if ((configured == null || configured.isEmpty()) && loadedWithHadoop()) {
      conf.set(LOCAL_FILE_SYSTEM_KEY, NioLocalFileSystem.class.getName());
    }
  }

  private static boolean loadedWithHadoop() {
    try {
      return Class.forName(
              NioLocalFileSystem.class.getName(), false, Configuration.class.getClassLoader())
          == NioLocalFileSystem.class;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * A configuration built once by {@code build} (its properties loaded then, {@code file:} read
   * through {@link NioLocalFileSystem} as the class comment says), handed out as copies.
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
            useNioLocalFileSystem(template);
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
