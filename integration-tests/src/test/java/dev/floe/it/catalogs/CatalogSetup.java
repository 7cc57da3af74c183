package dev.floe.it.catalogs;

import dev.floe.it.servers.MotoServer;
import dev.floe.it.servers.PostgresServer;
import dev.floe.it.servers.RestCatalogServer;
import dev.floe.it.servers.S3Server;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The catalogs Floe supports, each as a user writes it in floe.yaml: no credentials in the file
 * (the S3 keys and the PostgreSQL password come from the environment or a credentials file).
 */
enum CatalogSetup {
  EMBEDDED_LOCAL,
  EMBEDDED_S3,
  JDBC_POSTGRES_S3,
  REST_S3,
  /** AWS Glue and S3 as moto_server emulates them: Glue's API, not a database or REST. */
  GLUE_MOTO;

  static final String BUCKET = "warehouse";

  boolean onS3() {
    return this != EMBEDDED_LOCAL;
  }

  /** The catalog section of floe.yaml. */
  Map<String, Object> catalog(
      S3Server s3, PostgresServer postgres, RestCatalogServer rest, MotoServer moto) {
    Map<String, String> properties = new LinkedHashMap<>();
    String type;
    switch (this) {
      case EMBEDDED_LOCAL -> type = "embedded";
      case EMBEDDED_S3 -> {
        type = "embedded";
        properties.put("warehouse", "s3://" + BUCKET + "/embedded");
      }
      case JDBC_POSTGRES_S3 -> {
        type = "jdbc";
        properties.put("uri", postgres.createDatabase("floe_catalog"));
        properties.put("jdbc.user", PostgresServer.USER);
        properties.put("jdbc.schema-version", "V1");
        properties.put("warehouse", "s3://" + BUCKET + "/jdbc");
      }
      case REST_S3 -> {
        type = "rest";
        properties.put("uri", rest.uri());
      }
      case GLUE_MOTO -> {
        type = "glue";
        properties.put("glue.endpoint", moto.endpoint());
        properties.put("warehouse", "s3://" + BUCKET + "/glue");
        properties.putAll(moto.fileIoProperties());
      }
      default -> throw new IllegalStateException(name());
    }
    if (onS3() && this != GLUE_MOTO) {
      properties.putAll(s3.fileIoProperties());
    }
    return Map.of("catalog", Map.of("type", type, "properties", properties));
  }
}
