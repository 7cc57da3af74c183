package dev.floe.catalog.lineage;

/**
 * Names of write-audit-publish branches: {@code floe run --publish manual} commits a run to {@code
 * audit-<run-id>} instead of main. Maintenance never expires an open audit branch.
 */
public final class AuditBranch {
  public static final String PREFIX = "audit-";

  private AuditBranch() {}

  /** The audit branch of one run. */
  public static String of(String runId) {
    return PREFIX + runId;
  }

  /** Whether a ref name is an audit branch. */
  public static boolean is(String refName) {
    return refName.startsWith(PREFIX);
  }
}
