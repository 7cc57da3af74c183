package dev.floe.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.config.CatalogConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableSchemasTest {

  @Test
  void onlyTheConfiguredJdbcCatalogJoinsNamespaceLevels() {
    for (String type : new String[] {"embedded", "jdbc"}) {
      TableSchemas schemas = TableSchemas.of(new CatalogConfig("floe", type, Map.of()));
      assertThat(schemas.joinsNamespaceLevels("floe")).as(type).isTrue();
      // another catalog of the session, whatever it is
      assertThat(schemas.joinsNamespaceLevels("session_ice")).as(type).isFalse();
    }
    for (String type : new String[] {"rest", "hadoop", "glue"}) {
      TableSchemas schemas = TableSchemas.of(new CatalogConfig("floe", type, Map.of()));
      assertThat(schemas.joinsNamespaceLevels("floe")).as(type).isFalse();
    }
  }
}
