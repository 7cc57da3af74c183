package dev.floe.it.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.testing.WebhookServer;
import dev.floe.flink.cli.FloeMain;
import dev.floe.it.BinFloe;
import dev.floe.it.catalogs.FactOrders;
import dev.floe.it.catalogs.InProcessFloe;
import dev.floe.it.servers.FreePort;
import dev.floe.it.servers.PostgresServer;
import dev.floe.it.servers.RestCatalogServer;
import dev.floe.it.servers.S3Server;
import dev.floe.it.servers.S3Servers;
import dev.floe.it.servers.ServerPaths;
import dev.floe.it.servers.Servers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * DESIGN rule 9 end to end: a secret planted in every place one can enter Floe never comes out of
 * it. Each channel gets its own value, so a hit names its channel:
 *
 * <ul>
 *   <li>an AWS shared credentials file (AWS_SHARED_CREDENTIALS_FILE) for the S3 warehouse of a JDBC
 *       catalog on PostgreSQL, whose password comes from FLOE_CATALOG_JDBC__PASSWORD;
 *   <li>FLOE_CATALOG_S3__* environment variables for a second S3 server, the warehouse of a REST
 *       catalog that wants a bearer token: FLOE_CATALOG_TOKEN, or an OAuth2 client secret in
 *       FLOE_CATALOG_CREDENTIAL (and the token the catalog issues for it);
 *   <li>a webhook effect whose header and URL take {@code ${env:...}} values;
 *   <li>wrong values (a bad password, a bad token) and secrets put where they are refused
 *       (floe.yaml, k8s flags): their error messages.
 * </ul>
 *
 * A realistic session runs through bin/floe (at FLOE_LOG_LEVEL=DEBUG where a library could log a
 * request, FLOE_DEBUG=1 where a run fails), setup in-process. Then every place Floe writes is
 * scanned for every value (and its base64): stdout and stderr of every command (--json ones
 * included), every file under both project directories (floe.yaml, manifests, the Floe home with
 * logs/floe.log, the HTML report, the outputs), the k8s render, every table property, namespace
 * property and snapshot summary read through Iceberg, every table metadata file in both buckets,
 * and every row of the catalog database (the outbox included). The secrets must have been used: the
 * webhook got its header, the REST catalog refuses requests without the token.
 */
class SecretsNeverLeakITCase {
  private static final String BUCKET = "warehouse";
  private static final String JOB_NAME = "fact_orders_daily";
  private static final String DATABASE = "floe_secrets";
  private static final LocalDate DAY = FactOrders.DAY;
  private static final LocalDate OTHER_DAY = FactOrders.OTHER_DAY;
  private static final String CLIENT_ID = "floe-client";

  private static S3Server s3Jdbc;
  private static S3Server s3Rest;
  private static PostgresServer postgres;
  private static RestCatalogServer rest;

  /** Channel → value, in the order planted. */
  private static final Map<String, String> SECRETS = new LinkedHashMap<>();

  private static final String REST_TOKEN = planted("REST token (FLOE_CATALOG_TOKEN)");
  private static final String REST_CLIENT_SECRET =
      planted("REST OAuth2 client secret (FLOE_CATALOG_CREDENTIAL)");
  private static final String REST_ISSUED_TOKEN =
      planted("REST token the catalog issued for the client credential");
  private static final String WRONG_REST_TOKEN = planted("a wrong FLOE_CATALOG_TOKEN");
  private static final String WRONG_JDBC_PASSWORD = planted("a wrong FLOE_CATALOG_JDBC__PASSWORD");
  private static final String WEBHOOK_HEADER = planted("webhook header ${env:BI_AUTH}");
  private static final String WEBHOOK_ROUTE = planted("webhook URL path ${env:HOOK_ROUTE}");

  @TempDir static Path work;

  @RegisterExtension final WebhookServer webhook = new WebhookServer();

  /** Everything Floe printed or wrote, by where it was found. */
  private final Map<String, String> places = Collections.synchronizedMap(new LinkedHashMap<>());

  private static String planted(String channel) {
    String value = "s3cr3t-" + UUID.randomUUID().toString().replace("-", "");
    SECRETS.put(channel, value);
    return value;
  }

