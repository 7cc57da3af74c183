package dev.floe.catalog.commit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Only tables on the local file system scan their manifests on the committing thread. */
class ManifestScansTest {

  @Test
  void aFileLocationIsLocal() {
    assertThat(ManifestScans.isLocal("file:/tmp/warehouse/sales/fact_orders")).isTrue();
    assertThat(ManifestScans.isLocal("file:///tmp/warehouse/sales/fact_orders")).isTrue();
  }

  @Test
  void objectStoresHdfsAndLocationsWithoutASchemeKeepIcebergsPool() {
    assertThat(ManifestScans.isLocal("s3://bucket/warehouse/sales/fact_orders")).isFalse();
    assertThat(ManifestScans.isLocal("s3a://bucket/warehouse/sales/fact_orders")).isFalse();
    assertThat(ManifestScans.isLocal("hdfs://namenode/warehouse/sales/fact_orders")).isFalse();
    assertThat(ManifestScans.isLocal("/warehouse/sales/fact_orders")).isFalse();
    assertThat(ManifestScans.isLocal(null)).isFalse();
  }
}
