package dev.floe.catalog.k8s;

import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.ShellWord;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code floe run} a rendered resource performs inside the cluster.
 *
 * @param job the manifest's job name
 * @param target the target table
 * @param manifest the manifest's path inside the project, e.g. {@code jobs/x.yaml}
 * @param sliceValue the slice as {@code floe run} prints it, e.g. {@code 2026-10-03}; null when the
 *     run owns the whole table
 * @param sliceLabel the slice as lineage records it, e.g. {@code
 *     order_date=[2026-10-03,2026-10-04)}
 * @param runKey the run key {@code floe run} computes for the same inputs
 * @param codeVersion the Floe build inside the image (part of the run key)
 * @param backfillId the backfill this run is a slice of, or null; passed as {@code --backfill-id}
 *     so the commit records it and {@code floe backfill} counts the slice as loaded
 * @param parallelism the job's parallelism in the cluster
 * @param passParallelism true to pass {@code --parallelism} to {@code floe run} (it was given on
 *     the command line, and must win over the manifest's inside the run too)
 * @param allowEffects a backfill slice that sends the job's effects ({@code --allow-effects});
 *     without it a backfill slice records them as skipped, as {@code floe backfill} does
 */
public record SliceRun(
    String job,
    String target,
    String manifest,
    String sliceValue,
    String sliceLabel,
    String runKey,
    String codeVersion,
    String backfillId,
    int parallelism,
    boolean passParallelism,
    boolean allowEffects) {

  /**
   * The resource's name, see {@link K8sNames#resourceName}: from the run key for a plain run; for a
   * backfill's slice from the run key, the backfill id and whether it sends effects ({@link
   * K8sNames#backfillKey}), since its spec differs in each, and applying one over another would
   * patch that resource (a running slice, or a finished one that then never runs).
   */
  public String name() {
    return K8sNames.resourceName(
        job,
        sliceValue,
        backfillId == null ? runKey : K8sNames.backfillKey(runKey, backfillId, allowEffects));
  }

  /** The manifest inside the image: {@code /opt/floe/jobs/x.yaml}. */
  public String manifestInImage() {
    return ImageLayout.PROJECT_DIR + "/" + manifest;
  }

  /**
   * The arguments of {@code FloeClusterMain}: the same command line as on a laptop, with the paths
   * inside the image: {@code run /opt/floe/jobs/x.yaml --slice D --config /opt/floe/floe.yaml}.
   */
  public List<String> args() {
    List<String> args = new ArrayList<>(List.of("run", manifestInImage()));
    if (sliceValue != null) {
      args.addAll(List.of("--slice", sliceValue));
    }
    args.addAll(List.of("--config", ImageLayout.CONFIG_FILE));
    if (passParallelism) {
      args.addAll(List.of("--parallelism", Integer.toString(parallelism)));
    }
    if (backfillId != null) {
      args.addAll(List.of("--backfill-id", backfillId));
      if (allowEffects) {
        args.add("--allow-effects");
      }
    }
    return List.copyOf(args);
  }

  /** The same command line, for comments and messages. */
  public String commandLine() {
    return "floe " + String.join(" ", args().stream().map(ShellWord::of).toList());
  }
}
