package dev.floe.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commands that open no catalog (lint, k8s) leave no Floe home behind: bin/floe used to point their
 * log file into ./.floe/logs, whose folder log4j makes when the JVM starts.
 */
class BinFloeNoCatalogCommandsITCase {
  @TempDir Path work;

  @Test
  void lintLeavesNoFloeFolderInTheWorkingDirectory() throws Exception {
    Path jobs = BinFloe.repoRoot().resolve("examples/jobs");

    BinFloe.Result result = BinFloe.run(work, "lint", jobs.toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(work.resolve(".floe")).doesNotExist();
  }

  @Test
  void k8sRenderLeavesNoFloeFolderInTheWorkingDirectory() throws Exception {
    BinFloe.Result result =
        BinFloe.run(work, "k8s", "render-session-cluster", "floe-session", "--image", "floe:test");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(work.resolve(".floe")).doesNotExist();
  }
}
