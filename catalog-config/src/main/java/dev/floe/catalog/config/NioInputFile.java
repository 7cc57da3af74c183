package dev.floe.catalog.config;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A local file read with {@code java.nio}, for {@link LocalReadsFileIO}. It fails as Iceberg's
 * Hadoop input file does: {@link NotFoundException} for a file that does not exist, {@link
 * RuntimeIOException} for any other I/O error.
 */
final class NioInputFile implements InputFile {
  private final String location;
  private final File file;
  private long length;

  /**
   * @param location the location as Iceberg wrote it, returned as is
   * @param length the length when the caller knows it (a manifest's), else -1
   */
  NioInputFile(String location, File file, long length) {
    this.location = location;
    this.file = file;
    this.length = length;
  }

  @Override
  public long getLength() {
    if (length < 0) {
      try {
        length = java.nio.file.Files.size(file.toPath());
      } catch (NoSuchFileException e) {
        throw new NotFoundException(e, "File does not exist: %s", location);
      } catch (IOException e) {
        throw new RuntimeIOException(e, "Failed to get status for file: %s", location);
      }
    }
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    try {
      if (file.isDirectory()) {
        // Hadoop's local file system cannot open one either (FileNotFoundException).
        throw new NoSuchFileException(file.toString(), null, "Is a directory");
      }
      return new NioSeekableInputStream(FileChannel.open(file.toPath(), StandardOpenOption.READ));
    } catch (NoSuchFileException e) {
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
