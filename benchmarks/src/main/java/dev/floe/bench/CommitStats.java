package dev.floe.bench;

import java.util.List;

/** Summaries of a commit-scaling run: latency windows and metadata written per block. */
final class CommitStats {
  private CommitStats() {}

  /**
   * The median latency of the {@code window} commits ending at commit {@code at} (1-based), or of
   * as many as exist when {@code at < window}.
   *
   * @throws IllegalArgumentException when {@code at} is beyond the commits
   */
  static double medianAt(List<CommitRecord> commits, int at, int window) {
    if (at < 1 || at > commits.size()) {
      throw new IllegalArgumentException(
          "Cannot take the median at commit " + at + ": the run has " + commits.size());
    }
    int from = Math.max(0, at - window);
    return PathResult.median(commits.subList(from, at).stream().map(CommitRecord::millis).toList());
  }

  /**
   * Metadata bytes written by commits {@code (block - 1) * size + 1} to {@code block * size}
   * (1-based block), in the order metadata.json, manifest lists, manifests.
   */
  static long[] bytesOfBlock(List<CommitRecord> commits, int block, int size) {
    long[] sums = new long[3];
    int to = Math.min(commits.size(), block * size);
    for (CommitRecord c : commits.subList((block - 1) * size, to)) {
      sums[0] += c.metadataJsonBytes();
      sums[1] += c.manifestListBytes();
      sums[2] += c.manifestBytes();
    }
    return sums;
  }
}
