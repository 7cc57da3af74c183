package dev.floe.catalog.effects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A receiver that stalls part-way through its answer: one POST still ends within its timeout, so a
 * run is never held after its commit (the request timeout of java.net.http ends with the status
 * line). The bound on each test is a hang guard, far above the POST's one-second timeout.
 */
class WebhookPostStallTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(1);
  private static final Duration HANG = Duration.ofSeconds(30);

  private final CountDownLatch stop = new CountDownLatch(1);
  private ServerSocket socket;

  @AfterEach
  void stopTheReceiver() throws IOException {
    stop.countDown();
    if (socket != null) {
      socket.close();
    }
  }

  @Test
  void aTwoHundredWhoseBodyStallsIsSentWithinTheTimeout() throws Exception {
    URI uri = receiver("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nx");

    WebhookPost.Result result = assertTimeoutPreemptively(HANG, () -> post(uri));

    assertThat(result.ok()).isTrue();
    assertThat(result.httpStatus()).isEqualTo(200);
  }

  @Test
  void aTwoHundredWhoseBodyBreaksOffIsSent() throws Exception {
    URI uri = receiver("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nx", true);

    WebhookPost.Result result = assertTimeoutPreemptively(HANG, () -> post(uri));

    assertThat(result.ok()).as(String.valueOf(result.error())).isTrue();
    assertThat(result.httpStatus()).isEqualTo(200);
  }

  @Test
  void anErrorStatusWhoseBodyStallsFailsWithThatStatus() throws Exception {
    URI uri = receiver("HTTP/1.1 503 Busy\r\nContent-Length: 100\r\n\r\nx");

    WebhookPost.Result result = assertTimeoutPreemptively(HANG, () -> post(uri));

    assertThat(result.httpStatus()).isEqualTo(503);
    assertThat(result.error()).isEqualTo("HTTP 503");
  }

  @Test
  void noAnswerAtAllFailsAsATimeout() throws Exception {
    URI uri = receiver("");

    WebhookPost.Result result = assertTimeoutPreemptively(HANG, () -> post(uri));

    assertThat(result.httpStatus()).isNull();
    assertThat(result.error()).startsWith("HttpTimeoutException");
  }

  @Test
  void aRefusedConnectionNamesWhereThePostWentButNotItsPathOrQuery() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort(); // closed again: nothing listens there
    }
    URI uri = URI.create("http://127.0.0.1:" + port + "/hook?token=tok-secret");

    WebhookPost.Result result = assertTimeoutPreemptively(HANG, () -> post(uri));

    assertThat(result.httpStatus()).isNull();
    assertThat(result.error())
        .startsWith("ConnectException")
        .endsWith("(POST to http://127.0.0.1:" + port + ")")
        .doesNotContain("tok-secret", "/hook");
  }

  private static WebhookPost.Result post(URI uri) throws InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString("{}")).build();
    return new WebhookPost(TIMEOUT, Map.of()).post(request, List.of());
  }

  /** Accepts connections on 127.0.0.1, writes {@code answer} to each, then holds it open. */
  private URI receiver(String answer) throws IOException {
    return receiver(answer, false);
  }

  /** As {@link #receiver(String)}; with {@code close}, closes each connection after the answer. */
  private URI receiver(String answer, boolean close) throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accepting =
        new Thread(
            () -> {
              while (!socket.isClosed()) {
                try {
                  Socket connection = socket.accept();
                  InputStream in = connection.getInputStream();
                  in.read(new byte[8192]); // the request (small: one read)
                  OutputStream out = connection.getOutputStream();
                  out.write(answer.getBytes(StandardCharsets.US_ASCII));
                  out.flush();
                  if (!close) {
                    stop.await();
                  }
                  connection.close();
                } catch (IOException | InterruptedException e) {
                  return;
                }
              }
            },
            "stalling-receiver");
    accepting.setDaemon(true);
    accepting.start();
    return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/hook");
  }
}
