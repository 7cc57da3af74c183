package dev.floe.testservers;

import jakarta.servlet.http.HttpServlet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * An Iceberg REST catalog on 127.0.0.1 only, for integration tests: Iceberg's own servlet over a
 * backend catalog (JdbcCatalog unless {@code catalog-impl} says otherwise).
 *
 * <p>Usage: {@code LoopbackRestCatalogServer PORT key=value...}, the key/values being the backend
 * catalog's properties. Prints {@code READY <port>} once it accepts requests; runs until killed.
 * With {@code REST_AUTH_TOKEN} in its environment it wants that bearer token ({@link BearerAuth}).
 */
public final class LoopbackRestCatalogServer {
  private static final String LOOPBACK = "127.0.0.1";

  private LoopbackRestCatalogServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: LoopbackRestCatalogServer PORT [key=value...]");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog");
    properties.put("jdbc.schema-version", "V1");
    for (int i = 1; i < args.length; i++) {
      int equals = args[i].indexOf('=');
      if (equals <= 0) {
        System.err.println("Cannot read backend property '" + args[i] + "': expected key=value");
        System.exit(2);
      }
      properties.put(args[i].substring(0, equals), args[i].substring(equals + 1));
    }
    // Secrets for the backend (a PostgreSQL password, S3 keys) come from the environment, so they
    // never show up in `ps`: REST_BACKEND_S3__SECRET_ACCESS_KEY=... sets s3.secret-access-key.
    System.getenv()
        .forEach(
            (name, value) -> {
              if (name.startsWith("REST_BACKEND_")) {
                String key =
                    name.substring("REST_BACKEND_".length())
                        .toLowerCase(Locale.ROOT)
                        .replace("__", "\u0000")
                        .replace('_', '-')
                        .replace('\u0000', '.');
                properties.put(key, value);
              }
            });

    Catalog backend =
        CatalogUtil.buildIcebergCatalog("rest_backend", properties, new Configuration());
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    HttpServlet servlet = new RESTCatalogServlet(new RESTCatalogAdapter(backend));
    BearerAuth auth = BearerAuth.fromEnvironment(System.getenv());
    context.addServlet(new ServletHolder(auth == null ? servlet : auth.guard(servlet)), "/*");
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(LOOPBACK);
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(context);
    server.start();
    System.out.println("READY " + connector.getLocalPort());
    System.out.flush();
    server.join();
  }
}
