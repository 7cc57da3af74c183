package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.flink.session.LocalCluster;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The class-data archive bin/floe asks a command's first run to write (see bin/floe): the classes
 * this JVM loaded, dumped before it exits so that later starts of the command map them instead of
 * parsing and verifying them. Only a run that stands for its command dumps: one that succeeded and,
 * for a command that runs Flink jobs, started a cluster. A failed run, or a {@code floe sql}
 * statement without a job, loaded too few of the classes its command needs (with such an archive a
 * later query started half again slower than with one a query wrote), so it leaves no archive and
 * pays nothing for one: dumping costs seconds.
 *
 * <p>bin/floe starts such a run with {@code -XX:+RecordDynamicDumpInfo}, {@value #DUMP_TO} (a
 * private temporary file it renames into place) and, for commands that run jobs, {@value
 * #NEEDS_JOB}{@code =true}.
 */
final class ClassDataArchive {
  /** System property: where to write the archive; unset: write none. */
  static final String DUMP_TO = "floe.cds.dump-to";

  /** System property: true to write the archive only when this JVM started a Flink cluster. */
  static final String NEEDS_JOB = "floe.cds.needs-job";

  private static final Logger LOG = LoggerFactory.getLogger(ClassDataArchive.class);

  private ClassDataArchive() {}

  /**
   * Writes the archive bin/floe asked for when this run stands for its command. Never fails the
   * command: an archive that cannot be written is left out and logged.
   *
   * @param exitCode the command's exit code
   */
  static void dumpIfRepresentative(int exitCode) {
    String target = System.getProperty(DUMP_TO);
    if (target == null || target.isEmpty() || exitCode != ExitCodes.OK) {
      return;
    }
    if (Boolean.getBoolean(NEEDS_JOB) && LocalCluster.clustersStarted() == 0) {
      return;
    }
    // The JDK prints "Dynamic dump to file ..." on System.out, which carries results (--json).
    PrintStream out = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    try {
      ManagementFactory.getPlatformMBeanServer()
          .invoke(
              new ObjectName("com.sun.management:type=DiagnosticCommand"),
              "vmCds",
              new Object[] {new String[] {"dynamic_dump", target}},
              new String[] {String[].class.getName()});
    } catch (Exception | LinkageError e) {
      LOG.warn("Cannot write the class-data archive {}: {}", target, e.toString());
      try {
        Files.deleteIfExists(Path.of(target));
      } catch (IOException ignored) {
        // bin/floe deletes its temporary file at exit in any case
      }
    } finally {
      System.setOut(out);
    }
  }
}
