package dev.floe.flink.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.flink.deploy.Dockerfile.Instruction;
import dev.floe.flink.deploy.Dockerfile.Stage;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docker/Dockerfile against the build: versions, where the jar and project land, the user. */
class DockerfileTest {
  private static final String FLINK_IMAGE = "flink";
  private static final String RUNTIME_USER = "flink";
  private static final String CHOWN = "--chown=flink:flink";

  private final Dockerfile dockerfile = DockerFiles.dockerfile();
  private final Stage build = dockerfile.stage("build");
  private final Stage runtime = dockerfile.runtime();

  @Test
  void runsOnTheOfficialFlinkImageOfThePomsFlinkVersionAndJava17() {
    assertThat(runtime.image()).startsWith(FLINK_IMAGE + ":");
    assertThat(runtime.tag())
        .startsWith(DockerFiles.pomProperty("flink.version") + "-")
        .endsWith("-java17");
  }

  @Test
  void buildsWithJava17TheModulesTheShadedJarNeeds() {
    assertThat(build.tag()).matches(".*(^|-)17($|-).*");
    String run = String.join(" ", build.all("RUN").stream().map(Instruction::arguments).toList());
    assertThat(run).contains("./mvnw -B -DskipTests -pl flink-jobs -am package");
    // The names the Dockerfile copies must be the names flink-jobs/pom.xml produces.
    String pom = DockerFiles.read(DockerFiles.root().resolve("flink-jobs/pom.xml"));
    assertThat(run).contains("flink-jobs/target/floe-flink-jobs-*-shaded.jar");
    assertThat(pom)
        .contains("<artifactId>floe-flink-jobs</artifactId>")
        .contains("<shadedClassifierName>shaded</shadedClassifierName>");
    assertThat(run).contains("flink-jobs/target/cluster-lib-classpath.txt");
    assertThat(pom).contains("${project.build.directory}/cluster-lib-classpath.txt");
  }

  @Test
  void putsTheJarTheClusterLibsTheProjectAndItsConfigWhereImageLayoutSays() {
    assertThat(copyTo(ImageLayout.JAR_PATH).flag("from")).contains(build.alias());
    assertThat(copyTo("/opt/flink/lib/").flag("from")).contains(build.alias());
    assertThat(copyTo(ImageLayout.CONFIG_FILE).operands().get(0)).isEqualTo("docker/floe.yaml");

    Instruction project = copyTo(ImageLayout.PROJECT_DIR + "/");
    assertThat(project.operands().get(0)).isEqualTo("${PROJECT_DIR}/");
    String defaultProject = runtime.argDefaults().get("PROJECT_DIR");
    assertThat(defaultProject).isEqualTo("examples");
    Path examples = DockerFiles.root().resolve(defaultProject);
    assertThat(examples.resolve("jobs")).isDirectory();
    assertThat(examples.resolve("tables")).isDirectory();
    // The project comes after the default floe.yaml, so a project's own floe.yaml wins.
    assertThat(project.line()).isGreaterThan(copyTo(ImageLayout.CONFIG_FILE).line());
  }

  @Test
  void everyLocalCopySourceExists() {
    for (Stage stage : dockerfile.stages()) {
      Map<String, String> args = stage.argDefaults();
      for (Instruction copy : stage.all("COPY")) {
        if (copy.flag("from").isPresent()) {
          continue;
        }
        List<String> operands = copy.operands();
        for (String source : operands.subList(0, operands.size() - 1)) {
          String resolved = source;
          for (var arg : args.entrySet()) {
            resolved = resolved.replace("${" + arg.getKey() + "}", arg.getValue());
          }
          assertThat(DockerFiles.root().resolve(resolved))
              .as("COPY source at line %d", copy.line())
              .exists();
        }
      }
    }
  }

  @Test
  void runsAsTheNonRootFlinkUser() {
    List<Instruction> users = runtime.all("USER");
    assertThat(users).isNotEmpty();
    Instruction last = users.get(users.size() - 1);
    assertThat(last.arguments().trim())
        .isIn(RUNTIME_USER, "9999", RUNTIME_USER + ":" + RUNTIME_USER);
    // Nothing after the USER line may undo it (a later RUN as root would need USER root again).
    assertThat(runtime.instructions().get(runtime.instructions().size() - 1)).isEqualTo(last);
  }

  @Test
  void everyCopyIntoTheRuntimeImageIsOwnedByFlink() {
    for (Instruction copy : runtime.all("COPY")) {
      assertThat(copy.words()).as("COPY at line %d", copy.line()).contains(CHOWN);
    }
  }

  @Test
  void downloadsNothingWithAddAndBakesNoSecrets() {
    for (Stage stage : dockerfile.stages()) {
      assertThat(stage.all("ADD")).as("ADD (use COPY; never a URL)").isEmpty();
      for (String keyword : List.of("ENV", "ARG")) {
        for (Instruction i : stage.all(keyword)) {
          String name = i.arguments().trim().split("[=\\s]", 2)[0];
          assertThat(looksSecret(name)).as("%s %s at line %d", keyword, name, i.line()).isFalse();
        }
      }
    }
  }

  @Test
  void pinsEveryBaseImageToATag() {
    for (Stage stage : dockerfile.stages()) {
      assertThat(stage.tag()).as(stage.image()).isNotEmpty().isNotEqualTo("latest");
    }
  }

  @Test
  void theBuildContextKeepsModulePomsAndGitAndDropsBuildOutput() {
    List<String> ignored =
        DockerFiles.read(DockerFiles.root().resolve(".dockerignore"))
            .lines()
            .map(String::trim)
            .filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .toList();
    assertThat(ignored).contains("**/target", "**/.floe");
    // Maven reads every module's POM even with -pl, and .git gives the jar its commit.
    assertThat(ignored)
        .noneMatch(p -> p.contains("pom.xml") || p.startsWith(".git") || p.equals("*"));
  }

  static boolean looksSecret(String name) {
    String property = name.toLowerCase(Locale.ROOT).replace('_', '-');
    return CatalogConfig.isSecret(property) || property.contains("access-key");
  }

  private Instruction copyTo(String destination) {
    List<Instruction> copies =
        runtime.all("COPY").stream()
            .filter(c -> c.operands().get(c.operands().size() - 1).equals(destination))
            .toList();
    assertThat(copies).as("COPY ... %s in the runtime stage", destination).hasSize(1);
    return copies.get(0);
  }
}
