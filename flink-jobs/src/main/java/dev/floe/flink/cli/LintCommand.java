package dev.floe.flink.cli;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.lint.Finding;
import dev.floe.catalog.lint.LintReport;
import dev.floe.catalog.lint.LintRules;
import dev.floe.catalog.lint.Linter;
import dev.floe.catalog.lint.Rule;
import dev.floe.catalog.lint.Severity;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * `floe lint PATH...`: static checks of job, table and backfill manifests, for code review, CI and
 * pre-commit hooks. Reads files only: no catalog, no Flink.
 */
@Command(
    name = "lint",
    header = "Check manifests for tasks that are not rerun-safe.",
    mixinStandardHelpOptions = true,
    modelTransformer = LintCommand.RuleList.class,
    description = {
      "Check job, table and backfill manifests without a catalog or Flink, so a task",
      "that cannot be retried safely is flagged in code review, CI or a pre-commit hook.",
      "Folders are read recursively (*.yaml, *.yml; there, YAML files that are no",
      "manifest are skipped); a file's kind comes from its top-level key (job:, table:,",
      "backfill:). Rules that look across files (a job's slice against its target's",
      "partitioning, a merge's key) use the table specs among the linted paths.",
      "Prints path:line: severity rule: message per finding, then a summary.",
      "Runbook: docs/operators/lint.md."
    })
public final class LintCommand implements Callable<Integer> {
  /** Exit code when a finding is at or above the --severity threshold. */
  static final int FINDINGS = 1;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "1..*",
      paramLabel = "PATH",
      description = "Manifest files, or folders to search for *.yaml and *.yml files.")
  List<Path> paths;

  @Option(names = "--json", description = "Print the findings and the summary as JSON.")
  boolean json;

  @Option(
      names = "--severity",
      paramLabel = "LEVEL",
      defaultValue = "error",
      description =
          "Exit 1 when a finding is at least this severe: warning or error (default:"
              + " ${DEFAULT-VALUE}). Info findings never fail.")
  String severity;

  /** Accepted like every command's, so scripts can pass it everywhere; lint reads no catalog. */
  @Option(
      names = "--home",
      hidden = true,
      paramLabel = "DIR",
      description = "Ignored: lint reads no catalog (accepted so scripts can pass it everywhere).")
  Path home;

  @Override
  public Integer call() {
    Severity threshold = threshold();
    LintReport report = Linter.lint(paths);
    int exitCode = exitCode(report, threshold);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.write(toJson(report, threshold, exitCode)));
    } else {
      report.findings().forEach(finding -> out.println(finding.text()));
      out.println(summary(report));
    }
    PrintWriter err = spec.commandLine().getErr();
    report.problems().forEach(problem -> err.println("floe: " + problem));
    return exitCode;
  }

  private Severity threshold() {
    if (!severity.equals("warning") && !severity.equals("error")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Cannot use --severity " + severity + ": expected warning or error");
    }
    return Severity.parse(severity);
  }

  /** 2 when a path could not be linted, else 1 when a finding reaches the threshold, else 0. */
  static int exitCode(LintReport report, Severity threshold) {
    if (!report.problems().isEmpty()) {
      return ExitCodes.INVALID_INPUT;
    }
    return report.hasFindingsAtLeast(threshold) ? FINDINGS : ExitCodes.OK;
  }

  static String summary(LintReport report) {
    return String.format(
        "%d finding(s) in %d file(s): %d error(s), %d warning(s), %d info",
        report.findings().size(),
        report.files(),
        report.count(Severity.ERROR),
        report.count(Severity.WARNING),
        report.count(Severity.INFO));
  }

  private static Map<String, Object> toJson(LintReport report, Severity threshold, int exitCode) {
    List<Map<String, Object>> findings = new ArrayList<>();
    for (Finding finding : report.findings()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("file", finding.file());
      row.put("line", finding.line());
      row.put("severity", finding.severity().text());
      row.put("rule", finding.rule());
      row.put("message", finding.message());
      row.put("key", finding.key());
      findings.add(row);
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("findings", report.findings().size());
    summary.put("files", report.files());
    summary.put("errors", report.count(Severity.ERROR));
    summary.put("warnings", report.count(Severity.WARNING));
    summary.put("info", report.count(Severity.INFO));
    summary.put("threshold", threshold.text());
    summary.put("exit_code", exitCode);
    summary.put("text", summary(report));
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("findings", findings);
    json.put("problems", report.problems());
    json.put("summary", summary);
    return json;
  }

  /** Lists every rule under --help (and so in docs/configuration.md), from the rules themselves. */
  static final class RuleList implements CommandLine.IModelTransformer {
    /** Footer lines are printed as they are: wrapped here, below picocli's usage width. */
    private static final int WIDTH = 78;

    private static final String INDENT = "      ";

    @Override
    public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec command) {
      List<String> lines = new ArrayList<>();
      for (Rule rule : LintRules.ALL) {
        lines.add("  " + rule.id() + " (" + rule.severity().text() + ")");
        lines.addAll(wrap(rule.summary()));
      }
      lines.add("%nExit codes:");
      lines.add("  0  no finding at or above --severity (lower ones are still printed)");
      lines.add("  1  a finding at or above --severity");
      lines.add("  2  a path is missing or unreadable, or a named file is not a manifest");
      command.usageMessage().footerHeading("%nRules (id and severity; docs/operators/lint.md):%n");
      command.usageMessage().footer(lines.toArray(String[]::new));
      return command;
    }

    /** Indented lines of at most {@link #WIDTH}, escaped for picocli ({@code %}, {@code ${}}). */
    private static List<String> wrap(String text) {
      List<String> lines = new ArrayList<>();
      StringBuilder line = new StringBuilder(INDENT);
      for (String word : text.split(" ")) {
        if (line.length() > INDENT.length() && line.length() + 1 + word.length() > WIDTH) {
          lines.add(escaped(line.toString()));
          line = new StringBuilder(INDENT);
        }
        if (line.length() > INDENT.length()) {
          line.append(' ');
        }
        line.append(word);
      }
      lines.add(escaped(line.toString()));
      return lines;
    }

    private static String escaped(String line) {
      return line.replace("%", "%%").replace("${", "$${");
    }
  }
}
