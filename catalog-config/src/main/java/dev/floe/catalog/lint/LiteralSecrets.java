package dev.floe.catalog.lint;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.effects.EnvReferences;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether the part of a webhook URL or header value written in the manifest, not taken from {@code
 * ${env:NAME}}, holds a secret. A reference stands for its value wherever it is: {@code Bearer
 * ${env:BI_TOKEN}} holds none, {@code Bearer abc123 ${env:UNUSED}} and {@code
 * https://${env:HOST}/hook?token=abc123} do.
 */
final class LiteralSecrets {
  /** Stands for an env reference while the text is judged; no manifest text holds it. */
  private static final String REFERENCE = "\u0000";

  private static final List<String> CREDENTIAL_SCHEMES =
      List.of("bearer", "basic", "token", "digest");

  /**
   * A URL query parameter named like a secret: {@code *token*}, {@code *secret*}, {@code
   * *password*}, {@code pwd}, {@code sig} or {@code signature}, {@code key} itself and the keys
   * that are credentials ({@code api_key}, {@code apikey}, {@code access_key}, {@code private_key},
   * {@code secret_key}); not any name ending in {@code key} ({@code partition_key=region} is data),
   * and not {@code *callback}, which names a URL.
   */
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?i).*(?:token|secret|passw(?:or)?d).*|pwd|sig|signature|key|x-api-key"
              + "|(?:.*[_.-])?(?:api|access|private|secret)[_.-]?key");

  /** A label written right before a reference ({@code key=${env:K}}): not a secret itself. */
  private static final Pattern LABEL_BEFORE_REFERENCE =
      Pattern.compile("[A-Za-z0-9_.-]+[=:](?=" + Pattern.quote(REFERENCE) + ")");

  /** {@code scheme://user:password@host}; group 1 is the password. */
  private static final Pattern USER_INFO = Pattern.compile("://[^/:@?#\\s]+:([^/@?#\\s]*)@");

  private LiteralSecrets() {}

  /**
   * True when the URL has a password ({@code user:pw@}), or a query or path parameter named like a
   * secret ({@code ?token=}, {@code &api_key=}), whose value is written out.
   */
  static boolean inUrl(String url) {
    String text = EnvReferences.replaceAll(url, REFERENCE);
    Matcher userInfo = USER_INFO.matcher(text);
    while (userInfo.find()) {
      if (isWritten(userInfo.group(1))) {
        return true;
      }
    }
    int fragment = text.indexOf('#');
    String beforeFragment = fragment < 0 ? text : text.substring(0, fragment);
    // Query parameters, and path parameters (;token=...) too.
    for (String parameter : beforeFragment.split("[?&;]")) {
      int equals = parameter.indexOf('=');
      if (equals > 0
          && isSecretParameter(parameter.substring(0, equals))
          && isWritten(parameter.substring(equals + 1))) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when a header value gives a credential written out: after a scheme ({@code Bearer
   * abc123}), or anywhere in a header named like a secret, whose value must reference the
   * environment at all (as {@code floe run} requires) and whose words beside a leading scheme
   * ({@code Bearer}, {@code ApiKey}; {@link #isScheme}) must all come from it.
   */
  static boolean inHeader(String name, String value) {
    String text = EnvReferences.replaceAll(value, REFERENCE);
    List<String> words = Arrays.stream(text.strip().split("\\s+")).toList();
    String first = schemeName(words.get(0));
    boolean scheme = words.size() > 1 && isScheme(first);
    List<String> credential = scheme ? words.subList(1, words.size()) : words;
    if (CatalogConfig.isSecret(name)) {
      return !text.contains(REFERENCE) || credential.stream().anyMatch(LiteralSecrets::isWritten);
    }
    return scheme
        && CREDENTIAL_SCHEMES.contains(first.toLowerCase(Locale.ROOT))
        && credential.stream().anyMatch(LiteralSecrets::isWritten);
  }

  /** A header value's first word without the colon some write after a scheme ({@code Bearer:}). */
  private static String schemeName(String word) {
    return word.endsWith(":") ? word.substring(0, word.length() - 1) : word;
  }

  /**
   * Whether a header value's first word reads as an authentication scheme ({@code Bearer}, {@code
   * Splunk}, {@code Api_Key}, {@code HMAC-SHA256}, {@code AWS4-ECDSA-P256-SHA256}, {@code GOOG1}):
   * parts joined by hyphens or underscores, each all letters or capitals followed by digits ({@code
   * SHA256}), or a known scheme ({@code OAuth2}, {@code SCRAM-SHA-256}). A token with digits
   * otherwise is part of the credential: {@code s3cr3t}, {@code sk_live_4eC39Hq}, {@code
   * glpat-xY12ab}, {@code xoxb-1234-5678-ab}, a UUID.
   */
  private static boolean isScheme(String name) {
    if (KNOWN_SCHEMES_WITH_DIGITS.contains(name.toLowerCase(Locale.ROOT))) {
      return true;
    }
    return !name.isEmpty()
        && Character.isLetter(name.charAt(0))
        && Arrays.stream(name.split("[-_]", -1)).allMatch(SCHEME_PART.asMatchPredicate());
  }

  private static final Pattern SCHEME_PART = Pattern.compile("[A-Za-z]+|[A-Z]+[0-9][A-Z0-9]*");

  private static final List<String> KNOWN_SCHEMES_WITH_DIGITS =
      List.of("oauth2", "scram-sha-1", "scram-sha-256");

  private static boolean isSecretParameter(String name) {
    if (name.contains(REFERENCE)) {
      return false;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    return !lower.endsWith("callback") && SECRET_PARAMETER.matcher(lower).matches();
  }

  /**
   * True when {@code text} has a letter or digit outside its references and the labels right before
   * them ({@code key=${env:FCM_KEY}}, {@code token=${env:T}}).
   */
  private static boolean isWritten(String text) {
    return LABEL_BEFORE_REFERENCE
        .matcher(text)
        .replaceAll("")
        .replace(REFERENCE, "")
        .chars()
        .anyMatch(Character::isLetterOrDigit);
  }
}
