package dev.floe.catalog.deploy;

import dev.floe.catalog.lineage.CodeVersion;

/**
 * Where things live inside Floe's container image (docker/Dockerfile). The Kubernetes renderer, the
 * Dockerfile test and the docs read these constants, so the image and the manifests that run it
 * cannot drift apart.
 */
public final class ImageLayout {
  /** The shaded job jar, where Flink's application mode looks for user jars. */
  public static final String JAR_PATH = "/opt/flink/usrlib/floe.jar";

  /** The jar as a Flink operator {@code jarURI}: a file already inside the image. */
  public static final String JAR_URI = "local://" + JAR_PATH;

  /**
   * The Floe project inside the image: {@code jobs/}, {@code tables/}, {@code sql/} and {@code
   * floe.yaml}, copied from the directory given to the image build.
   */
  public static final String PROJECT_DIR = "/opt/floe";

  /** The catalog configuration inside the image; secrets come from the environment, never here. */
  public static final String CONFIG_FILE = PROJECT_DIR + "/floe.yaml";

  /**
   * The entry class for every cluster submission (REST, FlinkDeployment, FlinkSessionJob). It runs
   * inside the JobManager, so unlike {@code FloeMain} it never calls {@code System.exit}: an exit
   * there would stop the JobManager itself.
   */
  public static final String CLUSTER_ENTRY_CLASS = "dev.floe.flink.cli.FloeClusterMain";

  /** The image repository the Dockerfile's README builds: {@code floe:<version>}. */
  public static final String IMAGE_REPOSITORY = "floe";

  private ImageLayout() {}

  /**
   * The image of this build, {@code floe:0.1.0-SNAPSHOT}. A Docker tag cannot hold the {@code +} of
   * a code version, so the commit part is left out.
   */
  public static String defaultImage() {
    return imageFor(CodeVersion.current());
  }

  /** The image a build of {@code codeVersion} is tagged with: {@code floe:<version>}. */
  public static String imageFor(String codeVersion) {
    String version = codeVersion;
    int plus = version.indexOf('+');
    return IMAGE_REPOSITORY + ":" + (plus < 0 ? version : version.substring(0, plus));
  }
}
