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

  @Test
  void aSecretParameterRunTogetherWithItsPrefixIsOneToo() {
    String uri = "jdbc:postgresql://127.0.0.1:5432/floe?sslmode=verify-full&sslpassword=SSLPW-4444";

    assertThat(Redaction.carriesCredential(uri)).isTrue();
    assertThat(Redaction.carriesCredential("jdbc:postgresql://h/db?sslpasswordcallback=a.Cb"))
        .isFalse();
    assertThat(Redaction.carriesCredential("jdbc:x://h/db?db_password_file=/run/s")).isTrue();
    for (String secret :
        new String[] {"password1", "secretkey", "awssecretkey", "tokens", "pwd1"}) {
      assertThat(Redaction.redact("jdbc:mysql://h/db?user=u&" + secret + "=Hidden1234"))
          .as(secret)
          .isEqualTo("jdbc:mysql://h/db?user=u&" + secret + "=******");
    }
    assertThat(Redaction.redact("Failed to connect: " + uri))
        .isEqualTo(
            "Failed to connect: jdbc:postgresql://127.0.0.1:5432/floe?sslmode=verify-full"
                + "&sslpassword=******");
  }

  @Test
  void masksTheClientSecretOfAnOAuth2TokenRequestAsAnHttpWireLogShowsIt() {
    // Iceberg's REST client sends credential=id:secret as a form; Apache HttpClient logs the body.
    String secret = "cs-" + UUID.randomUUID();
    String wire =
        "DEBUG wire - http-outgoing-0 >> \"grant_type=client_credentials&client_id=floe-client"
            + "&client_secret="
            + secret
            + "&scope=catalog\"";

    assertThat(Redaction.redact(wire))
        .isEqualTo(
            "DEBUG wire - http-outgoing-0 >> \"grant_type=client_credentials&client_id=floe-client"
                + "&client_secret=******&scope=catalog\"");
    assertThat(Redaction.redact("GET /x?X-Amz-Security-Token=abcd1234&y=1"))
        .isEqualTo("GET /x?X-Amz-Security-Token=******&y=1");
  }

  @Test
  void masksTheSecretHalfOfARestCredentialWhereverItAppearsAlone() {
    String secret = "half-" + UUID.randomUUID();
    Redaction.rememberEnvironment(Map.of("FLOE_CATALOG_CREDENTIAL", "floe-client:" + secret));

    assertThat(Redaction.redact("sent " + secret + " as the client secret"))
        .isEqualTo("sent ****** as the client secret");
    assertThat(Redaction.redact("client floe-client")).isEqualTo("client floe-client");
  }

  @Test
  void masksTheCredentialOfAuthorizationHeadersButKeepsTheSchemeAndEnvReferences() {
    String issued = "issued-" + UUID.randomUUID();

    assertThat(Redaction.redact("headers - http-outgoing-1 >> Authorization: Bearer " + issued))
        .isEqualTo("headers - http-outgoing-1 >> Authorization: Bearer ******");
    assertThat(Redaction.redact("wire - >> \"Authorization: Bearer " + issued + "[\\r][\\n]\""))
        .isEqualTo("wire - >> \"Authorization: Bearer ******[\\r][\\n]\"");
    assertThat(Redaction.redact("Proxy-Authorization: Basic Zm9vOmJhcg=="))
        .isEqualTo("Proxy-Authorization: Basic ******");
    assertThat(Redaction.redact("{header.authorization=Bearer " + issued + ", uri=http://x}"))
        .isEqualTo("{header.authorization=Bearer ******, uri=http://x}");
    assertThat(Redaction.redact("headers {Authorization: Bearer ${env:BI_TOKEN}}"))
        .isEqualTo("headers {Authorization: Bearer ${env:BI_TOKEN}}");
    assertThat(Redaction.redact("Cannot send effect x: header Authorization would hold a line"))
        .isEqualTo("Cannot send effect x: header Authorization would hold a line");
    String refusal =
        "Cannot read job.yaml at 'effects[0].webhook.headers.Authorization': header"
            + " 'Authorization' looks secret";
    assertThat(Redaction.redact(refusal)).isEqualTo(refusal);
    assertThat(Redaction.redact("{\"Authorization\": \"Bearer " + issued + "\"}"))
        .isEqualTo("{\"Authorization\": \"Bearer ******\"}");
  }

  @Test
  void masksSecretLookingJsonFieldsOfAServerAnswerButNotFlagsNumbersOrOtherFields() {
    String issued = "issued-" + UUID.randomUUID();
    String vended = "vended-" + UUID.randomUUID();
    String answer =
        "<< \"{\"access_token\": \""
            + issued
            + "\", \"expires_in\": 3600, \"config\": {\"s3.secret-access-key\":\""
            + vended
            + "\", \"token-refresh-enabled\": \"true\", \"s3.endpoint\": \"http://s3\"}}\"";

    assertThat(Redaction.redact(answer))
        .isEqualTo(
            "<< \"{\"access_token\": \"******\", \"expires_in\": 3600, \"config\":"
                + " {\"s3.secret-access-key\":\"******\", \"token-refresh-enabled\": \"true\","
                + " \"s3.endpoint\": \"http://s3\"}}\"");
  }
}
