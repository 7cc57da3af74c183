package dev.floe.catalog.config;

import dev.floe.catalog.error.Causes;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * One line for the AWS SDK's set-up failures, which it words as a list of every provider it tried
 * (a thousand characters that never name Glue, S3 or the setting to change), or with the cause
 * hidden ("See cause for the exact endpoint").
 */
public final class AwsClientErrors {
  private static final String NO_CREDENTIALS =
      "Unable to load credentials from any of the providers in the chain";
  private static final String NO_REGION = "Unable to load region from any of the providers";
  private static final String UNKNOWN_HOST = "Received an UnknownHostException";

  private AwsClientErrors() {}

  /** What went wrong and what to set, when {@code failure} is one of those; else empty. */
  public static Optional<String> reason(Throwable failure) {
    for (Throwable t : Causes.of(failure)) {
      String message = t.getMessage() == null ? "" : t.getMessage();
      if (!t.getClass().getName().startsWith("software.amazon.awssdk.")) {
        continue;
      }
      if (message.startsWith(NO_CREDENTIALS)) {
        return Optional.of(
            "Cannot reach AWS: no usable AWS credentials; set AWS_ACCESS_KEY_ID and"
                + " AWS_SECRET_ACCESS_KEY, an AWS profile (AWS_PROFILE) or a role, or fix the one"
                + " set (an expired SSO session, a role that cannot be assumed: FLOE_DEBUG=1 shows"
                + " why each source failed); for S3 alone also s3.access-key-id and"
                + " s3.secret-access-key (FLOE_CATALOG_S3__ACCESS_KEY_ID,"
                + " FLOE_CATALOG_S3__SECRET_ACCESS_KEY)");
      }
      if (message.startsWith(NO_REGION)) {
        return Optional.of(
            "Cannot reach AWS: no AWS region is set; set the catalog property client.region ("
                + CatalogConfigLoader.propertyToEnv("client.region")
                + ") or AWS_REGION");
      }
      if (message.startsWith(UNKNOWN_HOST)) {
        for (Throwable c : Causes.of(t.getCause())) {
          if (c instanceof UnknownHostException unknown) {
            return Optional.of("Cannot reach AWS: unknown host " + unknown.getMessage());
          }
        }
        return Optional.of("Cannot reach AWS: an unknown host (no network, or a wrong endpoint)");
      }
    }
    return Optional.empty();
  }
}
