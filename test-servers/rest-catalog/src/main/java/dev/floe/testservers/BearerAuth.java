package dev.floe.testservers;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Optional authentication in front of the REST catalog, the way a real one checks credentials
 * (Iceberg's own test servlet ignores them): every request needs {@code Authorization: Bearer
 * <REST_AUTH_TOKEN>}, else 401. With {@code REST_AUTH_CREDENTIAL} ({@code client-id:secret}) the
 * OAuth2 client-credentials endpoint {@code POST /v1/oauth/tokens} hands out {@code
 * REST_AUTH_ISSUED_TOKEN} to that client, which is then accepted as well. No answer ever echoes
 * what the client sent.
 */
final class BearerAuth {
  private static final String TOKENS_PATH = "/v1/oauth/tokens";

  private final String token;
  private final String clientId;
  private final String clientSecret;
  private final String issuedToken;

  private BearerAuth(String token, String credential, String issuedToken) {
    this.token = token;
    int colon = credential == null ? -1 : credential.indexOf(':');
    this.clientId = colon < 0 ? null : credential.substring(0, colon);
    this.clientSecret = colon < 0 ? null : credential.substring(colon + 1);
    this.issuedToken = issuedToken;
  }

  /** The checks the environment asks for, or null when REST_AUTH_TOKEN is not set. */
  static BearerAuth fromEnvironment(Map<String, String> environment) {
    String token = environment.get("REST_AUTH_TOKEN");
    if (token == null || token.isEmpty()) {
      return null;
    }
    return new BearerAuth(
        token, environment.get("REST_AUTH_CREDENTIAL"), environment.get("REST_AUTH_ISSUED_TOKEN"));
  }

  /** {@code servlet} behind the checks. */
  HttpServlet guard(HttpServlet servlet) {
    return new HttpServlet() {
      @Override
      public void init(ServletConfig config) throws ServletException {
        super.init(config);
        servlet.init(config);
      }

      @Override
      protected void service(HttpServletRequest request, HttpServletResponse response)
          throws ServletException, IOException {
        String path = request.getRequestURI();
        if (path.endsWith(TOKENS_PATH) && "POST".equals(request.getMethod())) {
          issue(request, response);
        } else if (authorized(request.getHeader("Authorization"))) {
          servlet.service(request, response);
        } else {
          refuse(response, "NotAuthorizedException", "missing or wrong bearer token");
        }
      }
    };
  }

  private boolean authorized(String header) {
    return header != null
        && (header.equals("Bearer " + token)
            || (issuedToken != null && header.equals("Bearer " + issuedToken)));
  }

  private void issue(HttpServletRequest request, HttpServletResponse response) throws IOException {
    Map<String, String> form = new HashMap<>();
    String body = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    for (String pair : body.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        form.put(
            URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    if (clientId == null
        || issuedToken == null
        || !"client_credentials".equals(form.get("grant_type"))
        || !clientId.equals(form.get("client_id"))
        || !clientSecret.equals(form.get("client_secret"))) {
      response.setStatus(401);
      response.setContentType("application/json");
      response
          .getWriter()
          .write("{\"error\": \"invalid_client\", \"error_description\": \"unknown client\"}");
      return;
    }
    response.setStatus(200);
    response.setContentType("application/json");
    response
        .getWriter()
        .write(
            "{\"access_token\": \""
                + issuedToken
                + "\", \"token_type\": \"bearer\", \"issued_token_type\":"
                + " \"urn:ietf:params:oauth:token-type:access_token\"}");
  }

  private static void refuse(HttpServletResponse response, String type, String message)
      throws IOException {
    response.setStatus(401);
    response.setContentType("application/json");
    response
        .getWriter()
        .write(
            "{\"error\": {\"message\": \""
                + message
                + "\", \"type\": \""
                + type
                + "\", \"code\": 401}}");
  }
}
