package dev.floe.it.servers;

import org.testcontainers.DockerClientFactory;

/** Starts the S3 server the machine can run and says in the test log which one it is. */
public final class S3Servers {
  private S3Servers() {}

  public static S3Server start() {
    S3Server server = dockerAvailable() ? MinioContainerServer.start() : S3ProxyServer.start();
    System.out.println("S3 server: " + server.description() + " at " + server.endpoint());
    return server;
  }

  private static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError noDocker) {
      return false;
    }
  }
}
