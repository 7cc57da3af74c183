package dev.floe.catalog.k8s;

import dev.floe.catalog.backfill.BackfillId;
import dev.floe.catalog.backfill.BackfillManifestKeys;
import dev.floe.catalog.backfill.BackfillSpec;
import dev.floe.catalog.backfill.BackfillSpecParser;
import dev.floe.catalog.backfill.RangeEnd;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.CatalogOptions;
import dev.floe.catalog.deploy.ImageLayout;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.ShellWord;
import dev.floe.catalog.error.Shown;
import dev.floe.catalog.job.EffectSpec;
import dev.floe.catalog.job.JobSpec;
import dev.floe.catalog.job.JobSpecParser;
import dev.floe.catalog.lineage.RunKey;
import dev.floe.catalog.manifest.Manifests;
import dev.floe.catalog.slice.Scope;
import dev.floe.catalog.slice.Slice;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Renders Flink Kubernetes Operator resources that run Floe: one slice ({@link #slice}), every
 * slice of a backfill ({@link #backfill}), or a session cluster for session jobs ({@link
 * #sessionCluster}). Reads only the manifests: no catalog, no cluster. Each resource runs {@code
 * floe run MANIFEST --slice D} inside the cluster and is named from the run key that run computes.
 */
public final class K8sRender {
  /** Where the runbook lives; rendered comments point to it. */
  public static final String RUNBOOK = "docs/deploy/kubernetes.md";

  private K8sRender() {}

  /**
   * One run of a job manifest: a FlinkDeployment (application cluster), or a FlinkSessionJob when
   * {@code options.submission()} names a session cluster.
   *
   * @param sliceValue the {@code --slice} value; null for a manifest without a slice (the run owns
   *     the whole table)
   */
  public static Rendered slice(Path manifest, String sliceValue, RenderOptions options) {
    String what = Shown.value(manifest.toString());
    JobSpec job = loadJob(manifest, what);
    ProjectLayout project = project(manifest, options, what);
    refusing(what, () -> project.inImage(manifest));
    String inProject = project.relative(manifest);
    Slice slice;
    if (job.hasSlice()) {
      InvalidInputException.check(
          sliceValue != null && !sliceValue.isBlank(),
          "Cannot render %s: missing --slice (the job is cut into slices on %s; pass the one to"
              + " run, e.g. --slice 2026-10-03)",
          what,
          job.sliceColumn());
      slice = refusing(what, () -> SliceValues.of(job.sliceColumn(), sliceValue));
    } else {
      InvalidInputException.check(
          sliceValue == null,
          "Cannot render %s with --slice %s: the manifest has no slice, so the run owns the whole"
              + " table (mode %s); drop --slice",
          what,
          Shown.value(sliceValue),
          job.mode().text());
      slice = null;
    }
    SliceRun run = run(job, inProject, slice, null, false, options);
    return new Rendered(
        List.of(),
        List.of(document(run, options)),
        warnings(project, options.cluster()),
        inputs(project, new Rendered.Input("the manifest", manifest)));
  }

  /**
   * Every slice of a backfill, one resource each, in slice order. Unlike {@code floe backfill} the
   * resources do not pace themselves: the header tells how many to apply at once.
   */
  public static Rendered backfill(BackfillRender request, RenderOptions options) {
    String what = Shown.value(request.manifest().toString());
    boolean isBackfillManifest =
        refusing(
            what,
            () -> BackfillSpecParser.isBackfillManifest(Manifests.load(request.manifest()).root()));
    BackfillSpec file =
        isBackfillManifest
            ? refusing(
                what,
                () ->
                    BackfillSpecParser.load(
                        request.manifest(),
                        BackfillSpecParser.givenByFlags(request.from(), request.to(), null)))
            : null;
    Path jobManifest = file == null ? request.manifest() : file.job();
    String jobWhat = Shown.value(jobManifest.toString());
    JobSpec job = loadJob(jobManifest, jobWhat);
    RangeEnd start = RangeEnd.of("from", request.from(), file);
    RangeEnd end = RangeEnd.of("to", request.to(), file);
    String from = start.value();
    String to = end.value();
    InvalidInputException.check(
        from != null && to != null,
        "Cannot render the backfill of %s: give the range, --from SLICE and --to SLICE (or a"
            + " backfill manifest with from: and to:)",
        what);
    InvalidInputException.check(
        job.hasSlice(),
        "Cannot render the backfill of %s: mode %s without slice: {column: ...} owns the whole"
            + " table, so there are no slices to backfill; render one run with `floe k8s render`",
        Shown.value(job.source()),
        job.mode().text());
    String expectVersion = file == null ? null : file.expectVersion();
    InvalidInputException.check(
        expectVersion == null || expectVersion.equals(options.codeVersion()),
        "Cannot render the backfill of %s: it is pinned to code version %s (expect_version) but"
            + " these resources would run code version %s; build the image from the pinned"
            + " version and pass --code-version %s",
        what,
        expectVersion,
        options.codeVersion(),
        expectVersion);
    boolean allowEffects =
        request.allowEffects() != null
            ? request.allowEffects()
            : file != null && Boolean.TRUE.equals(file.allowEffects());
    // Every slice runs as `floe run --backfill-id`, which keeps the job's effects off (recorded
    // as skipped) unless --allow-effects is rendered with it, as for a slice of `floe backfill`.
    int maxConcurrency =
        request.maxConcurrency() != null
            ? request.maxConcurrency()
            : file != null && file.maxConcurrency() != null ? file.maxConcurrency() : 1;
    InvalidInputException.check(
        maxConcurrency >= 1 && maxConcurrency <= BackfillManifestKeys.MOST_CONCURRENCY,
        "Cannot render the backfill of %s with --max-concurrency %d: give 1 to %d",
        what,
        maxConcurrency,
        BackfillManifestKeys.MOST_CONCURRENCY);
    String backfillId =
        request.backfillId() != null
            ? request.backfillId()
            : file != null && file.id() != null
                ? file.id()
                : BackfillId.derive(
                    job.job(), job.target(), from, to, job.text(), options.codeVersion());
    BackfillId.requireValid(backfillId, request.backfillId() != null ? "--backfill-id" : what);

    ProjectLayout project = project(jobManifest, options, jobWhat);
    refusing(jobWhat, () -> project.inImage(jobManifest));
    String inProject = project.relative(jobManifest);
    List<Slice> slices =
        refusing(what, () -> SliceValues.range(job.target(), job.sliceColumn(), start, end));
    List<K8sDocument> documents = new ArrayList<>();
    for (Slice slice : slices) {
      documents.add(
          document(run(job, inProject, slice, backfillId, allowEffects, options), options));
    }
    List<String> header =
        backfillHeader(job, backfillId, from, to, slices, maxConcurrency, options.submission());
    List<Rendered.Input> read = new ArrayList<>();
    read.add(
        new Rendered.Input(
            isBackfillManifest ? "the backfill manifest" : "the manifest", request.manifest()));
    if (file != null) {
      read.add(new Rendered.Input("the job manifest", jobManifest));
    }
    return new Rendered(
        header,
        documents,
        warnings(project, options.cluster()),
        inputs(project, read.toArray(Rendered.Input[]::new)));
  }

  /**
   * A session cluster named {@code name}: a FlinkDeployment without a job, its pods running the
   * Floe image with the credentials, for FlinkSessionJobs rendered with {@code --session-cluster}.
   */
  public static Rendered sessionCluster(String name, ClusterSettings cluster) {
    InvalidInputException.check(
        K8sNames.isOperatorName(name),
        "Cannot render session cluster '%s': the operator accepts only names of at most %d lower"
            + " case letters, digits and '-', starting with a letter",
        Shown.value(name),
        K8sNames.MAX_NAME_LENGTH);
    Map<String, Object> body = FlinkResources.sessionCluster(name, cluster);
    List<String> comment = new ArrayList<>();
    comment.add("A Flink session cluster for Floe's FlinkSessionJobs (`floe k8s render ...");
    comment.add(
        "--session-cluster "
            + ShellWord.of(name)
            + " --jar-uri URI`). A session job's `floe run` runs in");
    comment.add(
        "this cluster's JobManager, so its pods hold the project ("
            + ImageLayout.PROJECT_DIR
            + " in");
    comment.add("image " + cluster.image() + ") and the catalog credentials.");
    comment.addAll(secretLines(cluster));
    comment.add("Runbook: " + RUNBOOK);
    return new Rendered(List.of(), List.of(new K8sDocument(comment, body)), List.of());
  }

  private static SliceRun run(
      JobSpec job,
      String inProject,
      Slice slice,
      String backfillId,
      boolean allowEffects,
      RenderOptions options) {
    InvalidInputException.check(
        !options.submission().isSession()
            || job.effects().isEmpty()
            || (backfillId != null && !allowEffects),
        "Cannot render %s as a session job: its effects (%s) are sent by `floe run` once its job"
            + " has committed, and Flink's REST submission of a session job does not wait for the"
            + " job, so they would never be sent; render it as a FlinkDeployment (drop"
            + " --session-cluster)",
        Shown.value(job.source()),
        String.join(", ", job.effects().stream().map(EffectSpec::name).toList()));
    String label = slice == null ? Scope.WHOLE_TABLE_LABEL : slice.label();
    // Exactly the inputs `floe run` hashes (SliceJob): job, target, slice label, manifest text and
    // code version, so the label on the resource finds the snapshot the run commits.
    String runKey = RunKey.of(job.job(), job.target(), label, job.text(), options.codeVersion());
    int parallelism =
        options.parallelism() > 0
            ? options.parallelism()
            : job.parallelism() > 0 ? job.parallelism() : RenderOptions.DEFAULT_PARALLELISM;
    return new SliceRun(
        job.job(),
        job.target(),
        inProject,
        slice == null ? null : slice.value(),
        label,
        runKey,
        options.codeVersion(),
        backfillId,
        parallelism,
        options.parallelism() > 0,
        allowEffects);
  }

  private static K8sDocument document(SliceRun run, RenderOptions options) {
    Submission submission = options.submission();
    ClusterSettings cluster = options.cluster();
    List<String> comment = new ArrayList<>();
    String kind;
    if (submission.isSession()) {
      kind = "flinksessionjob";
      comment.add(run.commandLine());
      comment.add(
          "as a job of the session cluster " + submission.sessionCluster() + ", its jar from");
      comment.add(
          submission.jarUri() + ". The session cluster's pods must run the Floe image (the");
      comment.add("project at " + ImageLayout.PROJECT_DIR + ") and carry the catalog credentials:");
      comment.add(
          "render it with `floe k8s render-session-cluster "
              + ShellWord.of(submission.sessionCluster())
              + "`.");
      comment.add("Flink's REST submission does not wait for the job: past the manifest's timeout");
      comment.add("its commit is refused, but the job is not cancelled (a FlinkDeployment's is).");
    } else {
      kind = "flinkdeployment";
      comment.add(run.commandLine());
      comment.add("as its own Flink application cluster, image " + cluster.image() + ".");
      comment.addAll(secretLines(cluster));
    }
    comment.add("Named from the run key (job, target, slice, manifest text, code version");
    if (run.backfillId() == null) {
      comment.add(
          run.codeVersion() + "): the same slice always gets this name, so applying it again");
      comment.add("changes nothing; to rerun the slice, delete the resource first. Outcome:");
    } else {
      comment.add(
          run.codeVersion() + "), the backfill id and whether it sends effects: this slice of");
      comment.add("this backfill always gets this name, apart from `floe k8s render`'s and other");
      comment.add("backfills', so applying it again changes nothing; to rerun the slice, delete");
      comment.add("the resource first. Outcome:");
    }
    comment.add(
        "  kubectl get " + kind + " " + run.name() + " -o jsonpath='{.status.jobStatus.state}'");
    Map<String, Object> body =
        submission.isSession()
            ? FlinkResources.sessionJob(run, cluster, submission)
            : FlinkResources.deployment(run, cluster, submission);
    return new K8sDocument(comment, body);
  }

  private static List<String> backfillHeader(
      JobSpec job,
      String backfillId,
      String from,
      String to,
      List<Slice> slices,
      int maxConcurrency,
      Submission submission) {
    String kind = submission.isSession() ? "flinksessionjob" : "flinkdeployment";
    String range = String.format("%d slices from %s to %s (exclusive)", slices.size(), from, to);
    return List.of(
        String.format("Backfill %s:", backfillId),
        String.format("  %s into %s, %s, one resource each.", job.job(), job.target(), range),
        String.format(
            "Each resource is an independent Flink job. Apply at most %d at a time (the backfill's",
            maxConcurrency),
        "max concurrency) and wait for FINISHED before the next batch: commits to one table from",
        "separate clusters race Iceberg's optimistic concurrency; Floe retries a conflicting commit,",
        "but parallel commits to one table waste work. A batch script is in " + RUNBOOK + ".",
        "Validate one sample slice first (`floe verify JOB --slice D`, or apply one and check it).",
        "Each slice is a `floe run --backfill-id`: its commit records floe.backfill-id, as one",
        "of `floe backfill` does, so either can finish the other's backfill. The resources:",
        String.format(
            "  kubectl get %s -l %s=%s",
            kind, FlinkResources.LABEL_BACKFILL, K8sNames.labelValue(backfillId)));
  }

  private static List<String> secretLines(ClusterSettings cluster) {
    if (cluster.secretEnv().isEmpty()) {
      return List.of(
          "No variables from Secrets: the catalog needs no credentials, or the image has them.");
    }
    List<String> lines = new ArrayList<>();
    lines.add("Credentials come from Secrets; no secret value is written here:");
    for (SecretEnv env : cluster.secretEnv()) {
      lines.add("  " + env.env() + " <- Secret " + env.secret() + ", key " + env.key());
    }
    return lines;
  }

  /** {@code read}, and the project's floe.yaml when {@link #warnings} reads it. */
  private static List<Rendered.Input> inputs(ProjectLayout project, Rendered.Input... read) {
    List<Rendered.Input> inputs = new ArrayList<>(List.of(read));
    if (project.hasConfig()) {
      inputs.add(
          new Rendered.Input(
              "the project's catalog configuration",
              project.dir().resolve(CatalogConfigLoader.CONFIG_FILE)));
    }
    return inputs;
  }

  private static List<String> warnings(ProjectLayout project, ClusterSettings cluster) {
    List<String> warnings = new ArrayList<>();
    if (!project.hasConfig()) {
      warnings.add(
          String.format(
              "project %s has no %s: the run reads --config %s, which then must come from the"
                  + " image build (docker/Dockerfile puts docker/floe.yaml, the docker-compose"
                  + " catalog, there); give the project its own %s for your catalog",
              project.dir(),
              CatalogConfigLoader.CONFIG_FILE,
              ImageLayout.CONFIG_FILE,
              CatalogConfigLoader.CONFIG_FILE));
    } else {
      // Read as the run will read it (a floe.yaml the run would refuse fails here, exit 2).
      Path config = project.dir().resolve(CatalogConfigLoader.CONFIG_FILE);
      CatalogConfig catalog =
          CatalogConfigLoader.load(config, project.dir().resolve(".floe"), Map.of(), Map.of());
      if (catalog.type().equals(CatalogOptions.EMBEDDED)) {
        warnings.add(
            String.format(
                "%s uses the embedded catalog: every pod would get its own empty SQLite catalog"
                    + " inside the container, and commits would vanish with it; use a shared"
                    + " catalog (jdbc, rest) for Kubernetes",
                config));
      }
      if (catalog.type().equals(CatalogOptions.GLUE)) {
        glueCredentials(config, cluster).ifPresent(warnings::add);
      }
    }
    return warnings;
  }

  /**
   * The S3 Secret's variables ({@code FLOE_CATALOG_S3__*}) reach S3FileIO only; Iceberg's Glue
   * client reads the AWS SDK's chain (AWS_* variables, a profile, a role bound to the service
   * account). A render that passes the S3 Secret and no AWS_* variable leaves the Glue client
   * without credentials in a pod that has no role: say how to pass the same keys to it.
   */
  private static Optional<String> glueCredentials(Path config, ClusterSettings cluster) {
    Optional<SecretEnv> keyId = secretOf(cluster, SecretEnv.ACCESS_KEY_ID_ENV);
    Optional<SecretEnv> secretKey = secretOf(cluster, SecretEnv.SECRET_ACCESS_KEY_ENV);
    boolean awsKeys = cluster.secretEnv().stream().anyMatch(env -> env.env().startsWith("AWS_"));
    if (keyId.isEmpty() || secretKey.isEmpty() || awsKeys) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "%s uses the glue catalog, whose client reads the AWS SDK's credentials (AWS_*"
                + " variables or a role bound to the service account), not the S3 Secret's"
                + " FLOE_CATALOG_S3__* variables; to give it the same keys add --secret-env"
                + " AWS_ACCESS_KEY_ID=%s/%s --secret-env AWS_SECRET_ACCESS_KEY=%s/%s, or bind a"
                + " role",
            config,
            keyId.get().secret(),
            keyId.get().key(),
            secretKey.get().secret(),
            secretKey.get().key()));
  }

  private static Optional<SecretEnv> secretOf(ClusterSettings cluster, String env) {
    return cluster.secretEnv().stream().filter(e -> e.env().equals(env)).findFirst();
  }

  private static JobSpec loadJob(Path manifest, String what) {
    boolean isBackfill =
        refusing(
            what, () -> BackfillSpecParser.isBackfillManifest(Manifests.load(manifest).root()));
    InvalidInputException.check(
        !isBackfill,
        "Cannot render %s: it is a backfill manifest; use `floe k8s render-backfill %s`",
        what,
        ShellWord.of(manifest.toString()));
    return refusing(what, () -> JobSpecParser.load(manifest));
  }

  private static ProjectLayout project(Path manifest, RenderOptions options, String what) {
    return refusing(
        what,
        () ->
            options.projectDir() != null
                ? ProjectLayout.of(options.projectDir())
                : ProjectLayout.detect(manifest));
  }

  /** {@code text} with its line breaks and other control characters escaped, not cut. */
  private static String oneLine(String text) {
    return text.isEmpty() ? text : K8sYaml.commentLine(text).substring(2);
  }

  /** Runs {@code action}; a refusal from below is reworded as a refusal to render {@code what}. */
  private static <T> T refusing(String what, Supplier<T> action) {
    try {
      return action.get();
    } catch (InvalidInputException e) {
      String message = e.getMessage();
      // A message from below may quote a value (a path) raw: the refusal stays one line.
      if (message.startsWith("Cannot render")) {
        String oneLine = oneLine(message);
        throw oneLine.equals(message) ? e : new InvalidInputException(oneLine, e);
      }
      String reason =
          oneLine(message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1));
      throw new InvalidInputException("Cannot render " + what + ": " + reason, e);
    }
  }
}
