package dev.floe.catalog.snapshot;

/**
 * Names of scratch branches: a scratch run ({@code floe verify}, a backfill's sample check) commits
 * to {@code scratch-<run-id>} so that its result can be read and compared without touching main.
 * The branch is dropped ({@link DropScratch}) as soon as the comparison is done; one left behind (a
 * killed verify) is an ordinary ref for snapshot expiry, and {@link DropScratch} removes it.
 */
public final class ScratchBranch {
  public static final String PREFIX = "scratch-";

  private ScratchBranch() {}

  /** The scratch branch of one run. */
  public static String of(String runId) {
    return PREFIX + runId;
  }

  /** Whether a ref name is a scratch branch. */
  public static boolean is(String refName) {
    return refName.startsWith(PREFIX);
  }
}
