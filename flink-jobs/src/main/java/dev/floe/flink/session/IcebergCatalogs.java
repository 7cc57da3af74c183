package dev.floe.flink.session;

import dev.floe.catalog.config.HadoopConfs;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.table.catalog.Catalog;
import org.apache.iceberg.flink.FlinkCatalogFactory;

/**
 * Creates Iceberg's Flink catalog as Flink's factory discovery does ({@code type: iceberg}), but
 * with the Hadoop configuration Iceberg's factory builds ({@link
 * FlinkCatalogFactory#clusterHadoopConf()}: Flink's configuration and Hadoop's XML files, which
 * cannot change while the JVM runs) built once per JVM and copied for each catalog. Iceberg's
 * factory otherwise parses the XML again for every catalog: in a backfill, once per slice.
 */
final class IcebergCatalogs extends FlinkCatalogFactory {

  private static final HadoopConfs.Template CLUSTER_CONF =
      new HadoopConfs.Template(FlinkCatalogFactory::clusterHadoopConf);

  private static final IcebergCatalogs FACTORY = new IcebergCatalogs();

  private IcebergCatalogs() {}

  /**
   * Iceberg's Flink catalog named {@code name} over {@code options} (the {@code type} option, used
   * only to discover the factory, is not passed on, as Flink's discovery does).
   */
  static Catalog create(String name, Map<String, String> options) {
    Map<String, String> factoryOptions = new HashMap<>(options);
    factoryOptions.remove("type");
    return FACTORY.createCatalog(name, factoryOptions, CLUSTER_CONF.copy());
  }
}
