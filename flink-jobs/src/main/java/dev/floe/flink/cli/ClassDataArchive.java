package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.flink.session.FlinkSessions;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The class-data archive bin/floe asks a command's first run to write (see bin/floe): the classes
 * this JVM loaded, dumped before it exits so that later starts of the command map them instead of
 * parsing and verifying them. Only a run that stands for its command dumps: one that ran the
 * command (not its {@code --help}), succeeded and, for a command that runs Flink jobs, submitted
 * one. A failed run, a help text, or a {@code floe sql} statement without a job loaded too few of
 * the classes its command needs (with such an archive a later query started half again slower than
 * with one a query wrote), so it leaves no archive and pays only for the recording that the dump
 * needs ({@code -XX:+RecordDynamicDumpInfo}), not for a dump (seconds).
 *
 * <p>bin/floe starts such a run with {@code -XX:+RecordDynamicDumpInfo}, {@value #DUMP_TO} (a
 * private temporary file it renames into place once the JVM exited 0) and, for commands that run
 * jobs, {@value #NEEDS_JOB}{@code =true}.
 */
final class ClassDataArchive {
  /** System property: where to write the archive; unset: write none. */
  static final String DUMP_TO = "floe.cds.dump-to";

  /** System property: true to write the archive only when this JVM submitted a Flink job. */
  static final String NEEDS_JOB = "floe.cds.needs-job";

  /**
   * Free space a dump needs on the archive's file system (archives are up to about 150 MB). The JVM
   * ends itself with exit code 1 when it cannot write the archive, after the command's output and
   * its commit: a successful run must not be reported as failed for a cache.
   */
  static final long FREE_SPACE_NEEDED = 512L << 20;

  /**
   * A line of the JDK's class hierarchy listing that names a class (or, after {@code implements},
   * an interface): {@code name/<loader address or null>}, then a note in parentheses. A hidden
   * class's name has an address of its own ({@code Foo$$Lambda$12/0x.../0x...}): no match, it
   * cannot be loaded by name.
   */
  private static final Pattern LOADED_CLASS =
      Pattern.compile(
          "[|\\s-]*(?:implements\\s+)?([A-Za-z_$][\\w$.]*)/(?:null|0x[0-9a-f]+)(?:\\s.*)?");

  private static final Logger LOG = LoggerFactory.getLogger(ClassDataArchive.class);

  private ClassDataArchive() {}

  /**
   * Writes the archive bin/floe asked for when this run stands for its command. Never fails the
   * command: an archive that cannot be written is left out.
   *
   * @param exitCode the command's exit code
   * @param ranTheCommand false when the command line only asked for help or the version
   */
  static void dumpIfRepresentative(int exitCode, boolean ranTheCommand) {
    String target = System.getProperty(DUMP_TO);
    if (target == null
        || target.isEmpty()
        || !standsForItsCommand(
            exitCode,
            ranTheCommand,
            Boolean.getBoolean(NEEDS_JOB),
            FlinkSessions.jobsSubmitted())) {
      return;
    }
    Path file = Path.of(target);
    try {
      if (Files.getFileStore(file.toAbsolutePath().getParent()).getUsableSpace()
          < FREE_SPACE_NEEDED) {
        LOG.info("Not writing the class-data archive {}: less than 512 MiB free there", target);
        return;
      }
    } catch (IOException | RuntimeException e) {
      LOG.info("Not writing the class-data archive {}: {}", target, e.toString());
      return;
    }
    // The JDK prints "Dynamic dump to file ..." on System.out, which carries results (--json).
    PrintStream out = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    try {
      linkLoadedClasses();
      // The JVM splits the command's arguments at spaces: a path with one is quoted.
      diagnosticCommand(
          "vmCds", "dynamic_dump", target.contains(" ") ? "\"" + target + "\"" : target);
    } catch (Exception | LinkageError | VirtualMachineError e) {
      // The command succeeded; out of memory here (linking loads more classes) only means no
      // archive, never another exit code.
      LOG.info("Cannot write the class-data archive {}: {}", target, e.toString());
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // bin/floe deletes its temporary file at exit in any case
      }
    } finally {
      System.setOut(out);
    }
  }

  /**
   * Whether a run's classes stand for its command: it ran the command (not only its help), it
   * succeeded and, when {@code needsJob}, it submitted a Flink job.
   */
  static boolean standsForItsCommand(
      int exitCode, boolean ranTheCommand, boolean needsJob, int jobsSubmitted) {
    return exitCode == ExitCodes.OK && ranTheCommand && (!needsJob || jobsSubmitted > 0);
  }

  /**
   * Links every class this JVM loaded and has not linked yet, so that the archive holds it: a
   * dynamic archive leaves such classes out (the JDK logs "Skipping ...: Not linked"), and every
   * later run then reads them from their jars again. Flink's planner loads thousands only to
   * compare types; a 2-row {@code floe sql} read 3,761 classes from jars with an archive that left
   * them out, 253 with one that holds them, and took 12 % less time. What is left: class files
   * older than Java 6, which the JDK cannot archive (picocli's, slf4j 1.7's), classes that extend
   * them, and classes loaded after the dump.
   *
   * <p>Linking verifies a class but runs none of its code. A class this JVM's application loader
   * cannot load by name (a hidden class, one of another loader) or that does not verify is left
   * out, as before.
   */
  private static void linkLoadedClasses() {
    String hierarchy;
    try {
      hierarchy = diagnosticCommand("vmClassHierarchy", "-i"); // interfaces too
    } catch (Exception | LinkageError e) {
      LOG.info("Cannot list the loaded classes to link them before the dump: {}", e.toString());
      return;
    }
    Set<String> names = classNames(hierarchy);
    ClassLoader application = ClassLoader.getSystemClassLoader();
    for (String name : names) {
      try {
        // Reflecting on a class's fields links it (the JVM verifies it first); loading alone
        // (initialize = false) does not, and nothing here initializes a class. It also loads the
        // fields' types, which no later run may need (a few MB more archive).
        Class.forName(name, false, application).getDeclaredFields();
      } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
        // Not loadable by name here, or it does not verify: left out of the archive.
      }
    }
  }

  /**
   * The names of the classes and interfaces a class hierarchy listing names, hidden ones left out.
   */
  static Set<String> classNames(String hierarchy) {
    Set<String> names = new LinkedHashSet<>();
    hierarchy
        .lines()
        .map(LOADED_CLASS::matcher)
        .filter(Matcher::matches)
        .forEach(line -> names.add(line.group(1)));
    return names;
  }

  /** Runs one of the JVM's diagnostic commands (what {@code jcmd} runs) and returns its output. */
  private static String diagnosticCommand(String operation, String... arguments) throws Exception {
    return String.valueOf(
        ManagementFactory.getPlatformMBeanServer()
            .invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"),
                operation,
                new Object[] {arguments},
                new String[] {String[].class.getName()}));
  }
}
