package dev.floe.it.servers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Submits a jar to a Flink cluster through its REST API, the calls {@code flink run} and the
 * Kubernetes operator make: {@code POST /jars/upload}, {@code POST /jars/<id>/run}, then {@code GET
 * /jobs/<id>} until the job ends.
 */
public final class FlinkRestSubmitter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> FINAL_STATES = Set.of("FINISHED", "FAILED", "CANCELED");

  private final String restUrl;
  private final HttpClient http = HttpClient.newHttpClient();

  public FlinkRestSubmitter(String restUrl) {
    this.restUrl = restUrl;
  }

  /** The answer to {@code /jars/<id>/run}: a job id, or the cluster's error. */
  public record Submission(int httpStatus, String jobId, String body) {
    public boolean accepted() {
      return httpStatus == 200 && jobId != null;
    }
  }

  /** Uploads a jar and returns the id the cluster gave it. */
  public String upload(Path jar) throws IOException, InterruptedException {
    String boundary = "floe-" + UUID.randomUUID();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(
        ("--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                + jar.getFileName()
                + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
    body.write(Files.readAllBytes(jar));
    body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(restUrl + "/jars/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode answer = JSON.readTree(response.body());
    if (response.statusCode() != 200 || !"success".equals(answer.path("status").asText())) {
      throw new IllegalStateException("Cannot upload " + jar + ": " + response.body());
    }
    String filename = answer.path("filename").asText();
    return filename.substring(filename.lastIndexOf('/') + 1);
  }

  /** Runs an uploaded jar's entry class with these arguments (its main runs in the JobManager). */
  public Submission run(String jarId, String entryClass, List<String> args)
      throws IOException, InterruptedException {
    String request =
        JSON.writeValueAsString(Map.of("entryClass", entryClass, "programArgsList", args));
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(restUrl + "/jars/" + jarId + "/run"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(request))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode answer = JSON.readTree(response.body());
    String jobId = answer.hasNonNull("jobid") ? answer.get("jobid").asText() : null;
    return new Submission(response.statusCode(), jobId, response.body());
  }

  /** Waits for a job to end and returns its final state (FINISHED, FAILED or CANCELED). */
  public String awaitEnd(String jobId, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(restUrl + "/jobs/" + jobId)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      String state = JSON.readTree(response.body()).path("state").asText();
      if (FINAL_STATES.contains(state)) {
        return state;
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("Job " + jobId + " did not end within " + timeout);
  }

  /** True while the cluster answers {@code GET /overview}. */
  public boolean answers() {
    try {
      return http.send(
                  HttpRequest.newBuilder(URI.create(restUrl + "/overview"))
                      .timeout(Duration.ofSeconds(5))
                      .GET()
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
