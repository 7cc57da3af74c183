package dev.floe.catalog.lineage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The deterministic id of a run's intent: a hash of job name, target table, slice, manifest text
 * and code version. The same inputs give the same key on any machine, on any day.
 */
public final class RunKey {

  private RunKey() {}

  public static String of(
      String job, String target, String sliceLabel, String manifestText, String codeVersion) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part : new String[] {job, target, sliceLabel, manifestText, codeVersion}) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        // Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
        sha.update(Integer.toString(bytes.length).getBytes(StandardCharsets.UTF_8));
        sha.update((byte) ':');
        sha.update(bytes);
      }
      return HexFormat.of().formatHex(sha.digest()).substring(0, 24);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by the Java platform", e);
    }
  }
}
