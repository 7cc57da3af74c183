package dev.floe.catalog.lint;

import java.util.List;

/**
 * What one lint run found.
 *
 * @param findings every finding, ordered by file, line and rule
 * @param files how many files were checked (manifests, and YAML files that failed to parse)
 * @param problems paths that could not be linted at all: missing, unreadable, or not a manifest
 *     although named
 */
public record LintReport(List<Finding> findings, int files, List<String> problems) {

  public LintReport {
    findings = findings.stream().sorted(Finding.ORDER).toList();
    problems = List.copyOf(problems);
  }

  public long count(Severity severity) {
    return findings.stream().filter(f -> f.severity() == severity).count();
  }

  /** True when a finding is at least as severe as {@code threshold}. */
  public boolean hasFindingsAtLeast(Severity threshold) {
    return findings.stream().anyMatch(f -> f.severity().atLeast(threshold));
  }
}
