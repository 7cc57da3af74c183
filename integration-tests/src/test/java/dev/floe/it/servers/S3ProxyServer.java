package dev.floe.it.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * S3Proxy (STACK.md) in its own JVM with the filesystem backend, bound to 127.0.0.1: its data
 * survives a kill, so a test can stop it mid-write and start it again on the same port.
 */
public final class S3ProxyServer implements S3Server {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Path dir;
  private final int port;
  private final String accessKeyId = "floe-it";
  private final String secretAccessKey = "s3proxy-" + UUID.randomUUID();
  private ChildProcess process;

  private S3ProxyServer(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  public static S3ProxyServer start() {
    S3ProxyServer server = new S3ProxyServer(ServerPaths.workDir("s3proxy"), FreePort.pick());
    server.launch();
    return server;
  }

  @Override
  public String description() {
    return "S3Proxy " + System.getProperty("floe.s3proxy.version", "") + " (no Docker engine)";
  }

  @Override
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  @Override
  public String accessKeyId() {
    return accessKeyId;
  }

  @Override
  public String secretAccessKey() {
    return secretAccessKey;
  }

  /** Where the filesystem backend keeps the buckets (one directory per bucket). */
  public Path dataDirectory() {
    return dir.resolve("data");
  }

  @Override
  public void kill() {
    process.kill();
  }

  @Override
  public void restart() {
    if (process.isAlive()) {
      throw new IllegalStateException("Cannot restart S3Proxy: pid " + process.pid() + " runs");
    }
    launch();
  }

  @Override
  public void close() {
    if (process != null) {
      process.close();
    }
  }

  private void launch() {
    Path data = dir.resolve("data");
    Path properties = dir.resolve("s3proxy.properties");
    try {
      Files.createDirectories(data);
      Files.writeString(
          properties,
          String.join(
              "\n",
              "s3proxy.endpoint=" + endpoint(),
              "s3proxy.authorization=aws-v2-or-v4",
              "s3proxy.identity=" + accessKeyId,
              "s3proxy.credential=" + secretAccessKey,
              "jclouds.provider=filesystem-nio2",
              "jclouds.filesystem.basedir=" + data,
              ""));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + properties, e);
    }
    String jar = ServerPaths.required("floe.s3proxy.jar").toString();
    process =
        ChildProcess.start(
            "s3proxy",
            List.of(
                ChildProcess.java(),
                "-Xmx256m",
                "-jar",
                jar,
                "--properties",
                properties.toString()),
            Map.of(),
            dir.resolve("s3proxy.log"));
    try {
      process.awaitPort(port, START_TIMEOUT);
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
  }
}
