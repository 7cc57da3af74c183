package dev.floe.it.servers;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3-compatible server on 127.0.0.1 that a test started: MinIO in a container when a Docker
 * engine runs, S3Proxy in a child JVM otherwise ({@link S3Servers#start}).
 */
public interface S3Server extends AutoCloseable {
  String REGION = "us-east-1";

  /**
   * What runs, for the test log: "MinIO via Testcontainers" or "S3Proxy 4.1.0 (no Docker engine)".
   */
  String description();

  /** {@code http://127.0.0.1:<port>}. */
  String endpoint();

  String accessKeyId();

  String secretAccessKey();

  /** Stops the server at once, keeping its data, as a network or storage outage would. */
  void kill();

  /** Starts the server again after {@link #kill}, on the same port with the same data. */
  void restart();

  @Override
  void close();

  /** The catalog properties that point Iceberg's S3FileIO here; no credentials among them. */
  default Map<String, String> fileIoProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    properties.put("s3.endpoint", endpoint());
    properties.put("s3.path-style-access", "true");
    properties.put("client.region", REGION);
    return properties;
  }

  /** Floe's environment variables for the credentials (the way a user or a Secret sets them). */
  default Map<String, String> credentialEnvironment() {
    return Map.of(
        "FLOE_CATALOG_S3__ACCESS_KEY_ID", accessKeyId(),
        "FLOE_CATALOG_S3__SECRET_ACCESS_KEY", secretAccessKey());
  }

  /** Creates a bucket through the S3 API, the same way for every server. */
  default void createBucket(String bucket) {
    try (S3Client s3 = client()) {
      s3.createBucket(request -> request.bucket(bucket));
    }
  }

  /** A client for assertions on the objects themselves. */
  default S3Client client() {
    return S3Client.builder()
        .endpointOverride(URI.create(endpoint()))
        .region(Region.of(REGION))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(accessKeyId(), secretAccessKey())))
        .build();
  }
}
