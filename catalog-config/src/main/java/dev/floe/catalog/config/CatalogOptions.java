package dev.floe.catalog.config;

import java.util.List;

/**
 * Options that choose and configure the Iceberg catalog Floe works against: the keys of {@code
 * floe.yaml}, which {@link CatalogConfigLoader} accepts exactly.
 */
public final class CatalogOptions {
  public static final String EMBEDDED = "embedded";

  /** The catalog type of AWS Glue. */
  public static final String GLUE = "glue";

  /**
   * Where the embedded catalog lives unless {@code --home} or {@code FLOE_HOME} say otherwise. A
   * constant, so picocli descriptions can quote it.
   */
  public static final String DEFAULT_HOME = "./.floe";

  public static final FloeOption TYPE =
      FloeOption.of(
          "catalog.type",
          "string",
          EMBEDDED,
          "Which Iceberg catalog to use: `embedded` (Iceberg JdbcCatalog on SQLite plus a local"
              + " warehouse under the Floe home; no server), `jdbc`, `rest`, `hadoop` or `glue`.");
  public static final FloeOption NAME =
      FloeOption.of(
          "catalog.name",
          "string",
          "floe",
          "The catalog's name in Flink SQL: tables are `<name>.<namespace>.<table>`; the catalog"
              + " is also the current one, so `<namespace>.<table>` works too. For a `jdbc` or"
              + " `embedded` catalog the name also selects which tables of its database it sees:"
              + " renaming an existing catalog hides its tables. Set only here (not from the"
              + " environment or `--catalog-property`).");

  /** The catalog property naming the effect outbox's database (a JDBC URL). */
  public static final String OUTBOX_URI_PROPERTY = "floe.outbox.uri";

  /** Prefix of the driver properties (user, password, ...) for the outbox's database. */
  public static final String OUTBOX_JDBC_PREFIX = "floe.outbox.jdbc.";

  public static final FloeOption PROPERTIES =
      FloeOption.of(
          "catalog.properties.<key>",
          "string",
          null,
          "Any Iceberg catalog property (`uri`, `warehouse`, `io-impl`, `s3.endpoint`, ...),"
              + " in floe.yaml under `catalog.properties` or as `--catalog-property key=value`."
              + " Secrets belong in the environment (`FLOE_CATALOG_<KEY>`), never in files. For"
              + " the `embedded`, `jdbc`, `hadoop` and `glue` catalogs a `warehouse` written as a"
              + " relative path is read against the folder of floe.yaml (against the working"
              + " directory when it comes from the environment or the command line) and made"
              + " absolute; a `rest` catalog gets `warehouse` as written, since its server decides"
              + " what it means (Polaris and Lakekeeper take a catalog's name).");
  public static final FloeOption OUTBOX_URI =
      FloeOption.of(
          "catalog.properties." + OUTBOX_URI_PROPERTY,
          "string",
          null,
          "A JDBC URL for the effect outbox (docs/operators/effects.md), e.g."
              + " `jdbc:postgresql://host/db`. Needed for job manifests with `effects` on"
              + " catalogs without a database (rest, hadoop, glue); the embedded and jdbc"
              + " catalogs keep the outbox in their own database unless this is set.");
  public static final FloeOption OUTBOX_JDBC =
      FloeOption.of(
          "catalog.properties." + OUTBOX_JDBC_PREFIX + "<key>",
          "string",
          null,
          "A driver property for `floe.outbox.uri`, e.g. `floe.outbox.jdbc.user`; the password"
              + " belongs in the environment (`FLOE_CATALOG_FLOE__OUTBOX__JDBC__PASSWORD`).");
  public static final FloeOption CONNECT_TIMEOUT =
      FloeOption.of(
          "catalog.properties." + Reachability.TIMEOUT_PROPERTY,
          "duration",
          "30s",
          "How long a command waits for S3 (a warehouse on S3), the catalog database (jdbc),"
              + " the REST catalog or a configured `glue.endpoint` to answer before it fails with one line, e.g. `cannot reach S3"
              + " at http://127.0.0.1:9000: connection refused`; nothing is committed. Checked once"
              + " before a command opens the catalog: a refused connection or an unknown host fails"
              + " at once, a server that does not answer after this time. Also the connect"
              + " timeout of Iceberg's REST client and of the PostgreSQL driver, and how long one"
              + " request to a REST catalog waits for its answer (unless"
              + " `rest.client.socket-timeout-ms` is set): a catalog that stops answering fails"
              + " the command in one line, and a commit it did not answer ends as"
              + " commit-state-unknown (exit 5). Written `30s`, `500ms`, `2m` or `PT30S`; `0`"
              + " skips the check and sets no timeout.");
  public static final FloeOption GLUE_ENDPOINT =
      FloeOption.of(
          "catalog.properties.glue.endpoint",
          "string",
          null,
          "`glue` only: the AWS Glue API endpoint, e.g. a VPC endpoint or a local emulator such as"
              + " moto (`http://127.0.0.1:5000`); absent: AWS's endpoint for `client.region`. A"
              + " glue catalog needs `warehouse` (e.g. `s3://bucket/warehouse`) to create tables"
              + " in databases without a location of their own, and"
              + " `io-impl: org.apache.iceberg.aws.s3.S3FileIO`; its credentials come from the AWS"
              + " SDK's chain (`AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`, a profile, an"
              + " instance or pod role), never from floe.yaml.");
  public static final FloeOption GLUE_ID =
      FloeOption.of(
          "catalog.properties.glue.id",
          "string",
          null,
          "`glue` only: the AWS account id whose Glue Data Catalog holds the tables, when it is"
              + " not the caller's own.");
  public static final FloeOption CLIENT_REGION =
      FloeOption.of(
          "catalog.properties.client.region",
          "string",
          null,
          "The AWS region of the Glue and S3 clients, e.g. `eu-west-1`; absent: the AWS SDK's"
              + " chain (`AWS_REGION`, the profile).");
  public static final OptionGroup GROUP =
      new OptionGroup(
          "Catalog",
          "Read from `floe.yaml` in the working directory (or `--config FILE`), then"
              + " `FLOE_CATALOG_*` environment variables, then `--catalog-property` flags;"
              + " later sources win.",
          List.of(
              TYPE,
              NAME,
              PROPERTIES,
              CONNECT_TIMEOUT,
              GLUE_ENDPOINT,
              GLUE_ID,
              CLIENT_REGION,
              OUTBOX_URI,
              OUTBOX_JDBC));

  private CatalogOptions() {}
}
