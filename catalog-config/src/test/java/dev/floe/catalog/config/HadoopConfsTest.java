package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class HadoopConfsTest {

  @Test
  void aCopyOfTheDefaultsHoldsWhatANewConfigurationHoldsPlusTheLocalFileSystem() {
    Configuration fresh = new Configuration();
    Configuration copy = HadoopConfs.defaults();

    assertThat(fresh.get("fs.file.impl")).isNull();
    fresh.set("fs.file.impl", NioLocalFileSystem.class.getName());
    assertThat(copy.size()).isEqualTo(fresh.size());
    assertThat(copy.get("fs.defaultFS")).isEqualTo(fresh.get("fs.defaultFS")).isNotNull();
    assertThat(copy.get("io.file.buffer.size")).isEqualTo(fresh.get("io.file.buffer.size"));
  }

  @Test
  void theTemplateIsBuiltOnceAndEveryCallerGetsACopyOfItsOwn() {
    AtomicInteger built = new AtomicInteger();
    HadoopConfs.Template template =
        new HadoopConfs.Template(
            () -> {
              built.incrementAndGet();
              Configuration conf = new Configuration(false);
              conf.set("floe.test", "template");
              return conf;
            });

    Configuration first = template.copy();
    first.set("floe.test", "changed by the first caller");
    first.set("floe.only-first", "x");
    Configuration second = template.copy();

    assertThat(built).hasValue(1);
    assertThat(second).isNotSameAs(first);
    assertThat(second.get("floe.test")).isEqualTo("template");
    assertThat(second.get("floe.only-first")).isNull();
  }

  @Test
  void aCopyLoadsClassesThroughItsCallersContextLoaderNotTheOneThatBuiltTheTemplate()
      throws Exception {
    HadoopConfs.Template template = new HadoopConfs.Template(() -> new Configuration(false));
    ClassLoader jobLoader = new java.net.URLClassLoader(new java.net.URL[0], null);
    ClassLoader original = Thread.currentThread().getContextClassLoader();
    Configuration builtUnderAJob;
    try {
      // e.g. the first Flink task to open a catalog, under its job's user-code class loader
      Thread.currentThread().setContextClassLoader(jobLoader);
      builtUnderAJob = template.copy();
    } finally {
      Thread.currentThread().setContextClassLoader(original);
    }
    Configuration later = template.copy();

    assertThat(builtUnderAJob.getClassLoader()).isSameAs(jobLoader);
    assertThat(later.getClassLoader()).isSameAs(original).isNotSameAs(jobLoader);
  }

  @Test
  void everyTemplateReadsFileThroughTheNioLocalFileSystemUnlessItsXmlNamesOne() {
    HadoopConfs.Template plain = new HadoopConfs.Template(() -> new Configuration(false));
    HadoopConfs.Template named =
        new HadoopConfs.Template(
            () -> {
              Configuration conf = new Configuration(false);
              conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
              return conf;
            });

    assertThat(HadoopConfs.defaults().get("fs.file.impl"))
        .isEqualTo(NioLocalFileSystem.class.getName());
    assertThat(plain.copy().get("fs.file.impl")).isEqualTo(NioLocalFileSystem.class.getName());
    assertThat(named.copy().get("fs.file.impl"))
        .isEqualTo("org.apache.hadoop.fs.RawLocalFileSystem");
  }

  @Test
  void whereFloeIsLoadedApartFromHadoopTheTemplatesKeepHadoopsLocalFileSystem() throws Exception {
    // as on a Flink cluster: Hadoop from Flink's lib/ (here: this test's loader), Floe from the
    // job jar's own loader (here: catalog-config's classes loaded again by a child loader)
    ClassLoader hadoopOnly =
        new ClassLoader(HadoopConfsTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("dev.floe.")) {
              throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
          }
        };
    java.net.URL floeClasses =
        HadoopConfs.class.getProtectionDomain().getCodeSource().getLocation();
    try (java.net.URLClassLoader job =
        new java.net.URLClassLoader(new java.net.URL[] {floeClasses}, hadoopOnly)) {
      Class<?> jobsHadoopConfs = job.loadClass(HadoopConfs.class.getName());
      assertThat(jobsHadoopConfs).isNotSameAs(HadoopConfs.class);

      Configuration conf = (Configuration) jobsHadoopConfs.getMethod("defaults").invoke(null);

      assertThat(conf.get("fs.file.impl")).isNull();
    }
  }
}
