package dev.floe.catalog.k8s;

import dev.floe.catalog.config.EnvironmentVariables;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.error.Shown;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An environment variable of the Flink pods whose value comes from a key of a Kubernetes Secret
 * ({@code valueFrom.secretKeyRef}). The manifest names the Secret and the key, never the value.
 *
 * @param env the variable, e.g. {@code FLOE_CATALOG_S3__SECRET_ACCESS_KEY}
 * @param secret the Secret's name, e.g. {@code floe-s3}
 * @param key the key inside the Secret, e.g. {@code secret-access-key}
 */
public record SecretEnv(String env, String secret, String key) {
  /** The Secret {@link #s3} reads unless told otherwise. */
  public static final String DEFAULT_S3_SECRET = "floe-s3";

  /** The keys the S3 Secret holds (docker/k8s/secret-example.yaml). */
  public static final String ACCESS_KEY_ID_KEY = "access-key-id";

  public static final String SECRET_ACCESS_KEY_KEY = "secret-access-key";

  /**
   * The variables CatalogConfigLoader maps to {@code s3.access-key-id} / {@code
   * s3.secret-access-key}.
   */
  public static final String ACCESS_KEY_ID_ENV =
      EnvironmentVariables.CATALOG_PREFIX + "S3__ACCESS_KEY_ID";

  public static final String SECRET_ACCESS_KEY_ENV =
      EnvironmentVariables.CATALOG_PREFIX + "S3__SECRET_ACCESS_KEY";

  private static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern SECRET_NAME =
      Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
  private static final Pattern KEY = Pattern.compile("[-._A-Za-z0-9]{1,253}");
  private static final Pattern SPEC = Pattern.compile("([^=]*)=([^/]*)/(.*)");

  public SecretEnv {
    InvalidInputException.check(
        env != null && ENV.matcher(env).matches(),
        "Cannot use environment variable name '%s': use letters, digits and '_', not starting"
            + " with a digit",
        Shown.value(env));
    // The Secret's name and key are not echoed: a common slip is passing the secret's value here.
    InvalidInputException.check(
        secret != null && SECRET_NAME.matcher(secret).matches(),
        "Cannot use the Secret name given for %s: a Kubernetes name is lower case letters, digits,"
            + " '-' and '.', alphanumeric at both ends (expected ENV=SECRET/KEY, not the value)",
        env);
    InvalidInputException.check(
        key != null && KEY.matcher(key).matches(),
        "Cannot use the Secret key given for %s: use letters, digits, '-', '_' and '.' (expected"
            + " ENV=SECRET/KEY, not the value)",
        env);
  }

  /** The two S3 credential variables, read from {@code secret}'s standard keys. */
  public static List<SecretEnv> s3(String secret) {
    return List.of(
        new SecretEnv(ACCESS_KEY_ID_ENV, secret, ACCESS_KEY_ID_KEY),
        new SecretEnv(SECRET_ACCESS_KEY_ENV, secret, SECRET_ACCESS_KEY_KEY));
  }

  /** {@code ENV=secret/key}, e.g. {@code FLOE_CATALOG_JDBC__PASSWORD=floe-db/password}. */
  public static SecretEnv parse(String spec) {
    Matcher m = SPEC.matcher(spec == null ? "" : spec);
    String env = spec == null ? "" : spec.split("=", 2)[0];
    InvalidInputException.check(
        m.matches(),
        "Cannot read --secret-env for '%s': expected ENV=SECRET/KEY, e.g."
            + " FLOE_CATALOG_JDBC__PASSWORD=floe-db/password (the value itself never goes here)",
        Shown.value(env));
    return new SecretEnv(m.group(1), m.group(2), m.group(3));
  }
}
