package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.UnknownHostException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

/** The AWS SDK's set-up failures, as the hunt saw them from a Glue catalog, told in one line. */
class AwsClientErrorsTest {

  @Test
  void noCredentialsNamesWhatToSet() {
    SdkClientException failure =
        SdkClientException.create(
            "Unable to load credentials from any of the providers in the chain"
                + " AwsCredentialsProviderChain(credentialsProviders=[SystemPropertyCredentialsProvider(),"
                + " EnvironmentVariableCredentialsProvider()]) : [SystemPropertyCredentialsProvider():"
                + " Unable to load credentials from system settings.]");

    assertThat(AwsClientErrors.reason(new RuntimeException("wrapped", failure)))
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .startsWith("Cannot reach AWS: no usable AWS credentials;")
                    .contains("AWS_ACCESS_KEY_ID", "AWS_PROFILE")
                    .doesNotContain("\n"));
  }

  @Test
  void noRegionNamesTheCatalogProperty() {
    SdkClientException failure =
        SdkClientException.create(
            "Unable to load region from any of the providers in the chain"
                + " software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain@4e718207:"
                + " [...]");

    assertThat(AwsClientErrors.reason(failure))
        .contains(
            "Cannot reach AWS: no AWS region is set; set the catalog property client.region"
                + " (FLOE_CATALOG_CLIENT__REGION) or AWS_REGION");
  }

  @Test
  void anUnknownHostNamesTheHostTheSdkHidesInItsCause() {
    SdkClientException failure =
        SdkClientException.builder()
            .message(
                "Received an UnknownHostException when attempting to interact with a service. See"
                    + " cause for the exact endpoint that is failing to resolve.")
            .cause(new UnknownHostException("glue.eu-west-1.amazonaws.com"))
            .build();

    assertThat(AwsClientErrors.reason(new ExecutionException(failure)))
        .contains("Cannot reach AWS: unknown host glue.eu-west-1.amazonaws.com");
  }

  @Test
  void anythingElseIsLeftAlone() {
    assertThat(AwsClientErrors.reason(new IllegalStateException("Unable to load region")))
        .isEmpty();
    assertThat(AwsClientErrors.reason(SdkClientException.create("Service unavailable"))).isEmpty();
  }
}
