package dev.floe.catalog.config;

import org.apache.hadoop.fs.LocalFileSystem;

/**
 * Hadoop's {@link LocalFileSystem} (the checksum file system that writes and hides {@code
 * .name.crc} files) over {@link NioRawLocalFileSystem}, which sets permissions without forking
 * {@code chmod}. Everything else, the {@code .crc} files included, is Hadoop's.
 *
 * <p>{@link HadoopConfs} names it as {@code fs.file.impl} in the configurations Floe creates.
 */
public final class NioLocalFileSystem extends LocalFileSystem {

  /** The file system {@code FileSystem.get} instantiates for {@code file:}. */
  public NioLocalFileSystem() {
    super(new NioRawLocalFileSystem());
  }
}
