package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link Redaction} takes out of an error or log line, and what it leaves alone. */
class RedactionTest {
  private static final String PASSWORD = "pw-" + UUID.randomUUID();

  @TempDir Path home;

  @Test
  void masksThePasswordOfAUriInsideAMessageAndKeepsTheRestOfTheLine() {
    String line =
        "Failed to connect: jdbc:postgresql://db:5432/floe?user=floe&password="
            + "not-known-before: Connection refused";

    String masked =
        "Failed to connect: jdbc:postgresql://db:5432/floe?user=floe&password=******:"
            + " Connection refused";
    assertThat(Redaction.redact(line)).isEqualTo(masked);
    assertThat(Redaction.redact(masked)).isEqualTo(masked);
    assertThat(Redaction.redact("jdbc:postgresql://db/f?password=a:b&ssl=true"))
        .isEqualTo("jdbc:postgresql://db/f?password=******&ssl=true");
  }

  @Test
  void masksTheUserInfoPasswordOfAUriButNotHostPortsOrEmailAddresses() {
    assertThat(
            Redaction.redact(
                "No suitable driver found for jdbc:mysql://floe:hunter22@db:3306/floe; see"
                    + " http://db:3306/x or ops@example.com"))
        .isEqualTo(
            "No suitable driver found for jdbc:mysql://floe:******@db:3306/floe; see"
                + " http://db:3306/x or ops@example.com");
  }

  @Test
  void masksSecretValuesTheLoaderSawWhereverTheyAppear() {
    CatalogConfigLoader.load(
        null,
        home,
        Map.of(),
        Map.of(
            "FLOE_CATALOG_JDBC__PASSWORD", PASSWORD, "FLOE_CATALOG_TOKEN_REFRESH_ENABLED", "true"));

    assertThat(Redaction.redact("login failed for " + PASSWORD + " (quoted: '" + PASSWORD + "')"))
        .isEqualTo("login failed for ****** (quoted: '******')");
    assertThat(Redaction.redact("token refresh enabled: true")).contains("true");
  }

  @Test
  void masksThePasswordOfAUriInTheEnvironmentAndSecretVariablesButNotOrdinaryOnes() {
    String inUri = "env-" + UUID.randomUUID();
    String awsSecret = "aws-" + UUID.randomUUID();
    Redaction.rememberEnvironment(
        Map.of(
            "FLOE_CATALOG_URI",
            "jdbc:postgresql://db/f?user=floe&password=" + inUri,
            "AWS_SECRET_ACCESS_KEY",
            awsSecret,
            "JAVA_HOME",
            "/usr/lib/jvm/java-17"));

    assertThat(Redaction.redact("a " + inUri + " b " + awsSecret + " c /usr/lib/jvm/java-17"))
        .isEqualTo("a ****** b ****** c /usr/lib/jvm/java-17");
  }

  @Test
  void leavesTextWithoutSecretsAndShortValuesAlone() {
    Redaction.remember("ab");
    String line = "Cannot run job for 2026-10-03: cannot reach S3 at http://127.0.0.1:9000 (ab)";

    assertThat(Redaction.redact(line)).isEqualTo(line);
    assertThat(Redaction.redact(null)).isNull();
  }
}
