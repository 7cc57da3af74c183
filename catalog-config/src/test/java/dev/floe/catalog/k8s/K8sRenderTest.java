package dev.floe.catalog.k8s;

import static dev.floe.catalog.k8s.Resources.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.RunKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class K8sRenderTest {
  private static final String VERSION = "0.1.0-test+abc1234";
  private static final ClusterSettings CLUSTER = ClusterSettings.defaults("floe:0.1.0-test");
  private static final RenderOptions OPTIONS = RenderOptions.application(CLUSTER, VERSION);
  private static final String DAILY =
      """
      job: daily
      target: sales.fact_orders
      mode: overwrite
      slice: {column: order_date}
      query: |
        SELECT order_id, customer_id, amount, order_date FROM sales.staging_orders
        WHERE order_date >= :slice_start AND order_date < :slice_end
      """;

  @TempDir Path project;

  @Test
  void aSliceBecomesAFlinkDeploymentThatRunsFloeRunForThatSliceInsideTheImage() {
    Map<String, Object> d = single(K8sRender.slice(Resources.dailyJob(), "2026-10-03", OPTIONS));

    assertThat(d.get("apiVersion")).isEqualTo("flink.apache.org/v1beta1");
    assertThat(d.get("kind")).isEqualTo("FlinkDeployment");
    assertThat((Object) at(d, "spec.image")).isEqualTo("floe:0.1.0-test");
    assertThat((Object) at(d, "spec.flinkVersion")).isEqualTo("v2_1");
    assertThat((Object) at(d, "spec.serviceAccount")).isEqualTo("flink");
    assertThat((Object) at(d, "spec.job.jarURI")).isEqualTo(ImageLayout.JAR_URI);
    assertThat((Object) at(d, "spec.job.entryClass")).isEqualTo(ImageLayout.CLUSTER_ENTRY_CLASS);
    assertThat((List<Object>) at(d, "spec.job.args"))
        .containsExactly(
            "run",
            "/opt/floe/jobs/fact_orders_daily.yaml",
            "--slice",
            "2026-10-03",
            "--config",
            "/opt/floe/floe.yaml");
    assertThat((Object) at(d, "spec.job.upgradeMode")).isEqualTo("stateless");
    assertThat((Object) at(d, "spec.job.state")).isEqualTo("running");
    assertThat((Object) at(d, "spec.job.parallelism")).isEqualTo(1);
    assertThat((Map<String, Object>) at(d, "spec.flinkConfiguration"))
        .containsEntry("taskmanager.numberOfTaskSlots", "1")
        .containsEntry("execution.attached", "true");
    assertThat((Object) at(d, "spec.jobManager.resource.memory")).isEqualTo("2048m");
    assertThat((Object) at(d, "spec.taskManager.resource.cpu")).isEqualTo(1.0);
    assertThat(secretRefs(d))
        .containsExactly(
            "FLOE_CATALOG_S3__ACCESS_KEY_ID=floe-s3/access-key-id",
            "FLOE_CATALOG_S3__SECRET_ACCESS_KEY=floe-s3/secret-access-key");
  }

  @Test
  void theRunKeyLabelIsTheKeyFloeRunComputesFromJobTargetSliceManifestAndVersion()
      throws IOException {
    Map<String, Object> d = single(K8sRender.slice(Resources.dailyJob(), "2026-10-03", OPTIONS));

    String expected =
        RunKey.of(
            "fact_orders_daily",
            "sales.fact_orders",
            "order_date=[2026-10-03,2026-10-04)",
            Files.readString(Resources.dailyJob(), StandardCharsets.UTF_8),
            VERSION);
    Map<String, Object> labels = at(d, "metadata.labels");
    assertThat(labels)
        .containsEntry("app.kubernetes.io/name", "floe")
        .containsEntry("floe.dev/job", "fact_orders_daily")
        .containsEntry("floe.dev/slice", "2026-10-03")
        .containsEntry("floe.dev/run-key", expected);
    assertThat((Object) at(d, "metadata.name"))
        .isEqualTo("floe-fact-orders-daily-2026-10-03-" + expected.substring(0, 8));
    assertThat((Map<String, Object>) at(d, "metadata.annotations"))
        .containsEntry("floe.dev/slice", "order_date=[2026-10-03,2026-10-04)")
        .containsEntry("floe.dev/slice-value", "2026-10-03")
        .containsEntry("floe.dev/manifest", "jobs/fact_orders_daily.yaml")
        .containsEntry("floe.dev/code-version", VERSION);
  }

  @Test
  void theSameSliceGetsTheSameNameAndAnotherSliceManifestOrBuildAnother() throws IOException {
    Path job = write("jobs/daily.yaml", DAILY);
    String first = name(K8sRender.slice(job, "2026-10-03", OPTIONS));

    assertThat(name(K8sRender.slice(job, "2026-10-03", OPTIONS))).isEqualTo(first);
    assertThat(name(K8sRender.slice(job, "2026-10-04", OPTIONS))).isNotEqualTo(first);
    assertThat(
            name(
                K8sRender.slice(
                    job, "2026-10-03", RenderOptions.application(CLUSTER, "0.1.0-test+def5678"))))
        .isNotEqualTo(first);
    Files.writeString(job, DAILY + "# a changed comment changes the manifest text\n");
    assertThat(name(K8sRender.slice(job, "2026-10-03", OPTIONS))).isNotEqualTo(first);
  }

  @Test
  void aSessionJobRunsTheSameCommandOnTheNamedClusterWithAFetchableJar() {
    RenderOptions session =
        OPTIONS.withSubmission(Submission.session("floe-session", "s3://artifacts/floe.jar"));

    Map<String, Object> d = single(K8sRender.slice(Resources.dailyJob(), "2026-10-03", session));

    assertThat(d.get("kind")).isEqualTo("FlinkSessionJob");
    assertThat(((Map<String, Object>) at(d, "spec")).keySet())
        .containsExactly("deploymentName", "job");
    assertThat((Object) at(d, "spec.deploymentName")).isEqualTo("floe-session");
    assertThat((Object) at(d, "spec.job.jarURI")).isEqualTo("s3://artifacts/floe.jar");
    assertThat((List<Object>) at(d, "spec.job.args")).contains("--slice", "2026-10-03");
    // Same run, same key: the session job is named like the FlinkDeployment of that slice.
    assertThat((Object) at(d, "metadata.name"))
        .isEqualTo(name(K8sRender.slice(Resources.dailyJob(), "2026-10-03", OPTIONS)));
  }

  @Test
  void aJobWithEffectsIsRefusedAsASessionJobWhoseSubmissionDoesNotWaitForItsCommit()
      throws IOException {
    RenderOptions session =
        OPTIONS.withSubmission(Submission.session("floe-session", "s3://artifacts/floe.jar"));
    Path withEffects =
        write(
            "jobs/notify.yaml",
            DAILY
                + "effects:\n  - name: notify_bi\n    webhook: {url: \"https://bi.example/h\"}\n");

    assertThatThrownBy(() -> K8sRender.slice(withEffects, "2026-10-03", session))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot render " + withEffects + " as a session job")
        .hasMessageContaining("(notify_bi)")
        .hasMessageContaining("drop --session-cluster");
    assertThatThrownBy(
            () ->
                K8sRender.backfill(
                    new BackfillRender(withEffects, "2026-01", "2026-03", null, null, true),
                    session))
        .hasMessageContaining("as a session job");
    // Effects off (a backfill without --allow-effects) send nothing anyway.
    assertThat(
            K8sRender.backfill(
                    BackfillRender.of(Resources.dailyJob(), "2026-01", "2026-03"), session)
                .documents())
        .hasSize(2);
    assertThat(single(K8sRender.slice(withEffects, "2026-10-03", OPTIONS)).get("kind"))
        .isEqualTo("FlinkDeployment");
  }

  @Test
  void executionAttachedIsFloesToSetNotAFlinkConfFlag() {
    assertThatThrownBy(
            () ->
                ClusterSettings.defaults("floe:1")
                    .withFlinkConfiguration(Map.of("execution.attached", "false")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot render with Flink setting execution.attached: ");
  }

  @Test
  void aSessionJobNeedsAJarTheOperatorCanDownload() {
    assertThatThrownBy(() -> Submission.session("floe-session", null))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("give --jar-uri");
    assertThatThrownBy(() -> Submission.session("floe-session", ImageLayout.JAR_URI))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("--jar-uri local:///opt/flink/usrlib/floe.jar")
        .hasMessageContaining("cannot read a path inside an image");
    assertThatThrownBy(() -> Submission.session("Floe_Session", "s3://a/b.jar"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("'Floe_Session'");
  }

  @Test
  void theProjectIsTheNearestDirectoryWithFloeYamlOrJobsAndTheManifestMustLieInIt()
      throws IOException {
    Files.writeString(
        project.resolve("floe.yaml"),
        "catalog: {type: rest, properties: {uri: 'http://rest:8181'}}\n");
    Path nested = write("pipelines/daily/orders.yaml", DAILY);

    Rendered rendered = K8sRender.slice(nested, "2026-10-03", OPTIONS);

    assertThat((List<Object>) at(single(rendered), "spec.job.args"))
        .contains("/opt/floe/pipelines/daily/orders.yaml");
    assertThat(rendered.warnings()).isEmpty();

    Path elsewhere = Files.createDirectories(project.resolve("other"));
    assertThatThrownBy(
            () -> K8sRender.slice(nested, "2026-10-03", OPTIONS.withProjectDir(elsewhere)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot render " + nested)
        .hasMessageContaining("outside the project directory " + elsewhere)
        .hasMessageContaining("--project-dir");
  }

  @Test
  void aProjectWithoutFloeYamlRendersWithAWarningThatTheImageMustProvideIt() {
    Rendered rendered = K8sRender.slice(Resources.dailyJob(), "2026-10-03", OPTIONS);

    assertThat(rendered.warnings())
        .singleElement()
        .asString()
        .contains("has no floe.yaml", "/opt/floe/floe.yaml");
  }

  @Test
  void aProjectOnTheEmbeddedCatalogRendersWithAWarningAndOneWithCredentialsIsRefused()
      throws IOException {
    Path job = write("jobs/daily.yaml", DAILY);
    Files.writeString(project.resolve("floe.yaml"), "catalog: {type: embedded}\n");

    assertThat(K8sRender.slice(job, "2026-10-03", OPTIONS).warnings())
        .singleElement()
        .asString()
        .contains("uses the embedded catalog", "shared catalog");

    Files.writeString(
        project.resolve("floe.yaml"),
        "catalog: {type: jdbc, properties: {uri: 'jdbc:postgresql://db/f', jdbc.password: x}}\n");
    assertThatThrownBy(() -> K8sRender.slice(job, "2026-10-03", OPTIONS))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot read catalog property 'jdbc.password'");
  }

  @Test
  void aGlueProjectGivenOnlyTheS3SecretIsToldHowToGiveTheGlueClientTheSameKeys()
      throws IOException {
    Path job = write("jobs/daily.yaml", DAILY);
    Files.writeString(
        project.resolve("floe.yaml"),
        "catalog: {type: glue, properties: {warehouse: 's3://lake/warehouse'}}\n");

    assertThat(K8sRender.slice(job, "2026-10-03", OPTIONS).warnings())
        .singleElement()
        .asString()
        .contains(
            "uses the glue catalog",
            "--secret-env AWS_ACCESS_KEY_ID=floe-s3/access-key-id --secret-env"
                + " AWS_SECRET_ACCESS_KEY=floe-s3/secret-access-key");

    ClusterSettings ownKeys =
        new ClusterSettings(
            CLUSTER.image(),
            CLUSTER.imagePullPolicy(),
            CLUSTER.namespace(),
            CLUSTER.serviceAccount(),
            CLUSTER.flinkVersion(),
            CLUSTER.jobManager(),
            CLUSTER.taskManager(),
            CLUSTER.taskSlots(),
            List.of(
                SecretEnv.parse("FLOE_CATALOG_S3__ACCESS_KEY_ID=aws/KEY_ID"),
                SecretEnv.parse("FLOE_CATALOG_S3__SECRET_ACCESS_KEY=aws-secret/SECRET")),
            CLUSTER.flinkConfiguration());
    assertThat(
            K8sRender.slice(job, "2026-10-03", RenderOptions.application(ownKeys, VERSION))
                .warnings())
        .singleElement()
        .asString()
        .contains(
            "--secret-env AWS_ACCESS_KEY_ID=aws/KEY_ID --secret-env"
                + " AWS_SECRET_ACCESS_KEY=aws-secret/SECRET");

    ClusterSettings withAwsKeys =
        CLUSTER.withSecretEnv(
            List.of(
                SecretEnv.parse("AWS_ACCESS_KEY_ID=floe-s3/access-key-id"),
                SecretEnv.parse("AWS_SECRET_ACCESS_KEY=floe-s3/secret-access-key")));
    assertThat(
            K8sRender.slice(job, "2026-10-03", RenderOptions.application(withAwsKeys, VERSION))
                .warnings())
        .isEmpty();
  }

  @Test
  void badInputIsRefusedNamingTheManifestAndTheValue() throws IOException {
    Path job = write("jobs/daily.yaml", DAILY);
    assertThatThrownBy(() -> K8sRender.slice(job, null, OPTIONS))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot render " + job + ": missing --slice");
    assertThatThrownBy(() -> K8sRender.slice(job, "2026-02-30", OPTIONS))
        .hasMessageStartingWith("Cannot render " + job + ": cannot parse --slice '2026-02-30'");
    assertThatThrownBy(() -> K8sRender.slice(project.resolve("jobs/nope.yaml"), "2026", OPTIONS))
        .hasMessageStartingWith("Cannot render " + project.resolve("jobs/nope.yaml"))
        .hasMessageContaining("no such file");
    Path merge = Resources.examples().resolve("jobs/dim_customer_merge.yaml");
    assertThatThrownBy(() -> K8sRender.slice(merge, "2026-10-03", OPTIONS))
        .hasMessageContaining("the manifest has no slice");
    Path backfill = Resources.examples().resolve("backfills/orders_january.yaml");
    assertThatThrownBy(() -> K8sRender.slice(backfill, "2026-10-03", OPTIONS))
        .hasMessageContaining("floe k8s render-backfill");
    Path spaced = write("backfills/q1 close.yaml", Files.readString(backfill));
    assertThatThrownBy(() -> K8sRender.slice(spaced, "2026-10-03", OPTIONS))
        .hasMessageEndingWith("use `floe k8s render-backfill '" + spaced + "'`");
    // The hint names the whole path, not the one a message shows cut after 100 characters.
    Path deep = write("backfills/" + "q".repeat(120) + ".yaml", Files.readString(backfill));
    assertThatThrownBy(() -> K8sRender.slice(deep, "2026-10-03", OPTIONS))
        .hasMessageEndingWith("use `floe k8s render-backfill " + deep + "`");
    Path broken = write("jobs/broken.yaml", DAILY + "colour: blue\n");
    assertThatThrownBy(() -> K8sRender.slice(broken, "2026-10-03", OPTIONS))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot render " + broken)
        .hasMessageContaining("colour");
  }

  @Test
  void aJobWithoutASliceRunsOnTheWholeTable() {
    Path merge = Resources.examples().resolve("jobs/dim_customer_merge.yaml");

    Map<String, Object> d = single(K8sRender.slice(merge, null, OPTIONS));

    assertThat((List<Object>) at(d, "spec.job.args"))
        .containsExactly(
            "run", "/opt/floe/jobs/dim_customer_merge.yaml", "--config", "/opt/floe/floe.yaml");
    assertThat((Map<String, Object>) at(d, "metadata.labels"))
        .containsEntry("floe.dev/slice", "whole-table");
    assertThat((Map<String, Object>) at(d, "metadata.annotations"))
        .containsEntry("floe.dev/slice", "*");
  }

  @Test
  void parallelismComesFromTheFlagThenTheManifestAndSizesTheTaskManager() throws IOException {
    Path job = write("jobs/daily.yaml", DAILY + "parallelism: 3\n");

    Map<String, Object> fromManifest = single(K8sRender.slice(job, "2026-10-03", OPTIONS));
    Map<String, Object> fromFlag =
        single(K8sRender.slice(job, "2026-10-03", OPTIONS.withParallelism(4)));

    assertThat((Object) at(fromManifest, "spec.job.parallelism")).isEqualTo(3);
    assertThat((List<Object>) at(fromManifest, "spec.job.args")).doesNotContain("--parallelism");
    assertThat((Object) at(fromFlag, "spec.job.parallelism")).isEqualTo(4);
    // The flag must win inside `floe run` too, where the manifest's would otherwise win.
    assertThat((List<Object>) at(fromFlag, "spec.job.args")).endsWith("--parallelism", "4");
    assertThat((Map<String, Object>) at(fromFlag, "spec.flinkConfiguration"))
        .containsEntry("taskmanager.numberOfTaskSlots", "4");
  }

  @Test
  void aBackfillManifestBecomesOneResourcePerSliceWithTheConcurrencyNote() {
    Path manifest = Resources.examples().resolve("backfills/orders_january.yaml");

    Rendered rendered = K8sRender.backfill(BackfillRender.of(manifest), OPTIONS);

    List<Map<String, Object>> docs = Resources.parse(rendered.yaml());
    assertThat(docs).hasSize(31);
    assertThat(docs.stream().map(d -> (String) at(d, "metadata.name")).distinct()).hasSize(31);
    assertThat((List<Object>) at(docs.get(0), "spec.job.args")).contains("--slice", "2026-01-01");
    assertThat((List<Object>) at(docs.get(30), "spec.job.args")).contains("--slice", "2026-01-31");
    assertThat(docs)
        .allSatisfy(
            d ->
                assertThat((Map<String, Object>) at(d, "metadata.labels"))
                    .containsEntry("floe.dev/backfill-id", "orders_january_rebuild"));
    assertThat(rendered.yaml())
        .startsWith(
            "# Backfill orders_january_rebuild:\n"
                + "#   fact_orders_daily into sales.fact_orders, 31 slices from 2026-01-01 to"
                + " 2026-02-01 (exclusive)")
        .contains("Apply at most 2 at a time", "optimistic concurrency", K8sRender.RUNBOOK);
    // Each slice's run key is the one `floe run --slice` computes: a single render agrees. Its
    // name does not: the backfill's spec differs (--backfill-id), so applying one must not patch
    // the other.
    Map<String, Object> single =
        single(K8sRender.slice(Resources.dailyJob(), "2026-01-15", OPTIONS));
    assertThat(((Map<String, Object>) at(docs.get(14), "metadata.labels")).get("floe.dev/run-key"))
        .isNotNull()
        .isEqualTo(((Map<String, Object>) at(single, "metadata.labels")).get("floe.dev/run-key"));
    assertThat((Object) at(docs.get(14), "metadata.name"))
        .isNotEqualTo(at(single, "metadata.name"));
  }

  @Test
  void flagsWinOverTheBackfillManifestAndAJobManifestTakesARange() {
    Path manifest = Resources.examples().resolve("backfills/orders_january.yaml");

    Rendered flags =
        K8sRender.backfill(
            new BackfillRender(manifest, "2026-01-10", "2026-01-13", 3, "q1-fix", null), OPTIONS);
    Rendered job =
        K8sRender.backfill(BackfillRender.of(Resources.dailyJob(), "2026-10", "2026-12"), OPTIONS);

    assertThat(flags.documents()).hasSize(3);
    assertThat(flags.yaml()).contains("Apply at most 3 at a time", "floe.dev/backfill-id: q1-fix");
    assertThat(Resources.parse(job.yaml()))
        .extracting(d -> ((List<Object>) at(d, "spec.job.args")).get(3))
        .containsExactly("2026-10", "2026-11");
    assertThat(job.yaml()).contains("Apply at most 1 at a time");
  }

  @Test
  void rangeFlagsWinOverABackfillManifestThatLacksOrReversesItsRange() throws IOException {
    Path job = Resources.dailyJob().toAbsolutePath();
    Path reversed = project.resolve("reversed.yaml");
    Files.writeString(reversed, "job: " + job + "\nfrom: 2026-03-01\nto: 2026-02-01\n");
    Path noTo = project.resolve("no-to.yaml");
    Files.writeString(noTo, "job: " + job + "\nfrom: 2026-02-01\n");

    Rendered fixed =
        K8sRender.backfill(
            new BackfillRender(reversed, "2026-02-01", "2026-02-04", null, null, null), OPTIONS);
    Rendered completed =
        K8sRender.backfill(new BackfillRender(noTo, null, "2026-02-03", null, null, null), OPTIONS);

    assertThat(fixed.documents()).hasSize(3);
    assertThat(completed.documents()).hasSize(2);
    assertThatThrownBy(() -> K8sRender.backfill(BackfillRender.of(reversed), OPTIONS))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("is not after from");
  }

  @Test
  void anEmptyRangeWithOneEndFromAFlagAndTheOtherFromTheManifestNamesWhereEachEndCameFrom()
      throws IOException {
    Path job = Resources.dailyJob().toAbsolutePath();
    Path toOnly = project.resolve("to-only.yaml");
    Files.writeString(toOnly, "job: " + job + "\nto: 2026-10-01\n");
    Path fromOnly = project.resolve("from-only.yaml");
    Files.writeString(fromOnly, "job: " + job + "\nfrom: 2026-10-09\n");

    assertThatThrownBy(
            () ->
                K8sRender.backfill(
                    new BackfillRender(toOnly, "2026-10-09", null, null, null, null), OPTIONS))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot render "
                + toOnly
                + ": cannot backfill sales.fact_orders from 2026-10-09 to 2026-10-01: the range is"
                + " empty; its end ("
                + toOnly
                + ": to: 2026-10-01) is exclusive and must come after its start (--from"
                + " 2026-10-09)");
    assertThatThrownBy(
            () ->
                K8sRender.backfill(
                    new BackfillRender(fromOnly, null, "2026-10-01", null, null, null), OPTIONS))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot render "
                + fromOnly
                + ": cannot backfill sales.fact_orders from 2026-10-09 to 2026-10-01: the range is"
                + " empty; its end (--to 2026-10-01) is exclusive and must come after its start ("
                + fromOnly
                + ": from: 2026-10-09)");
  }

  @Test
  void aBackfillIsRefusedWhenItCannotRunAsOneFloeRunPerSlice() throws IOException {
    Path merge = Resources.examples().resolve("jobs/dim_customer_merge.yaml");
    assertThatThrownBy(
            () -> K8sRender.backfill(BackfillRender.of(merge, "2026-01", "2026-02"), OPTIONS))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("no slices to backfill");
    assertThatThrownBy(() -> K8sRender.backfill(BackfillRender.of(Resources.dailyJob()), OPTIONS))
        .hasMessageContaining("--from SLICE and --to SLICE");
    assertThatThrownBy(
            () ->
                K8sRender.backfill(
                    BackfillRender.of(Resources.dailyJob(), "2026-01-05", "2026-01-05"), OPTIONS))
        .hasMessageStartingWith("Cannot render " + Resources.dailyJob())
        .hasMessageContaining("the range is empty");

    Path withEffects =
        write(
            "jobs/notify.yaml",
            DAILY
                + "effects:\n  - name: notify_bi\n    webhook: {url: \"https://bi.example/h\"}\n");
    // A slice run with --backfill-id keeps the job's effects off (recorded as skipped), as a
    // slice of `floe backfill` does: rendered without --allow-effects, sent only with it.
    Rendered effectsOff =
        K8sRender.backfill(BackfillRender.of(withEffects, "2026-01", "2026-03"), OPTIONS);
    Rendered effectsOn =
        K8sRender.backfill(
            new BackfillRender(withEffects, "2026-01", "2026-03", null, null, true), OPTIONS);
    assertThat(Resources.parse(effectsOff.yaml()))
        .hasSize(2)
        .allSatisfy(
            d ->
                assertThat((List<Object>) at(d, "spec.job.args"))
                    .contains("--backfill-id")
                    .doesNotContain("--allow-effects"));
    assertThat(Resources.parse(effectsOn.yaml()))
        .hasSize(2)
        .allSatisfy(
            d ->
                assertThat((List<Object>) at(d, "spec.job.args"))
                    .contains("--backfill-id", "--allow-effects"));

    write("jobs/daily.yaml", DAILY);
    Path pinned =
        write(
            "backfills/pinned.yaml",
            "job: ../jobs/daily.yaml\nfrom: 2026-01-01\nto: 2026-01-03\nexpect_version: 9.9.9\n");
    assertThatThrownBy(() -> K8sRender.backfill(BackfillRender.of(pinned), OPTIONS))
        .hasMessageContaining("pinned to code version 9.9.9")
        .hasMessageContaining("--code-version 9.9.9");
    assertThat(
            K8sRender.backfill(
                    BackfillRender.of(pinned), RenderOptions.application(CLUSTER, "9.9.9"))
                .documents())
        .hasSize(2);
  }

  @Test
  void aSessionClusterIsADeploymentWithoutAJobWhosePodsCarryTheImageAndTheSecrets() {
    Map<String, Object> d = single(K8sRender.sessionCluster("floe-session", CLUSTER));

    assertThat(d.get("kind")).isEqualTo("FlinkDeployment");
    assertThat((Map<String, Object>) at(d, "spec")).doesNotContainKey("job");
    assertThat((Object) at(d, "spec.image")).isEqualTo("floe:0.1.0-test");
    assertThat((Map<String, Object>) at(d, "spec.flinkConfiguration"))
        .containsEntry("taskmanager.numberOfTaskSlots", "2");
    assertThat(secretRefs(d)).hasSize(2);
    assertThatThrownBy(() -> K8sRender.sessionCluster("1session", CLUSTER))
        .hasMessageContaining("'1session'");
  }

  @Test
  void credentialsOnlyEverComeFromSecretsNeverAsValues() {
    ClusterSettings more =
        CLUSTER.withSecretEnv(
            List.of(SecretEnv.parse("FLOE_CATALOG_JDBC__PASSWORD=floe-db/password")));

    Map<String, Object> d =
        single(
            K8sRender.slice(
                Resources.dailyJob(), "2026-10-03", OPTIONS.withProjectDir(Resources.examples())));
    Map<String, Object> withDb =
        single(
            K8sRender.slice(
                Resources.dailyJob(),
                "2026-10-03",
                new RenderOptions(null, more, Submission.application(), 0, VERSION)));

    assertThat(secretRefs(withDb)).contains("FLOE_CATALOG_JDBC__PASSWORD=floe-db/password");
    for (Map<String, Object> resource : List.of(d, withDb)) {
      List<Map<String, Object>> env = env(resource);
      assertThat(env).allSatisfy(e -> assertThat(e).containsOnlyKeys("name", "valueFrom"));
    }
    assertThatThrownBy(() -> CLUSTER.withFlinkConfiguration(Map.of("s3.secret-access-key", "x")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("looks like a credential")
        .hasMessageNotContaining(": x");
    assertThatThrownBy(() -> SecretEnv.parse("NO_SLASH=floe-db"))
        .hasMessageContaining("expected ENV=SECRET/KEY");
    assertThatThrownBy(
            () ->
                CLUSTER.withSecretEnv(
                    List.of(SecretEnv.parse("FLOE_CATALOG_S3__ACCESS_KEY_ID=other/key"))))
        .hasMessageContaining("FLOE_CATALOG_S3__ACCESS_KEY_ID is set twice");
  }

  @Test
  void jsonHoldsTheSameResourcesAsYaml() {
    Rendered one = K8sRender.slice(Resources.dailyJob(), "2026-10-03", OPTIONS);
    Rendered many =
        K8sRender.backfill(BackfillRender.of(Resources.dailyJob(), "2026-10", "2026-12"), OPTIONS);

    // JSON is YAML 1.2; SnakeYAML reads it too.
    assertThat(Resources.parse(one.json())).isEqualTo(Resources.parse(one.yaml()));
    Map<String, Object> list = Resources.parse(many.json()).get(0);
    assertThat(list).containsEntry("kind", "List");
    assertThat((List<?>) list.get("items")).isEqualTo(Resources.parse(many.yaml()));
  }

  @Test
  void aCommentLineCanNeverEndItselfAndStartAKey() {
    K8sDocument document =
        new K8sDocument(List.of("a\nfoo: bar", "b\rc\u2028d\u001b"), Map.of("kind", "X"));

    String yaml = new Rendered(List.of("h\nkey: 1"), List.of(document), List.of()).yaml();

    assertThat(yaml)
        .isEqualTo("# h\\nkey: 1\n---\n# a\\nfoo: bar\n# b\\rc\\u2028d\\u001b\nkind: X\n");
    assertThat(Resources.parse(yaml)).containsExactly(Map.of("kind", "X"));
  }

  @Test
  void aControlCharacterInTheJarUriImageOrCodeVersionIsRefusedOnOneLine() {
    assertThatThrownBy(() -> Submission.session("s", "https://x/a.jar\nfoo: bar"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "Cannot render a job for session cluster s with --jar-uri https://x/a.jar\\nfoo: bar:"
                + " a URI holds no spaces, line breaks or other control characters");
    assertThatThrownBy(() -> ClusterSettings.defaults("floe:1\nfoo: bar"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot render with --image floe:1\\nfoo: bar: ");
    assertThatThrownBy(() -> RenderOptions.application(CLUSTER, "1.0\nfoo: bar"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot render with --code-version 1.0\\nfoo: bar: ");
  }

  @Test
  void aBackfillsSliceIsNamedApartFromThePlainRunOfTheSliceAndFromOtherBackfills()
      throws IOException {
    Path job = write("jobs/daily.yaml", DAILY);
    String plain = name(K8sRender.slice(job, "2026-10-03", OPTIONS));
    BackfillRender a = new BackfillRender(job, "2026-10-03", "2026-10-04", null, "a", false);

    String first = name(K8sRender.backfill(a, OPTIONS));

    assertThat(first).isNotEqualTo(plain).startsWith("floe-daily-2026-10-03-");
    assertThat(K8sRender.backfill(a, OPTIONS).yaml())
        .isEqualTo(K8sRender.backfill(a, OPTIONS).yaml());
    assertThat(
            name(
                K8sRender.backfill(
                    new BackfillRender(job, "2026-10-03", "2026-10-04", null, "b", false),
                    OPTIONS)))
        .isNotEqualTo(first)
        .isNotEqualTo(plain);
    assertThat(
            name(
                K8sRender.backfill(
                    new BackfillRender(job, "2026-10-03", "2026-10-04", null, "a", true), OPTIONS)))
        .isNotEqualTo(first)
        .isNotEqualTo(plain);
  }

  private static Map<String, Object> single(Rendered rendered) {
    List<Map<String, Object>> docs = Resources.parse(rendered.yaml());
    assertThat(docs).hasSize(1);
    return docs.get(0);
  }

  private static String name(Rendered rendered) {
    return at(single(rendered), "metadata.name");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> env(Map<String, Object> resource) {
    List<Map<String, Object>> containers = at(resource, "spec.podTemplate.spec.containers");
    assertThat(containers)
        .singleElement()
        .extracting(c -> c.get("name"))
        .isEqualTo("flink-main-container");
    return (List<Map<String, Object>>) containers.get(0).get("env");
  }

  private static List<String> secretRefs(Map<String, Object> resource) {
    return env(resource).stream()
        .map(
            e ->
                e.get("name")
                    + "="
                    + at(e, "valueFrom.secretKeyRef.name")
                    + "/"
                    + at(e, "valueFrom.secretKeyRef.key"))
        .collect(Collectors.toList());
  }

  private Path write(String relative, String text) throws IOException {
    Path file = project.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    Files.createDirectories(project.resolve("jobs"));
    return file;
  }

  @Test
  void aCommentEscapesEveryCharacterAYamlReaderRefusesNotOnlyLineBreaks() {
    assertThat(K8sYaml.commentLine("a\nb\uFFFEc\uFEFFd\u00e9"))
        .isEqualTo("# a\\nb\\ufffec\\ufeffd\u00e9");
  }
}
