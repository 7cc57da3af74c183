package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What floe.yaml may and may not hold: credentials stay out of it and out of messages. */
class CatalogConfigCredentialsTest {
  private static final String PASSWORD = "hunter2-in-the-uri";

  @TempDir Path dir;

  /**
   * The PostgreSQL driver reads {@code password} from the JDBC URL as readily as from {@code
   * jdbc.password}, which floe.yaml refuses. A password in the uri is accepted from the file, and
   * redactedProperties (the only form logs may show, FlinkSessions logs it) prints it.
   */
  @Test
  void aPasswordInsideTheJdbcUriIsRefusedLikeJdbcPassword() throws IOException {
    Path file =
        write(
            "catalog: {type: jdbc, properties: {uri: 'jdbc:postgresql://db:5432/floe?user=floe&password="
                + PASSWORD
                + "'}}\n");

    assertThatThrownBy(() -> CatalogConfigLoader.load(file, dir, Map.of(), Map.of()))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot read catalog property 'uri'")
        .hasMessageNotContaining(PASSWORD);
  }

  /** Even when it comes from the environment, the log form must not carry the password. */
  @Test
  void aPasswordInsideTheUriIsRedacted() {
    CatalogConfig config =
        new CatalogConfig(
            "floe",
            "jdbc",
            Map.of("uri", "jdbc:postgresql://db:5432/floe?user=floe&password=" + PASSWORD));

    assertThat(config.toString()).doesNotContain(PASSWORD);
    assertThat(config.redactedProperties().values()).noneMatch(v -> v.contains(PASSWORD));
  }

  /**
   * Settings that name how to find credentials, or how a token is handled, are no credentials:
   * {@code client.credentials-provider} (AwsClientProperties, e.g. the web-identity provider for a
   * pod role) and the REST catalog's {@code token-refresh-enabled} / {@code
   * token-exchange-enabled}. floe.yaml refuses them because their names contain "credential" or
   * "token", so the very way to get S3 keys from the SDK's chain cannot be configured in the file.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "client.credentials-provider: software.amazon.awssdk.auth.credentials.WebIdentityTokenFileCredentialsProvider",
        "token-refresh-enabled: 'false'",
        "token-exchange-enabled: 'false'"
      })
  void settingsThatAreNoCredentialsAreAcceptedFromTheFile(String line) throws IOException {
    Path file =
        write(
            "catalog:\n  type: rest\n  properties:\n    uri: http://rest:8181\n    " + line + "\n");

    CatalogConfig config = CatalogConfigLoader.load(file, dir, Map.of(), Map.of());

    assertThat(config.properties()).containsKey(line.substring(0, line.indexOf(':')));
  }

  private Path write(String text) throws IOException {
    Path file = dir.resolve("floe.yaml");
    Files.writeString(file, text);
    return file;
  }
}
