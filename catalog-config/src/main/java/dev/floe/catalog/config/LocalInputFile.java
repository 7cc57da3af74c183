package dev.floe.catalog.config;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A local file read without Hadoop, for {@link LocalReadsFileIO}. It fails as Iceberg's Hadoop
 * input file over Hadoop's local file system does: {@link NotFoundException} for a file that cannot
 * be opened, whatever the reason (missing, a directory, no permission, a symbolic link loop: Java
 * reports them all as {@link FileNotFoundException}, and Iceberg gives up on a metadata file at
 * once only for this exception), {@link RuntimeIOException} for any other I/O error.
 */
final class LocalInputFile implements InputFile {
  private final String location;
  private final File file;
  private long length;

  /**
   * @param location the location as Iceberg wrote it, returned as is
   * @param length the length when the caller knows it (a manifest's), else -1
   */
  LocalInputFile(String location, File file, long length) {
    this.location = location;
    this.file = file;
    this.length = length;
  }

  @Override
  public long getLength() {
    if (length < 0) {
      // As Hadoop's local file system: a file it cannot see does not exist.
      if (!file.exists()) {
        throw new NotFoundException("File does not exist: %s", location);
      }
      length = file.length();
    }
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    try {
      // A directory too: Java refuses to open one with FileNotFoundException ("Is a directory").
      return new LocalSeekableInputStream(new RandomAccessFile(file, "r"));
    } catch (FileNotFoundException e) {
      throw new NotFoundException(e, "Failed to open input stream for file: %s", location);
    } catch (IOException e) {
      throw new RuntimeIOException(e, "Failed to open input stream for file: %s", location);
    }
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public boolean exists() {
    // As Hadoop's: anything at the location, a directory too.
    return file.exists();
  }

  @Override
  public String toString() {
    return location;
  }
}
