package dev.floe.catalog.config;

import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A seekable stream over a local file with a read buffer: Avro reads a manifest a few bytes at a
 * time, Parquet a column chunk at once. A read at least as large as the buffer goes to the file
 * directly; a seek within the buffered bytes keeps them. Reads go through {@link RandomAccessFile}
 * into the caller's array, as Hadoop's local file system reads: no direct buffer per thread, and a
 * thread's interrupt does not close the file (a {@code FileChannel} would).
 */
final class LocalSeekableInputStream extends SeekableInputStream {
  static final int BUFFER_SIZE = 64 * 1024;

  private final RandomAccessFile file;
  private final byte[] buffer = new byte[BUFFER_SIZE];

  /** The number of valid bytes in the buffer. */
  private int buffered;

  /** The file position of the buffer's first byte. */
  private long bufferStart;

  /** The position of the next byte to read. */
  private long pos;

  /** The file's length when last asked; asked again before refusing a position past it. */
  private long length;

  private boolean closed;

  LocalSeekableInputStream(RandomAccessFile file) throws IOException {
    this.file = file;
    this.length = file.length();
  }

  @Override
  public long getPos() {
    return pos;
  }

  @Override
  public void seek(long newPos) throws IOException {
    ensureOpen();
    if (newPos < 0) {
      throw new EOFException("Cannot seek to a negative position: " + newPos);
    }
    if (newPos > length && newPos > (length = file.length())) {
      throw new EOFException("Cannot seek past the end of the file: " + newPos);
    }
    pos = newPos;
  }

  @Override
  public int read() throws IOException {
    ensureOpen();
    if (!isBuffered() && !fill()) {
      return -1;
    }
    int value = buffer[(int) (pos - bufferStart)] & 0xff;
    pos++;
    return value;
  }

  @Override
  public int read(byte[] bytes, int offset, int count) throws IOException {
    ensureOpen();
    java.util.Objects.checkFromIndexSize(offset, count, bytes.length);
    if (count == 0) {
      return 0;
    }
    if (!isBuffered()) {
      if (count >= BUFFER_SIZE) {
        file.seek(pos);
        int read = file.read(bytes, offset, count);
        if (read > 0) {
          pos += read;
        }
        return read;
      }
      if (!fill()) {
        return -1;
      }
    }
    int start = (int) (pos - bufferStart);
    int read = Math.min(count, buffered - start);
    System.arraycopy(buffer, start, bytes, offset, read);
    pos += read;
    return read;
  }

  @Override
  public long skip(long count) throws IOException {
    ensureOpen();
    if (count <= 0) {
      return 0;
    }
    if (count > length - pos) {
      length = file.length();
    }
    long skipped = Math.min(count, Math.max(0, length - pos));
    pos += skipped;
    return skipped;
  }

  @Override
  public int available() throws IOException {
    ensureOpen();
    return isBuffered() ? buffered - (int) (pos - bufferStart) : 0;
  }

  @Override
  public void close() throws IOException {
    closed = true;
    file.close();
  }

  private boolean isBuffered() {
    return pos >= bufferStart && pos < bufferStart + buffered;
  }

  /** Reads the bytes from {@code pos} into the buffer; false at the end of the file. */
  private boolean fill() throws IOException {
    file.seek(pos);
    int read = file.read(buffer, 0, BUFFER_SIZE);
    bufferStart = pos;
    buffered = Math.max(read, 0);
    return buffered > 0;
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("Stream is closed");
    }
  }
}
