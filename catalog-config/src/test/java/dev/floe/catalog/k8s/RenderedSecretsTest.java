package dev.floe.catalog.k8s;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Credentials must never reach a rendered manifest or a message. */
class RenderedSecretsTest {
  private static final String PASSWORD = "Hunter2SuperSecret";
  private static final String AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

  /**
   * The easy mistake with {@code --secret-env ENV=SECRET/KEY} is to pass the value itself. The
   * refusal then prints the value back to the terminal (and to a CI log).
   */
  @Test
  void aSecretEnvGivenTheValueInsteadOfSecretSlashKeyDoesNotEchoTheValue() {
    assertThatThrownBy(() -> SecretEnv.parse("FLOE_CATALOG_JDBC__PASSWORD=" + PASSWORD))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("Cannot read --secret-env")
        .hasMessageContaining("FLOE_CATALOG_JDBC__PASSWORD")
        .hasMessageNotContaining(PASSWORD);
  }

  /**
   * An AWS secret key has '/' in it: parse splits it into "Secret name" and "key" and echoes them.
   */
  @Test
  void aSecretEnvGivenAnAwsSecretKeyDoesNotEchoAnyPartOfIt() {
    assertThatThrownBy(() -> SecretEnv.parse("FLOE_CATALOG_S3__SECRET_ACCESS_KEY=" + AWS_SECRET))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageNotContaining("wJalrXUtnFEMI")
        .hasMessageNotContaining("bPxRfiCYEXAMPLEKEY");
  }

  /**
   * floe.yaml refuses {@code s3.access-key-id} as a credential (CatalogConfigLoader), but {@code
   * --flink-conf containerized.master.env.FLOE_CATALOG_S3__ACCESS_KEY_ID=...} (or
   * AWS_ACCESS_KEY_ID) is written into the rendered manifest: ClusterSettings only checks
   * CatalogConfig.isSecret, which does not match "..._key_id".
   */
  @Test
  void anAccessKeyIdPassedAsAFlinkSettingIsRefusedLikeInFloeYaml() {
    ClusterSettings cluster = ClusterSettings.defaults("floe:1");
    for (String key :
        new String[] {
          "containerized.master.env.FLOE_CATALOG_S3__ACCESS_KEY_ID",
          "containerized.taskmanager.env.AWS_ACCESS_KEY_ID"
        }) {
      assertThatThrownBy(() -> cluster.withFlinkConfiguration(Map.of(key, "AKIAIOSFODNN7EXAMPLE")))
          .as(key)
          .isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("credential");
    }
  }
}
