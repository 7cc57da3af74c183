package dev.floe.catalog.config;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's {@link RawLocalFileSystem} that sets permissions through {@code java.nio} instead of a
 * {@code chmod} process.
 *
 * <p>Without Hadoop's native library (Floe never has it) {@link RawLocalFileSystem#setPermission}
 * forks {@code chmod} for every file it creates (a data file and its {@code .crc}, every metadata
 * file) and every directory it makes; the forks cost about 7 % of a merge's CPU. The permission
 * Hadoop hands to {@link #setPermission} already has the umask applied (its create and mkdirs paths
 * apply {@code fs.permissions.umask-mode} first), so only the {@code chmod} is replaced, and with
 * {@code chmod}'s result: the permission's bits ({@link FsPermission#toShort}: read, write, execute
 * and sticky) replace the file's, except that a directory keeps its set-user-ID and set-group-ID
 * bits, as GNU {@code chmod 0755 dir} keeps them. Where the file system has no POSIX modes,
 * Hadoop's own {@code chmod} runs.
 */
public final class NioRawLocalFileSystem extends RawLocalFileSystem {

  private static final int SET_ID_BITS = 06000;
  private static final int DIRECTORY_TYPE = 0040000;
  private static final int FILE_TYPE_MASK = 0170000;

  /**
   * Sets {@code path}'s mode to {@code permission} (a directory keeps its set-ID bits).
   *
   * @throws FileNotFoundException when {@code path} does not exist
   */
  @Override
  public void setPermission(Path path, FsPermission permission) throws IOException {
    java.nio.file.Path file = pathToFile(path).toPath();
    int mode = permission.toShort() & 01777;
    try {
      int current = (Integer) Files.getAttribute(file, "unix:mode");
      if ((current & FILE_TYPE_MASK) == DIRECTORY_TYPE) {
        mode |= current & SET_ID_BITS;
      }
      Files.setAttribute(file, "unix:mode", mode);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException(
          "Cannot set the permission of " + path + ": it does not exist");
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      // no "unix" attribute view on this platform: Hadoop's way
      super.setPermission(path, permission);
    }
  }
}
