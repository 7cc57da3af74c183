package dev.floe.bench;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A poor man's profiler for one run: every few milliseconds it takes the stacks of Flink's task
 * threads and counts, among the RUNNABLE ones, the top frame and which interesting code is on the
 * stack. Enough to say where a run's time goes (and whether Kryo shows up at all) without an agent.
 * It has a safepoint bias and costs a little, so it never runs during a measured run.
 */
final class StackSampler implements AutoCloseable {
  /** Flink names task threads "{operator chain} (i/n)#attempt". */
  private static final Pattern TASK_THREAD = Pattern.compile(".*\\(\\d+/\\d+\\)#\\d+$");

  /**
   * The write path's inclusive buckets: a sample counts in every bucket whose code is anywhere on
   * its stack. A marker is a class-name prefix, {@code Class#method} for one method, or {@code
   * kryo}.
   */
  private static final Map<String, String> WRITE_PATH_MARKERS = new LinkedHashMap<>();

  static {
    WRITE_PATH_MARKERS.put(
        "Iceberg source (read + decode Parquet)", "org.apache.iceberg.flink.source.");
    WRITE_PATH_MARKERS.put(
        "Flink SQL runtime (calc, conversion)", "org.apache.flink.table.runtime.");
    WRITE_PATH_MARKERS.put(
        "Flink records over the network", "org.apache.flink.runtime.io.network.");
    WRITE_PATH_MARKERS.put(
        "Floe writer operator (all of it)", "dev.floe.flink.write.SliceWriterOperator");
    WRITE_PATH_MARKERS.put("  Floe slice guard", "dev.floe.flink.write.RowGuard");
    WRITE_PATH_MARKERS.put("  Floe content hash", "dev.floe.flink.row.RowDataHasher");
    WRITE_PATH_MARKERS.put("  Floe row checks", "dev.floe.flink.check.RowChecks");
    WRITE_PATH_MARKERS.put("  Floe unique keys (emit)", "dev.floe.flink.write.UniqueKeys");
    WRITE_PATH_MARKERS.put("Floe duplicate-key finder", "dev.floe.flink.commit.DuplicateKeyFinder");
    WRITE_PATH_MARKERS.put(
        "Iceberg sink writer (baseline)", "org.apache.iceberg.flink.sink.IcebergStreamWriter");
    WRITE_PATH_MARKERS.put(
        "Iceberg task writer (write Parquet)", "org.apache.iceberg.io.BaseTaskWriter");
    WRITE_PATH_MARKERS.put(
        "Iceberg Parquet reader (any path)", "org.apache.iceberg.parquet.ParquetReader");
    WRITE_PATH_MARKERS.put(
        "Iceberg Parquet appender (any path)", "org.apache.iceberg.parquet.ParquetWriter");
    WRITE_PATH_MARKERS.put("zstd compression", "com.github.luben.zstd.");
    WRITE_PATH_MARKERS.put("Flink batch sort", "org.apache.flink.runtime.operators.sort.");
    WRITE_PATH_MARKERS.put("Kryo", "kryo");
  }

  private final Map<String, String> markers;
  private final Thread thread;
  private final Thread client;
  private final String entry;
  private final Map<String, Integer> topFrames = new HashMap<>();
  private final Map<String, Integer> clientPhases = new HashMap<>();
  private final Map<String, Integer> forks = new HashMap<>();
  private final Map<String, Integer> tasks = new HashMap<>();
  private final Map<String, Integer> buckets = new HashMap<>();
  private volatile boolean running = true;
  private int samples;
  private int taskThreadSamples;
  private int clientSamples;

