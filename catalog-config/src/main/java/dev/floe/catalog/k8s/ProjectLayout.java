package dev.floe.catalog.k8s;

import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The local project directory the image build copies to {@link ImageLayout#PROJECT_DIR}: a
 * manifest's path inside the image is its path relative to this directory.
 *
 * @param dir the project directory, absolute and normalized
 */
public record ProjectLayout(Path dir) {
  /** The folder of job manifests that marks a project root when there is no floe.yaml. */
  public static final String JOBS_DIR = "jobs";

  public ProjectLayout {
    dir = dir.toAbsolutePath().normalize();
  }

  /** The project at {@code dir}, which must exist. */
  public static ProjectLayout of(Path dir) {
    InvalidInputException.check(
        Files.isDirectory(dir),
        "Cannot render: project directory %s does not exist (it is the directory the image"
            + " build copied to %s)",
        Shown.value(dir.toString()),
        ImageLayout.PROJECT_DIR);
    return new ProjectLayout(dir);
  }

  /**
   * The nearest directory above {@code manifest} that holds floe.yaml or a {@value #JOBS_DIR}/
   * folder: for {@code examples/jobs/x.yaml} that is {@code examples/}, as the image build with
   * {@code PROJECT_DIR=examples} lays it out.
   */
  public static ProjectLayout detect(Path manifest) {
    Path start = manifest.toAbsolutePath().normalize().getParent();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(CatalogConfigLoader.CONFIG_FILE))
          || Files.isDirectory(dir.resolve(JOBS_DIR))) {
        return new ProjectLayout(dir);
      }
    }
    throw InvalidInputException.of(
        "Cannot render %s: no directory above it holds %s or a %s/ folder, so its place in the"
            + " image is unknown; pass --project-dir DIR (the directory the image build copied to"
            + " %s)",
        Shown.value(manifest.toString()),
        CatalogConfigLoader.CONFIG_FILE,
        JOBS_DIR,
        ImageLayout.PROJECT_DIR);
  }

  /** {@code /opt/floe/jobs/x.yaml} for {@code <dir>/jobs/x.yaml}; refuses a file outside. */
  public String inImage(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    InvalidInputException.check(
        absolute.startsWith(dir) && !absolute.equals(dir),
        "Cannot render %s: it lies outside the project directory %s, so the image (which holds"
            + " only that directory, at %s) does not contain it; pass --project-dir, or move the"
            + " manifest into the project",
        Shown.value(file.toString()),
        dir,
        ImageLayout.PROJECT_DIR);
    return ImageLayout.PROJECT_DIR + "/" + relative(absolute);
  }

  /** The path relative to the project, with '/' separators: {@code jobs/x.yaml}. */
  public String relative(Path file) {
    return dir.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
  }

  /**
   * True when the project has a floe.yaml, which the image then holds at {@link
   * ImageLayout#CONFIG_FILE}.
   */
  public boolean hasConfig() {
    return Files.isRegularFile(dir.resolve(CatalogConfigLoader.CONFIG_FILE));
  }
}
