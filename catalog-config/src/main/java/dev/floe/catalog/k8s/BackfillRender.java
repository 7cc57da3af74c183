package dev.floe.catalog.k8s;

import java.nio.file.Path;

/**
 * The backfill to render: a job manifest with a range, or a backfill manifest. A value given here
 * wins over the backfill manifest's, as with {@code floe backfill}.
 *
 * @param manifest a job manifest, or a backfill manifest naming the job and the range
 * @param from the first slice, inclusive, or null for the backfill manifest's
 * @param to the end of the range, exclusive, or null for the backfill manifest's
 * @param maxConcurrency resources to run at once, or null for the manifest's, else 1
 * @param backfillId the id to label the resources with, or null for the manifest's, else derived as
 *     {@code floe backfill} derives it
 * @param allowEffects true for slices that send the job's effects (each slice sends them), false
 *     for slices that keep them off (recorded as skipped), or null for the manifest's, else false
 */
public record BackfillRender(
    Path manifest,
    String from,
    String to,
    Integer maxConcurrency,
    String backfillId,
    Boolean allowEffects) {

  /** {@code manifest} with nothing overridden. */
  public static BackfillRender of(Path manifest) {
    return new BackfillRender(manifest, null, null, null, null, null);
  }

  /** A job manifest over {@code [from, to)}. */
  public static BackfillRender of(Path jobManifest, String from, String to) {
    return new BackfillRender(jobManifest, from, to, null, null, null);
  }
}
