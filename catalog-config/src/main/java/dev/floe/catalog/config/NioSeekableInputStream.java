package dev.floe.catalog.config;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A seekable stream over a file channel with a read buffer: Avro reads a manifest a few bytes at a
 * time, Parquet a column chunk at once. A read at least as large as the buffer goes to the channel
 * directly; a seek within the buffered bytes keeps them.
 */
final class NioSeekableInputStream extends SeekableInputStream {
  static final int BUFFER_SIZE = 64 * 1024;

  private final FileChannel channel;
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_SIZE).limit(0);

  /** The file position of the buffer's first byte. */
  private long bufferStart;

  /** The position of the next byte to read. */
  private long pos;

  private boolean closed;

  NioSeekableInputStream(FileChannel channel) {
    this.channel = channel;
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
    if (newPos > channel.size()) {
      throw new EOFException("Cannot seek past the end of the file: " + newPos);
    }
    pos = newPos;
  }

  @Override
  public int read() throws IOException {
    ensureOpen();
    if (!buffered() && !fill()) {
      return -1;
    }
    int value = buffer.get((int) (pos - bufferStart)) & 0xff;
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
    if (!buffered()) {
      if (count >= BUFFER_SIZE) {
        int read = channel.read(ByteBuffer.wrap(bytes, offset, count), pos);
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
    int read = Math.min(count, buffer.limit() - start);
    buffer.get(start, bytes, offset, read);
    pos += read;
    return read;
  }

  @Override
  public long skip(long count) throws IOException {
    ensureOpen();
    if (count <= 0) {
      return 0;
    }
    long skipped = Math.min(count, Math.max(0, channel.size() - pos));
    pos += skipped;
    return skipped;
  }

  @Override
  public int available() throws IOException {
    ensureOpen();
    return buffered() ? buffer.limit() - (int) (pos - bufferStart) : 0;
  }

  @Override
  public void close() throws IOException {
    closed = true;
    channel.close();
  }

  private boolean buffered() {
    return pos >= bufferStart && pos < bufferStart + buffer.limit();
  }

  /** Reads the bytes from {@code pos} into the buffer; false at the end of the file. */
  private boolean fill() throws IOException {
    buffer.clear();
    bufferStart = pos;
    // A positional read of a file reads at least one byte before its end, or returns -1.
    channel.read(buffer, pos);
    buffer.flip();
    return buffer.limit() > 0;
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("Stream is closed");
    }
  }
}