  @BeforeAll
  static void startServers() {
    s3Jdbc = S3Servers.start();
    s3Jdbc.createBucket(BUCKET);
    s3Rest = S3Servers.start();
    s3Rest.createBucket(BUCKET);
    postgres = PostgresServer.start();
    postgres.createDatabase(DATABASE);
    SECRETS.put("S3 secret key in an AWS credentials file", s3Jdbc.secretAccessKey());
    SECRETS.put("S3 secret key in FLOE_CATALOG_S3__SECRET_ACCESS_KEY", s3Rest.secretAccessKey());
    SECRETS.put("PostgreSQL password (FLOE_CATALOG_JDBC__PASSWORD)", postgres.password());
    Map<String, String> backend = new LinkedHashMap<>(s3Rest.fileIoProperties());
    backend.put("warehouse", "s3://" + BUCKET + "/rest");
    rest =
        RestCatalogServer.start(
            backend,
            Map.of(
                "REST_BACKEND_S3__ACCESS_KEY_ID",
                s3Rest.accessKeyId(),
                "REST_BACKEND_S3__SECRET_ACCESS_KEY",
                s3Rest.secretAccessKey(),
                "REST_AUTH_TOKEN",
                REST_TOKEN,
                "REST_AUTH_CREDENTIAL",
                CLIENT_ID + ":" + REST_CLIENT_SECRET,
                "REST_AUTH_ISSUED_TOKEN",
                REST_ISSUED_TOKEN));
  }

  @AfterAll
  static void stopServers() {
    Servers.closeAll(rest, postgres, s3Rest, s3Jdbc);
  }

  @Test
  void noPlantedSecretAppearsInAnyOutputLogReportRenderTableOrErrorMessage() throws Exception {
    long started = System.nanoTime();
    Path jdbc = Files.createDirectories(work.resolve("jdbc"));
    Path restDir = Files.createDirectories(work.resolve("rest"));

    // The two sessions share nothing but this JVM: side by side they take the time of the longer.
    CompletableFuture<Void> restDone =
        CompletableFuture.runAsync(
            () -> {
              try {
                restSession(restDir);
              } catch (Exception e) {
                throw new CompletionException(e);
              }
            });
    jdbcSession(jdbc);
    restDone.join();
    refusedPlacements(Files.createDirectories(work.resolve("refused")));

    // Used, so the scan below proves something: the webhook got the header and the URL path.
    assertThat(webhook.requests()).hasSize(1);
    WebhookServer.Request request = webhook.requests().get(0);
    assertThat(request.headers()).containsEntry("authorization", "Bearer " + WEBHOOK_HEADER);
    assertThat(request.path()).isEqualTo("/hooks/" + WEBHOOK_ROUTE);

    // Where Floe writes: both project directories whole (floe.yaml, manifests, the Floe home with
    // logs/floe.log, the report, the captured outputs), what the catalogs hold, what S3 holds as
    // table metadata, every row of the catalog database.
    scanFiles(jdbc);
    scanFiles(restDir);
    scanCatalog("jdbc catalog", jdbc, jdbcCredentials());
    scanCatalog("rest catalog", restDir, restCredentials());
    scanMetadataFiles("jdbc bucket", s3Jdbc);
    scanMetadataFiles("rest bucket", s3Rest);
    scanDatabase();
    assertThat(places.keySet())
        .as("what was scanned")
        .anyMatch(place -> place.endsWith("logs/floe.log"))
        .anyMatch(place -> place.endsWith("report.html"))
        .anyMatch(place -> place.contains("floe_effect_outbox"))
        .anyMatch(place -> place.contains("snapshot"));
    System.out.printf(
        "scanned %d places (%d chars) for %d secrets in %.1f s%n",
        places.size(),
        places.values().stream().mapToInt(String::length).sum(),
        SECRETS.size(),
        (System.nanoTime() - started) / 1e9);

    assertThat(leaks()).as("secrets found (channel in place: context)").isEmpty();
  }

