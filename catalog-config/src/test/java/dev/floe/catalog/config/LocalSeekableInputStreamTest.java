package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSeekableInputStreamTest {
  private static final int BUFFER = LocalSeekableInputStream.BUFFER_SIZE;

  @TempDir Path dir;

  @Test
  void everyReadSeekAndSkipGivesTheFilesBytesAtItsPosition() throws IOException {
    for (int size : new int[] {0, 1, BUFFER - 1, BUFFER, BUFFER + 1, 3 * BUFFER + 17}) {
      Random random = new Random(size);
      byte[] content = new byte[size];
      random.nextBytes(content);
      Path file = Files.write(dir.resolve("f" + size), content);
      try (LocalSeekableInputStream in = open(file)) {
        long expected = 0;
        for (int step = 0; step < 3_000; step++) {
          int op = random.nextInt(5);
          if (op == 0) {
            expected = random.nextInt(size + 1);
            in.seek(expected);
          } else if (op == 1) {
            int value = in.read();
            assertThat(value).isEqualTo(expected < size ? content[(int) expected] & 0xff : -1);
            expected += value < 0 ? 0 : 1;
          } else if (op == 2 || op == 3) {
            // small reads (Avro's), and reads larger than the buffer (Parquet's column chunks)
            int count = op == 2 ? random.nextInt(100) : random.nextInt(2 * BUFFER + 3);
            int offset = random.nextInt(5);
            byte[] into = new byte[offset + count + 3];
            int read = in.read(into, offset, count);
            long left = size - expected;
            if (count == 0) {
              assertThat(read).isZero();
            } else if (left == 0) {
              assertThat(read).isEqualTo(-1);
            } else {
              assertThat(read).isBetween(1, (int) Math.min(count, left));
              assertThat(Arrays.copyOfRange(into, offset, offset + read))
                  .isEqualTo(Arrays.copyOfRange(content, (int) expected, (int) expected + read));
              expected += read;
            }
          } else {
            long count = random.nextInt(2 * BUFFER) - 10;
            long skipped = in.skip(count);
            assertThat(skipped).isEqualTo(Math.max(0, Math.min(count, size - expected)));
            expected += skipped;
          }
          assertThat(in.getPos()).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void seekingOutsideTheFileOrReadingAfterCloseFails() throws IOException {
    Path file = Files.write(dir.resolve("f"), new byte[] {1, 2, 3});
    LocalSeekableInputStream in = open(file);
    assertThatThrownBy(() -> in.seek(-1)).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> in.seek(4)).isInstanceOf(EOFException.class);
    in.seek(3);
    assertThat(in.read()).isEqualTo(-1);
    in.close();
    assertThatThrownBy(in::read).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> in.seek(0)).isInstanceOf(IOException.class);
  }

  @Test
  void aFileThatGrowsWhileOpenIsReadSeekedAndSkippedToItsNewEnd() throws IOException {
    Path file = Files.write(dir.resolve("growing"), new byte[] {1, 2, 3});
    try (LocalSeekableInputStream in = open(file)) {
      byte[] appended = new byte[70_000];
      new Random(3).nextBytes(appended);
      Files.write(file, appended, java.nio.file.StandardOpenOption.APPEND);

      in.seek(50_000);
      assertThat(in.read()).isEqualTo(appended[50_000 - 3] & 0xff);
      assertThat(in.skip(30_000)).isEqualTo(70_003 - 50_001);
      assertThat(in.read()).isEqualTo(-1);
    }
  }

  private static LocalSeekableInputStream open(Path file) throws IOException {
    return new LocalSeekableInputStream(new RandomAccessFile(file.toFile(), "r"));
  }
}
