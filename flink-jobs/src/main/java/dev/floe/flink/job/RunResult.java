package dev.floe.flink.job;

import dev.floe.catalog.job.WriteMode;
import dev.floe.catalog.slice.Scope;
import dev.floe.flink.commit.CommitOutcome;
import java.util.Map;

/**
 * What a finished run reports (also as {@code --json}).
 *
 * @param job the job's name
 * @param target the target table
 * @param mode the write mode
 * @param scope the slice (or whole table) the run owned; printed as its label
 * @param runKey the deterministic run key
 * @param runId this attempt's id
 * @param sourceSnapshots source table to snapshot id read
 * @param outcome committed or no-op, with snapshot, rows and content hash
 * @param elapsedMillis wall time of the whole run
 * @param branch the audit or scratch branch the run committed to, or null for main
 */
public record RunResult(
    String job,
    String target,
    WriteMode mode,
    Scope scope,
    String runKey,
    String runId,
    Map<String, Long> sourceSnapshots,
    CommitOutcome outcome,
    long elapsedMillis,
    String branch) {}