  /** JDBC catalog on PostgreSQL, warehouse on S3 with keys from an AWS credentials file. */
  private void jdbcSession(Path dir) throws Exception {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("uri", postgres.jdbcUrl(DATABASE));
    properties.put("jdbc.user", PostgresServer.USER);
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", "s3://" + BUCKET + "/jdbc");
    properties.putAll(s3Jdbc.fileIoProperties());
    writeConfig(dir, "jdbc", properties);
    Path job = writeJob(dir);

    InProcessFloe floe = new InProcessFloe(dir.resolve("floe.yaml"), dir.resolve(".floe"));
    ok(
        "jdbc: tables apply",
        floe.run(withProperties(jdbcCredentials(), "tables", "apply", tables())));
    seed(dir, jdbcCredentials());

    Path aws = Files.createDirectories(work.resolve("aws"));
    Files.writeString(
        aws.resolve("credentials"),
        "[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n"
            .formatted(s3Jdbc.accessKeyId(), s3Jdbc.secretAccessKey()));
    Files.writeString(aws.resolve("config"), "[default]\nregion = " + S3Server.REGION + "\n");
    Map<String, String> env = new LinkedHashMap<>();
    env.put("AWS_SHARED_CREDENTIALS_FILE", aws.resolve("credentials").toString());
    env.put("AWS_CONFIG_FILE", aws.resolve("config").toString());
    env.put("FLOE_CATALOG_JDBC__PASSWORD", postgres.password());
    env.put("BI_AUTH", WEBHOOK_HEADER);
    env.put("HOOK_ROUTE", WEBHOOK_ROUTE);
    Map<String, String> debug = with(env, "FLOE_LOG_LEVEL", "DEBUG");

    BinFloe.Result run =
        bin(
            "jdbc: run --json",
            dir,
            debug,
            "run",
            job.toString(),
            "--slice",
            DAY.toString(),
            "--json");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"status\" : \"committed\"", "notify_bi", "notify_down");
    ok(bin("jdbc: snapshots --json", dir, env, "snapshots", FactOrders.TABLE, "--json"));
    ok(
        bin(
            "jdbc: maintain --dry-run",
            dir,
            env,
            "maintain",
            FactOrders.TABLE,
            "--expire",
            "--orphans",
            "--dry-run",
            "--json"));
    ok(
        bin(
            "jdbc: report",
            dir,
            env,
            "report",
            FactOrders.TABLE,
            "--out",
            dir.resolve("report.html").toString()));
    ok(bin("jdbc: effects --json", dir, env, "effects", "--json"));
    BinFloe.Result wrongPassword =
        bin(
            "jdbc: run with a wrong password",
            dir,
            with(
                with(debug, "FLOE_CATALOG_JDBC__PASSWORD", WRONG_JDBC_PASSWORD), "FLOE_DEBUG", "1"),
            "run",
            job.toString(),
            "--slice",
            OTHER_DAY.toString());
    assertThat(wrongPassword.exitCode()).as(wrongPassword.err()).isNotZero();
    ok(
        bin(
            "jdbc: k8s render",
            dir,
            env,
            "k8s",
            "render",
            job.toString(),
            "--slice",
            DAY.toString(),
            "--secret-env",
            "FLOE_CATALOG_JDBC__PASSWORD=floe-db/password"));
  }

  /** REST catalog that wants a bearer token, warehouse on S3 with keys from FLOE_CATALOG_S3__*. */
  private void restSession(Path dir) throws Exception {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("uri", rest.uri());
    properties.putAll(s3Rest.fileIoProperties());
    writeConfig(dir, "rest", properties);
    InProcessFloe floe = new InProcessFloe(dir.resolve("floe.yaml"), dir.resolve(".floe"));
    ok(
        "rest: tables apply",
        floe.run(withProperties(restCredentials(), "tables", "apply", tables())));
    seed(dir, restCredentials());

    Map<String, String> s3Env = s3Rest.credentialEnvironment();
    String job = examples().resolve("jobs/fact_orders_daily.yaml").toString();
    BinFloe.Result run =
        bin(
            "rest: run --json with a client credential",
            dir,
            with(
                with(s3Env, "FLOE_CATALOG_CREDENTIAL", CLIENT_ID + ":" + REST_CLIENT_SECRET),
                "FLOE_LOG_LEVEL",
                "DEBUG"),
            "run",
            job,
            "--slice",
            DAY.toString(),
            "--json");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"status\" : \"committed\"");
    ok(
        bin(
            "rest: snapshots --json with a token",
            dir,
            with(with(s3Env, "FLOE_CATALOG_TOKEN", REST_TOKEN), "FLOE_LOG_LEVEL", "DEBUG"),
            "snapshots",
            FactOrders.TABLE,
            "--json"));
    BinFloe.Result wrongToken =
        bin(
            "rest: run with a wrong token",
            dir,
            with(with(s3Env, "FLOE_CATALOG_TOKEN", WRONG_REST_TOKEN), "FLOE_DEBUG", "1"),
            "run",
            job,
            "--slice",
            OTHER_DAY.toString());
    assertThat(wrongToken.exitCode()).as(wrongToken.err()).isNotZero();
  }

  /** Secrets put where Floe refuses them: the refusals must not quote them. */
  private void refusedPlacements(Path dir) throws Exception {
    Files.writeString(
        dir.resolve("floe.yaml"),
        "catalog:\n  type: jdbc\n  properties:\n    uri: %s\n    jdbc.password: %s\n"
            .formatted(postgres.jdbcUrl(DATABASE), postgres.password()));
    Files.writeString(
        dir.resolve("uri.yaml"),
        "catalog:\n  type: jdbc\n  properties:\n    uri: %s?user=floe&password=%s\n"
            .formatted(postgres.jdbcUrl(DATABASE), postgres.password()));
    Files.writeString(
        dir.resolve("token.yaml"),
        "catalog:\n  type: rest\n  properties:\n    uri: %s\n    token: %s\n"
            .formatted(rest.uri(), REST_TOKEN));
    InProcessFloe inFile = new InProcessFloe(dir.resolve("floe.yaml"), dir.resolve(".floe"));
    InProcessFloe withToken = new InProcessFloe(dir.resolve("token.yaml"), dir.resolve(".floe"));
    assertThat(refused("refused: token in floe.yaml", withToken.run("snapshots", FactOrders.TABLE)))
        .contains("FLOE_CATALOG_TOKEN");
    InProcessFloe inUri = new InProcessFloe(dir.resolve("uri.yaml"), dir.resolve(".floe"));
    assertThat(refused("refused: password in floe.yaml", inFile.run("snapshots", FactOrders.TABLE)))
        .contains("credentials never belong in files");
    assertThat(
            refused(
                "refused: password in a floe.yaml uri", inUri.run("snapshots", FactOrders.TABLE)))
        .contains("carries a password");
    String job = work.resolve("jdbc/jobs/fact_orders_daily.yaml").toString();
    assertThat(
            refused(
                "refused: a value as --secret-env",
                floeMain(
                    "k8s",
                    "render",
                    job,
                    "--slice",
                    DAY.toString(),
                    "--secret-env",
                    "FLOE_CATALOG_JDBC__PASSWORD=" + postgres.password())))
        .contains("--secret-env");
    assertThat(
            refused(
                "refused: a credential as --flink-conf",
                floeMain(
                    "k8s",
                    "render",
                    job,
                    "--slice",
                    DAY.toString(),
                    "--flink-conf",
                    "s3.secret-key=" + s3Jdbc.secretAccessKey())))
        .contains("looks like a credential");
    Path manifest = dir.resolve("literal_token.yaml");
    Files.writeString(
        manifest, Files.readString(Path.of(job)).replace("${env:BI_AUTH}", WEBHOOK_HEADER));
    assertThat(
            refused(
                "lint: a literal token in a webhook header", floeMain("lint", manifest.toString())))
        .contains("written literally");
    InProcessFloe jdbc =
        new InProcessFloe(work.resolve("jdbc/floe.yaml"), work.resolve("jdbc/.floe"));
    assertThat(
            refused(
                "refused: a literal token in a webhook header",
                jdbc.run("run", manifest.toString(), "--slice", DAY.toString(), "--dry-run")))
        .contains("looks secret");
  }

  // --- the session's pieces ---

  private static void writeConfig(Path dir, String type, Map<String, Object> properties)
      throws IOException {
    new ObjectMapper(new YAMLFactory())
        .writeValue(
            dir.resolve("floe.yaml").toFile(),
            Map.of("catalog", Map.of("type", type, "properties", properties)));
  }

  /** The example job with two webhook effects: one that is received, one whose server is down. */
  private Path writeJob(Path dir) throws IOException {
    Path jobs = Files.createDirectories(dir.resolve("jobs"));
    String downUrl = "http://127.0.0.1:" + FreePort.pick();
    String manifest =
        Files.readString(examples().resolve("jobs/fact_orders_daily.yaml"))
            + """
            effects:
              - name: notify_bi
                webhook:
                  url: "%s/hooks/${env:HOOK_ROUTE}"
                  headers: {Authorization: "Bearer ${env:BI_AUTH}"}
                max_attempts: 1
              - name: notify_down
                webhook:
                  url: "%s/hooks/${env:HOOK_ROUTE}"
                  headers: {X-Signature: "${env:BI_AUTH}"}
                max_attempts: 1
            """
                .formatted(webhook.url(""), downUrl);
    Path job = jobs.resolve("fact_orders_daily.yaml");
    Files.writeString(job, manifest);
    return job;
  }

  /**
   * The staging rows of the example seed, appended through Iceberg (no Flink job needed). The file
   * is created with overwrite: S3Proxy's filesystem backend answers the existence check of a new
   * key under a missing folder with 403.
   */
  private static void seed(Path dir, Map<String, String> credentials) {
    withCatalog(
        dir,
        credentials,
        catalog -> {
          Table staging = catalog.loadTable(TableIdentifier.parse("sales.staging_orders"));
          OutputFile file =
              staging
                  .io()
                  .newOutputFile(staging.locationProvider().newDataLocation("seed.parquet"));
          DataWriter<Record> writer =
              Parquet.writeData(file)
                  .forTable(staging)
                  .withSpec(staging.spec())
                  .createWriterFunc(GenericParquetWriter::create)
                  .overwrite()
                  .build();
          try (writer) {
            writer.write(order(staging, 1, 10, "50.00", DAY));
            writer.write(order(staging, 2, 11, "20.00", DAY));
            writer.write(order(staging, 3, 12, "75.00", OTHER_DAY));
          }
          staging.newAppend().appendFile(writer.toDataFile()).commit();
          return null;
        });
  }

  private static Record order(Table table, long id, long customer, String amount, LocalDate day) {
    GenericRecord record = GenericRecord.create(table.schema());
    record.setField("order_id", id);
    record.setField("customer_id", customer);
    record.setField("amount", new BigDecimal(amount));
    record.setField("order_date", day);
    return record;
  }

  private static Map<String, String> jdbcCredentials() {
    return Map.of(
        "jdbc.password", postgres.password(),
        "s3.access-key-id", s3Jdbc.accessKeyId(),
        "s3.secret-access-key", s3Jdbc.secretAccessKey());
  }

  private static Map<String, String> restCredentials() {
    return Map.of(
        "token", REST_TOKEN,
        "s3.access-key-id", s3Rest.accessKeyId(),
        "s3.secret-access-key", s3Rest.secretAccessKey());
  }

  private static String[] withProperties(Map<String, String> properties, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    properties.forEach(
        (key, value) -> all.addAll(List.of("--catalog-property", key + "=" + value)));
    return all.toArray(String[]::new);
  }

  private static Map<String, String> with(Map<String, String> env, String name, String value) {
    Map<String, String> copy = new LinkedHashMap<>(env);
    copy.put(name, value);
    return copy;
  }

  private static Path examples() {
    return ServerPaths.repoRoot().resolve("examples");
  }

  private static String tables() {
    return examples().resolve("tables").toString();
  }

  private BinFloe.Result bin(String what, Path dir, Map<String, String> env, String... args)
      throws Exception {
    long started = System.nanoTime();
    BinFloe.Result result = BinFloe.run(dir, env, args);
    System.out.printf(
        "bin/floe %s: exit %d in %.1f s%n",
        what, result.exitCode(), (System.nanoTime() - started) / 1e9);
    if (result.exitCode() != 0) {
      // What a user reads when it fails (redacted, or the scan below says so).
      System.out.println(
          result.err().lines().limit(3).collect(Collectors.joining("\n  ", "  ", "")));
    }
    places.put(what + " stdout", result.out());
    places.put(what + " stderr", result.err());
    return result;
  }

  private void ok(String what, InProcessFloe.Result result) {
    places.put(what + " (in-process) output", result.both());
    assertThat(result.exitCode()).as(what + ": " + result.both()).isZero();
  }

  private static void ok(BinFloe.Result result) {
    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
  }

  /** The output of a refused command (a non-zero exit). */
  private String refused(String what, InProcessFloe.Result result) {
    places.put(what + " output", result.both());
    assertThat(result.exitCode()).as(what + ": " + result.both()).isNotZero();
    return result.both();
  }

  /** A command line as bin/floe runs it, in this JVM, without --config (k8s and lint take none). */
  private static InProcessFloe.Result floeMain(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = FloeMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new InProcessFloe.Result(code, out.toString(), err.toString());
  }

  // --- the scan ---

  private void scanFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        // Latin-1 reads any bytes (a SQLite file, a rolled log) without failing.
        places.put(
            work.relativize(file).toString(),
            new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
      }
    }
  }

  /** Every namespace's properties, and every table's properties and snapshot summaries. */
  private void scanCatalog(String what, Path dir, Map<String, String> credentials) {
    withCatalog(
        dir,
        credentials,
        catalog -> {
          SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
          for (Namespace namespace : namespaces.listNamespaces()) {
            places.put(
                what + " namespace " + namespace + " properties",
                namespaces.loadNamespaceMetadata(namespace).toString());
            for (TableIdentifier id : catalog.listTables(namespace)) {
              Table table = catalog.loadTable(id);
              places.put(what + " " + id + " properties", table.properties().toString());
              places.put(what + " " + id + " refs", table.refs().toString());
              for (Snapshot snapshot : table.snapshots()) {
                places.put(
                    what + " " + id + " snapshot " + snapshot.snapshotId() + " summary",
                    snapshot.summary().toString());
              }
            }
          }
          return null;
        });
  }

  private void scanMetadataFiles(String what, S3Server s3) {
    try (S3Client client = s3.client()) {
      for (S3Object object :
          client.listObjectsV2Paginator(request -> request.bucket(BUCKET)).contents()) {
        if (object.key().endsWith(".json")) {
          ResponseBytes<GetObjectResponse> bytes =
              client.getObjectAsBytes(request -> request.bucket(BUCKET).key(object.key()));
          places.put(what + " " + object.key(), bytes.asUtf8String());
        }
      }
    }
  }

  /** Every row of every table in the catalog database: Iceberg's tables and Floe's outbox. */
  private void scanDatabase() throws Exception {
    try (Connection connection = postgres.connect(DATABASE);
        Statement statement = connection.createStatement()) {
      List<String> tableNames = new ArrayList<>();
      try (ResultSet tables =
          statement.executeQuery(
              "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")) {
        while (tables.next()) {
          tableNames.add(tables.getString(1));
        }
      }
      assertThat(tableNames).contains("floe_effect_outbox");
      for (String name : tableNames) {
        StringBuilder rows = new StringBuilder();
        try (ResultSet result = statement.executeQuery("SELECT * FROM " + name)) {
          ResultSetMetaData meta = result.getMetaData();
          while (result.next()) {
            for (int column = 1; column <= meta.getColumnCount(); column++) {
              rows.append(meta.getColumnName(column))
                  .append('=')
                  .append(result.getString(column))
                  .append(' ');
            }
            rows.append('\n');
          }
        }
        places.put("database table " + name, rows.toString());
      }
    }
  }

  /** "channel in place: ...context..." for every secret (or its base64) found, the value masked. */
  private List<String> leaks() {
    List<String> leaks = new ArrayList<>();
    places.forEach(
        (place, text) ->
            SECRETS.forEach(
                (channel, secret) -> {
                  for (String needle : forms(secret)) {
                    int at = text.indexOf(needle);
                    if (at >= 0) {
                      String context =
                          text.substring(
                                  Math.max(0, at - 80),
                                  Math.min(text.length(), at + needle.length() + 40))
                              .replace(
                                  needle,
                                  "<" + (needle.equals(secret) ? "" : "base64 of ") + "SECRET>");
                      leaks.add(channel + " in " + place + ": ..." + context + "...");
                      break;
                    }
                  }
                }));
    return leaks;
  }

  /**
   * The value, and the part of its base64 that does not depend on what precedes or follows it (at
   * each of the three byte alignments): a Basic auth header or an encoded blob still gives it away.
   */
  static List<String> forms(String secret) {
    List<String> forms = new ArrayList<>(List.of(secret));
    for (int offset = 0; offset < 3; offset++) {
      String encoded =
          Base64.getEncoder()
              .encodeToString(
                  ("xx".substring(0, offset) + secret).getBytes(StandardCharsets.UTF_8));
      // Skip the group holding the prefix, and the last group (it depends on what follows).
      int from = offset == 0 ? 0 : 4;
      int to = encoded.length() - 4;
      if (to - from >= 16) {
        forms.add(encoded.substring(from, to));
      }
    }
    return forms;
  }

  // --- catalogs from the test JVM ---

  private interface CatalogAction<T> {
    T apply(Catalog catalog) throws Exception;
  }

  private static <T> T withCatalog(
      Path dir, Map<String, String> credentials, CatalogAction<T> action) {
    CatalogConfig config =
        CatalogConfigLoader.load(
            dir.resolve("floe.yaml"), dir.resolve(".floe"), credentials, Map.of());
    Catalog catalog = Catalogs.open(config);
    try {
      return action.apply(catalog);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      Catalogs.close(catalog);
    }
  }
}
