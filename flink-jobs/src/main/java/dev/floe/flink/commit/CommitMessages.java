package dev.floe.flink.commit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;

/**
 * Java serialization for the few, small messages between writers and committer. They travel as
 * {@code byte[]}, a type Flink serializes natively: a generic type would fall back to Kryo, which
 * cannot handle Iceberg's DataFile buffers (STACK.md) and is disabled in Floe jobs.
 */
public final class CommitMessages {

  private CommitMessages() {}

  public static byte[] encode(Object message) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(message);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serialize " + message.getClass().getSimpleName(), e);
    }
    return bytes.toByteArray();
  }

  @SuppressWarnings("unchecked")
  public static <T> T decode(byte[] bytes, ClassLoader loader) {
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes)) {
          @Override
          protected Class<?> resolveClass(java.io.ObjectStreamClass desc)
              throws IOException, ClassNotFoundException {
            return Class.forName(desc.getName(), false, loader);
          }
        }) {
      return (T) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("Cannot deserialize a commit message", e);
    }
  }
}
