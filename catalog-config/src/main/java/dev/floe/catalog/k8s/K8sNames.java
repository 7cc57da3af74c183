package dev.floe.catalog.k8s;

import dev.floe.catalog.lineage.RunKey;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Names and label values of rendered resources. A resource is named from its run key, so applying
 * the same slice of the same manifest and build again meets the same name (Kubernetes then keeps
 * the existing resource), and another slice, manifest or build gets another name.
 */
public final class K8sNames {
  /**
   * The Flink Kubernetes Operator refuses a FlinkDeployment (and a session job's deploymentName)
   * whose name does not match this: DNS-1123, starting with a letter, at most 45 characters, since
   * the operator derives longer service names from it (DefaultValidator.DEPLOYMENT_NAME_PATTERN,
   * release-1.14.0).
   */
  public static final Pattern OPERATOR_NAME = Pattern.compile("[a-z]([-a-z\\d]{0,43}[a-z\\d])?");

  /** The longest name {@link #OPERATOR_NAME} accepts. */
  public static final int MAX_NAME_LENGTH = 45;

  /** How much of the run key a name carries: enough to tell two builds or manifests apart. */
  public static final int RUN_KEY_CHARS = 8;

  /** Every resource name starts with it, so it starts with a letter whatever the job is called. */
  public static final String PREFIX = "floe";

  private static final Pattern LABEL_VALUE =
      Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");
  private static final int LABEL_VALUE_MAX = 63;

  private K8sNames() {}

  /**
   * {@code floe-<job>-<slice>-<first 8 of the run key>} (or of a {@link #backfillKey}), e.g. {@code
   * floe-fact-orders-daily-2026-10-03-1a2b3c4d}. The job part is cut when the whole would exceed
   * {@value #MAX_NAME_LENGTH} characters; the slice and the run key are never cut.
   *
   * @param sliceValue the slice as {@code floe run} prints it ({@code 2026-10-03T05}), or null for
   *     a run that owns the whole table
   */
  public static String resourceName(String job, String sliceValue, String runKey) {
    String slice = sliceValue == null ? "" : dnsPart(sliceValue);
    String key = runKey.substring(0, RUN_KEY_CHARS);
    int fixed = PREFIX.length() + 1 + (slice.isEmpty() ? 0 : slice.length() + 1) + key.length();
    String jobPart = trimDashes(cut(dnsPart(job), MAX_NAME_LENGTH - fixed - 1));
    StringBuilder name = new StringBuilder(PREFIX);
    for (String part : new String[] {jobPart, slice, key}) {
      if (!part.isEmpty()) {
        name.append('-').append(part);
      }
    }
    return name.toString();
  }

  /**
   * The key a backfill's slice is named from in place of the run key: a hash of the run key, the
   * backfill id and whether the slice sends effects, so the resource of a slice of a backfill is
   * named apart from the plain render of the slice (whose spec lacks {@code --backfill-id}), from
   * the same slice of another backfill, and from the same backfill with other effects, while the
   * same backfill rendered again gets the same names.
   */
  public static String backfillKey(String runKey, String backfillId, boolean allowEffects) {
    return RunKey.of(
        "backfill", runKey, backfillId, allowEffects ? "allow-effects" : "effects-off", "");
  }

  /** True when the operator accepts {@code name} for a FlinkDeployment. */
  public static boolean isOperatorName(String name) {
    return name != null && OPERATOR_NAME.matcher(name).matches();
  }

  /**
   * {@code text} as a Kubernetes label value: unchanged when it is one (at most 63 of {@code
   * [A-Za-z0-9._-]}, alphanumeric at both ends), else cleaned, cut and suffixed with a hash of the
   * original so two long values stay apart. The original always goes into an annotation too.
   */
  public static String labelValue(String text) {
    if (LABEL_VALUE.matcher(text).matches()) {
      return text;
    }
    String hash = RunKey.of(text, "", "", "", "").substring(0, RUN_KEY_CHARS);
    String cleaned = trimNonAlphanumeric(cut(text.replaceAll("[^-A-Za-z0-9_.]", "-"), 50));
    return cleaned.isEmpty() ? hash : cleaned + "-" + hash;
  }

  /** True when {@code value} is a valid label value. */
  public static boolean isLabelValue(String value) {
    return value != null
        && value.length() <= LABEL_VALUE_MAX
        && LABEL_VALUE.matcher(value).matches();
  }

  /**
   * Lower case, every run of characters other than {@code [a-z0-9]} one '-', no '-' at the ends.
   */
  static String dnsPart(String text) {
    return trimDashes(text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-"));
  }

  private static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, Math.max(0, max));
  }

  private static String trimDashes(String text) {
    return text.replaceAll("^-+|-+$", "");
  }

  private static String trimNonAlphanumeric(String text) {
    return text.replaceAll("^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "");
  }
}
