package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.job.Timeout;
import dev.floe.catalog.lineage.ContentDifference;
import dev.floe.flink.commit.CommitOutcome;
import dev.floe.flink.job.RunRequest;
import dev.floe.flink.job.ScratchResult;
import dev.floe.flink.job.Verify;
import dev.floe.flink.job.VerifyResult;
import dev.floe.flink.run.RunOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe verify jobs/x.yaml --slice D`: run a slice twice off main and compare the results. */
@Command(
    name = "verify",
    header = "Prove a job is rerun-safe: run it twice, compare.",
    mixinStandardHelpOptions = true,
    description = {
      "Prove a job is rerun-safe for one slice: run it twice, each time into its own scratch",
      "branch (scratch-<run-id>), compare the two order-independent content hashes, and compare",
      "them with the slice on main. Main is never changed and both branches are dropped with",
      "their files. Exit 0 when the runs agree, 3 when they do not (with the differing columns",
      "and sample rows). Whether main matches is reported, not judged. Each run is bound by",
      "the timeout (--timeout, else the manifest's timeout:); past it, exit 6."
    })
public final class VerifyCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "MANIFEST", description = "The job manifest (YAML).")
  Path manifest;

  @Mixin SliceOption slice;
  @Mixin ParallelismOption parallelism;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description =
          "How long each of the two runs may take, e.g. 30m, 2h or PT30M; wins over the"
              + " manifest's timeout:. Past it the run is cancelled, both scratch branches are"
              + " dropped and verify exits 6 (default: the manifest's, else no limit).")
  String timeout;

  @Override
  public Integer call() {
    JobSpec job = JobSpecParser.load(manifest);
    // The request checks the slice and the parallelism first; --timeout is read after them.
    RunRequest request =
        RunRequest.of(
            common.catalog(),
            job,
            slice.value(),
            RunOptions.builder().parallelism(parallelism.value()).build());
    if (timeout != null) {
      Timeout limit = Timeout.ofFlag("--timeout", timeout);
      request = request.withOptions(o -> o.timeout(limit));
    }
    VerifyResult result = Verify.run(request);
    PrintWriter out = spec.commandLine().getOut();
    if (common.json) {
      out.println(Json.write(toMap(result)));
    } else {
      print(result, out);
    }
    out.flush();
    result.requireReproducible();
    return ExitCodes.OK;
  }

  private static void print(VerifyResult result, PrintWriter out) {
    out.printf("%s  %s  %s%n", result.job(), result.target(), result.slice());
    out.printf("  mode      %s%n", result.mode());
    out.printf("  run 1     %s%n", describe(result.first()));
    out.printf("  run 2     %s%n", describe(result.second()));
    out.printf(
        "  main      %s  %d rows  snapshot %s%n",
        result.main().encode(), result.main().rows(), result.mainSnapshotId());
    if (result.reproducible()) {
      out.println("  result    reproducible: both runs left the same content");
    } else {
      out.println("  result    NOT reproducible: the two runs left different content");
      printDifference(result.runDifference(), "run 1", "run 2", out);
    }
    if (result.mainMatches()) {
      out.println("  main      matches the runs: a rerun of this slice would change nothing");
    } else {
      out.println(
          result.reproducible()
              ? "  main      differs from the runs: a rerun of this slice would replace what main"
                  + " holds (the source or the job changed since it was loaded, or it never was)"
              : "  main      differs from run 1");
      printDifference(result.mainDifference(), "main", "run 1", out);
    }
    out.printf("  elapsed   %.1f s%n", result.elapsedMillis() / 1000.0);
  }

  private static String describe(ScratchResult run) {
    String where =
        run.onBranch()
            ? "branch " + run.branch() + ", dropped"
            : "no-op: nothing to change, main's content";
    return String.format(
        "%s  %d rows  snapshot %s (%s)",
        run.content().encode(), run.rows(), run.snapshotId(), where);
  }

  private static void printDifference(
      ContentDifference diff, String left, String right, PrintWriter out) {
    if (diff == null) {
      return;
    }
    out.printf(
        "  columns   %s%n",
        diff.columns().isEmpty()
            ? "(each column holds the same values; rows pair them differently)"
            : String.join(", ", diff.columns()));
    printSamples(left, diff.onlyLeftRows(), diff.onlyLeft(), out);
    printSamples(right, diff.onlyRightRows(), diff.onlyRight(), out);
  }

  private static void printSamples(
      String side, long rows, List<Map<String, String>> samples, PrintWriter out) {
    out.printf(
        "  only in %s: %d rows%s%n",
        side, rows, samples.size() < rows ? ", e.g." : (rows == 0 ? "" : ":"));
    for (Map<String, String> sample : samples) {
      out.println(
          "    "
              + sample.entrySet().stream()
                  .map(e -> e.getKey() + "=" + e.getValue())
                  .collect(Collectors.joining(", ")));
    }
  }

  static Map<String, Object> toMap(VerifyResult result) {
    Map<String, Object> map = new LinkedHashMap<>();
    // As every command's --json: a failure says so with its exit code and error line.
    map.put("status", result.reproducible() ? "reproducible" : "failed");
    map.put("job", result.job());
    map.put("target", result.target());
    map.put("mode", result.mode());
    map.put("slice", result.slice());
    map.put("reproducible", result.reproducible());
    map.put("main_matches", result.mainMatches());
    map.put("runs", List.of(run(result.first()), run(result.second())));
    Map<String, Object> main = new LinkedHashMap<>();
    main.put("snapshot_id", result.mainSnapshotId());
    main.put("rows", result.main().rows());
    main.put("content_hash", result.main().encode());
    map.put("main", main);
    map.put("run_difference", difference(result.runDifference(), "run1", "run2"));
    map.put("main_difference", difference(result.mainDifference(), "main", "run1"));
    map.put("elapsed_ms", result.elapsedMillis());
    map.put("exit_code", result.reproducible() ? ExitCodes.OK : ExitCodes.CHECK_FAILED);
    result.failure().ifPresent(error -> map.put("error", error));
    return map;
  }

  private static Map<String, Object> run(ScratchResult run) {
    Map<String, Object> map = new LinkedHashMap<>();
    CommitOutcome outcome = run.run().outcome();
    map.put("run_id", run.run().runId());
    map.put("status", outcome.status().text());
    map.put("branch", run.onBranch() ? run.branch() : null);
    map.put("snapshot_id", run.snapshotId());
    map.put("rows", run.rows());
    map.put("content_hash", run.content().encode());
    return map;
  }

  private static Map<String, Object> difference(ContentDifference diff, String left, String right) {
    if (diff == null) {
      return null;
    }
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("columns", diff.columns());
    map.put("only_in_" + left + "_rows", diff.onlyLeftRows());
    map.put("only_in_" + right + "_rows", diff.onlyRightRows());
    map.put("only_in_" + left + "_samples", diff.onlyLeft());
    map.put("only_in_" + right + "_samples", diff.onlyRight());
    return map;
  }
}
