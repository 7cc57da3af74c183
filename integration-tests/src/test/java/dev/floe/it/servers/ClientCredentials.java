package dev.floe.it.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Credentials for Floe runs inside the test JVM, where environment variables cannot be set: the
 * places the AWS SDK and the PostgreSQL driver look by themselves (the SDK's system properties, a
 * pgpass file). Never floe.yaml. Tests through bin/floe use FLOE_CATALOG_* instead.
 */
public final class ClientCredentials implements AutoCloseable {
  private static final List<String> PROPERTIES =
      List.of("aws.accessKeyId", "aws.secretAccessKey", "aws.region", "org.postgresql.pgpassfile");

  private ClientCredentials() {}

  /** Either server may be null: a test without S3, or without PostgreSQL. */
  public static ClientCredentials install(S3Server s3, PostgresServer postgres) {
    if (s3 != null) {
      System.setProperty("aws.accessKeyId", s3.accessKeyId());
      System.setProperty("aws.secretAccessKey", s3.secretAccessKey());
      System.setProperty("aws.region", S3Server.REGION);
    }
    if (postgres != null) {
      Path pgpass = ServerPaths.workDir("pgpass").resolve("pgpass");
      try {
        Files.writeString(
            pgpass,
            // Any port on 127.0.0.1: also a proxy in front of the server (PgAnswerDropProxy).
            "127.0.0.1:*:*:%s:%s%n".formatted(PostgresServer.USER, postgres.password()));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write " + pgpass, e);
      }
      System.setProperty("org.postgresql.pgpassfile", pgpass.toString());
    }
    return new ClientCredentials();
  }

  @Override
  public void close() {
    PROPERTIES.forEach(System::clearProperty);
  }
}
