package dev.floe.catalog.backfill;

import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.job.Timeout;
import java.nio.file.Path;
import java.util.List;

/**
 * A parsed backfill manifest. Values the file leaves out are null, so command-line flags and
 * defaults can fill them in one place ({@code floe backfill}).
 *
 * @param id the {@code backfill} id, or null to derive one
 * @param job the job manifest, resolved against the backfill manifest's directory
 * @param from the first slice value, inclusive
 * @param to the end of the range, exclusive
 * @param maxConcurrency slices in flight, or null
 * @param slicesPerJob consecutive slices one Flink job may load, or null
 * @param sample the sample slice value, or null for the last slice
 * @param expectVersion the pinned code version, or null
 * @param failFast stop at the first failure, or null
 * @param allowEffects let slices fire their job's effects, or null
 * @param overallTimeout how long the whole backfill may take, or null for no limit
 * @param onBackfillDone webhooks sent once when the backfill has loaded every slice
 * @param source the manifest's path, for messages
 */
public record BackfillSpec(
    String id,
    Path job,
    String from,
    String to,
    Integer maxConcurrency,
    Integer slicesPerJob,
    String sample,
    String expectVersion,
    Boolean failFast,
    Boolean allowEffects,
    Timeout overallTimeout,
    List<EffectSpec> onBackfillDone,
    String source) {

  public BackfillSpec {
    onBackfillDone = List.copyOf(onBackfillDone);
  }
}
