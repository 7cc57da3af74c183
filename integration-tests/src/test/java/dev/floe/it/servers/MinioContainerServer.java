package dev.floe.it.servers;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.time.Duration;
import java.util.List;
import org.testcontainers.containers.MinIOContainer;

/**
 * MinIO through Testcontainers, used when a Docker engine runs. Its S3 port is published on
 * 127.0.0.1 only, on a free port fixed up front so a restart comes back at the same address.
 */
public final class MinioContainerServer implements S3Server {
  // The tag docker/docker-compose.yml pins.
  static final String IMAGE = "minio/minio:RELEASE.2025-04-22T22-12-26Z";
  private static final int S3_PORT = 9000;
  private static final int CONSOLE_PORT = 9001;

  private final MinIOContainer container;
  private final int port;

  private MinioContainerServer(MinIOContainer container, int port) {
    this.container = container;
    this.port = port;
  }

  @SuppressWarnings("resource") // closed in close()
  public static MinioContainerServer start() {
    int port = FreePort.pick();
    int consolePort = FreePort.pick();
    MinIOContainer container =
        new MinIOContainer(IMAGE)
            .withCreateContainerCmdModifier(
                command ->
                    command
                        .getHostConfig()
                        .withPortBindings(
                            List.of(
                                new PortBinding(
                                    Ports.Binding.bindIpAndPort("127.0.0.1", port),
                                    ExposedPort.tcp(S3_PORT)),
                                // Bound too: the container's wait strategy looks both ports up.
                                new PortBinding(
                                    Ports.Binding.bindIpAndPort("127.0.0.1", consolePort),
                                    ExposedPort.tcp(CONSOLE_PORT)))));
    container.start();
    return new MinioContainerServer(container, port);
  }

  @Override
  public String description() {
    return "MinIO via Testcontainers (" + IMAGE + ")";
  }

  @Override
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  @Override
  public String accessKeyId() {
    return container.getUserName();
  }

  @Override
  public String secretAccessKey() {
    return container.getPassword();
  }

  @Override
  public void kill() {
    container.getDockerClient().killContainerCmd(container.getContainerId()).exec();
  }

  @Override
  public void restart() {
    container.getDockerClient().startContainerCmd(container.getContainerId()).exec();
    FreePort.awaitOpen(port, Duration.ofSeconds(60));
  }

  @Override
  public void close() {
    container.stop();
  }
}