  private StackSampler(
      long intervalMillis, Thread client, String entry, Map<String, String> markers) {
    this.markers = markers;
    this.client = client;
    this.entry = entry;
    thread =
        new Thread(
            () -> {
              while (running) {
                sample();
                try {
                  Thread.sleep(intervalMillis);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "floe-bench-sampler");
    thread.setDaemon(true);
  }

  /**
   * @param client the thread that runs the path (its stack shows the client-side phases)
   * @param entry the path's entry method, {@code class.method}: phases are what it is calling
   */
  static StackSampler start(long intervalMillis, Thread client, String entry) {
    return start(intervalMillis, client, entry, WRITE_PATH_MARKERS);
  }

  /**
   * @param markers bucket name to marker (see {@link #WRITE_PATH_MARKERS}), in printing order
   */
  static StackSampler start(
      long intervalMillis, Thread client, String entry, Map<String, String> markers) {
    StackSampler sampler = new StackSampler(intervalMillis, client, entry, markers);
    sampler.thread.start();
    return sampler;
  }

  private void sample() {
    Map<Thread, StackTraceElement[]> stacks = Thread.getAllStackTraces();
    synchronized (this) {
      samples++;
      for (Map.Entry<Thread, StackTraceElement[]> e : stacks.entrySet()) {
        StackTraceElement[] stack = e.getValue();
        if (e.getKey() == client) {
          clientSamples++;
          clientPhases.merge(phase(stack), 1, Integer::sum);
        }
        if (e.getKey().getState() == Thread.State.RUNNABLE
            && stack.length > 0
            && stack[0].getMethodName().equals("forkAndExec")) {
          forks.merge(firstOutsideJdk(stack), 1, Integer::sum);
        }
        if (e.getKey().getState() != Thread.State.RUNNABLE
            || stack.length == 0
            || !TASK_THREAD.matcher(e.getKey().getName()).matches()) {
          continue;
        }
        taskThreadSamples++;
        // The thread name lists the operators chained into the task: shows what runs together.
        String task =
            e.getKey().getName().replaceAll(" \\(\\d+/(\\d+)\\)#\\d+$", " [parallelism $1]");
        tasks.merge(task, 1, Integer::sum);
        topFrames.merge(stack[0].getClassName() + "." + stack[0].getMethodName(), 1, Integer::sum);
        for (Map.Entry<String, String> marker : markers.entrySet()) {
          if (onStack(stack, marker.getValue())) {
            buckets.merge(marker.getKey(), 1, Integer::sum);
          }
        }
      }
    }
  }

  /** The call the entry method is making (any thread state: waiting for the job counts too). */
  private String phase(StackTraceElement[] stack) {
    for (int i = stack.length - 1; i > 0; i--) {
      if ((stack[i].getClassName() + "." + stack[i].getMethodName()).equals(entry)) {
        StackTraceElement callee = stack[i - 1];
        return simpleName(callee.getClassName()) + "." + callee.getMethodName();
      }
    }
    return "(outside " + entry + ")";
  }

  /** Who started a process: JDK frames say nothing, the first caller outside the JDK does. */
  private static String firstOutsideJdk(StackTraceElement[] stack) {
    for (StackTraceElement frame : stack) {
      String cls = frame.getClassName();
      if (!cls.startsWith("java.") && !cls.startsWith("jdk.") && !cls.startsWith("sun.")) {
        return simpleName(cls) + "." + frame.getMethodName();
      }
    }
    return "(JDK)";
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  private static boolean onStack(StackTraceElement[] stack, String marker) {
    int hash = marker.indexOf('#');
    for (StackTraceElement frame : stack) {
      String cls = frame.getClassName();
      boolean matches;
      if (marker.equals("kryo")) {
        matches = cls.toLowerCase(Locale.ROOT).contains("kryo");
      } else if (hash >= 0) {
        matches =
            cls.equals(marker.substring(0, hash))
                && frame.getMethodName().equals(marker.substring(hash + 1));
      } else {
        matches = cls.startsWith(marker);
      }
      if (matches) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join();
  }

  /** Kryo frames seen in RUNNABLE task threads. */
  synchronized int kryoSamples() {
    return buckets.getOrDefault("Kryo", 0);
  }

  synchronized void print(PrintStream out, String title, double wallSeconds) {
    out.printf(
        Locale.ROOT,
        "%s: %d sampling rounds, %d RUNNABLE task-thread stacks%n",
        title,
        samples,
        taskThreadSamples);
    out.println("  tasks (operator chains; % of task-thread stacks):");
    tasks.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .forEach(
            e -> out.printf(Locale.ROOT, "    %5.1f %%  %s%n", percent(e.getValue()), e.getKey()));
    out.println("  on the stack (inclusive, % of task-thread stacks):");
    for (String bucket : markers.keySet()) {
      out.printf(
          Locale.ROOT, "    %-42s %5.1f %%%n", bucket, percent(buckets.getOrDefault(bucket, 0)));
    }
    out.printf(
        Locale.ROOT,
        "  client thread (%s), what it is calling, ≈ seconds of the %.2f s run:%n",
        entry,
        wallSeconds);
    clientPhases.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(10)
        .forEach(
            e ->
                out.printf(
                    Locale.ROOT,
                    "    %5.2f s  %s%n",
                    wallSeconds * e.getValue() / Math.max(1, clientSamples),
                    e.getKey()));
    if (!forks.isEmpty()) {
      out.println("  processes forked (any thread; samples caught in forkAndExec), by caller:");
      forks.entrySet().stream()
          .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
          .limit(5)
          .forEach(e -> out.printf(Locale.ROOT, "    %4d  %s%n", e.getValue(), e.getKey()));
    }
    out.println("  top frames (self):");
    topFrames.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(12)
        .forEach(
            e -> out.printf(Locale.ROOT, "    %5.1f %%  %s%n", percent(e.getValue()), e.getKey()));
  }

  private double percent(int count) {
    return taskThreadSamples == 0 ? 0 : 100.0 * count / taskThreadSamples;
  }
}
