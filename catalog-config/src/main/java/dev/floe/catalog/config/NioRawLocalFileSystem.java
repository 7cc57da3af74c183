package dev.floe.catalog.config;

import java.io.File;
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
   * @throws FileNotFoundException when {@code path} does not exist (Hadoop's own {@code chmod}
   *     throws its exit-code exception there)
   */
  @Override
  public void setPermission(Path path, FsPermission permission) throws IOException {
    boolean set;
    try {
      set = setMode(pathToFile(path), permission.toShort() & 01777);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException(
          "Cannot set the permission of " + path + ": it does not exist");
    }
    if (!set) {
      super.setPermission(path, permission); // Hadoop's way: chmod
    }
  }

  /**
   * Sets {@code file}'s mode bits as {@code chmod} would, a directory keeping its set-ID bits.
   *
   * @return false, changing nothing, where java.nio cannot: no "unix" attribute view on this
   *     platform, or a name the JVM's path encoding cannot represent (a non-ASCII name under the C
   *     locale), which {@code java.io} and {@code chmod} still handle
   * @throws NoSuchFileException when {@code file} does not exist
   */
  static boolean setMode(File file, int mode) throws IOException {
    try {
      java.nio.file.Path nio = file.toPath();
      int current = (Integer) Files.getAttribute(nio, "unix:mode");
      if ((current & FILE_TYPE_MASK) == DIRECTORY_TYPE) {
        mode |= current & SET_ID_BITS;
      }
      Files.setAttribute(nio, "unix:mode", mode);
      return true;
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return false;
    }
  }
}
