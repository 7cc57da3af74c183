package dev.floe.catalog.config;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where secrets are taken out of text a person or a log file will see: every error
 * line of the CLI and every log line go through {@link #redact}. It masks two things:
 *
 * <ul>
 *   <li>passwords inside uris and forms, whoever wrote the text (Iceberg's "Failed to connect:
 *       jdbc:...", a driver's "No suitable driver found for jdbc:mysql://user:password@...", an
 *       HTTP client's DEBUG log of an OAuth2 token request): {@code ?password=x}, {@code
 *       &secret=x}, {@code &client_secret=x}, {@code ;pwd=x} and {@code
 *       scheme://user:password@host};
 *   <li>credentials an HTTP client's DEBUG log shows, which Floe never saw because a server issued
 *       them: {@code Authorization: Bearer x} (and Basic, Digest, Proxy-Authorization), and JSON
 *       fields whose name looks secret, {@code "access_token": "x"}, {@code "s3.secret-access-key":
 *       "x"} (a REST catalog's token or vended credentials);
 *   <li>the secret values Floe knows of: those of the catalog's credential properties ({@link
 *       CatalogConfig#isCredential}), the secret half of a REST {@code credential} ({@code
 *       client-id:secret}), passwords found in its uris, and secret environment variables ({@code
 *       AWS_SECRET_ACCESS_KEY}, {@code FLOE_CATALOG_JDBC__PASSWORD}, ...). Values shorter than
 *       {@value #MIN_SECRET_LENGTH} characters are not searched for: masking every "ab" would make
 *       the text unreadable, and such a value protects nothing.
 * </ul>
 */
public final class Redaction {
  /** What a secret is replaced by. */
  public static final String MASK = "******";

  static final int MIN_SECRET_LENGTH = 4;

  /**
   * {@code ?password=x}, {@code &secret=x}, {@code ;password=x} (SQL Server style), also written as
   * {@code password=x} after a space, comma, quote or brace (a printed map, a logged form body).
   * The name may have words before and after the secret one: {@code client_secret}, {@code
   * access_token}, {@code x-amz-security-token}, {@code db_password}, also run together: {@code
   * sslpassword} (PgJDBC's key password), {@code password1}, {@code secretkey}; but not {@code
   * sslpasswordcallback}, which names a class. The value ends at the next separator or white space.
   */
  private static final Pattern CREDENTIAL_PARAMETER =
      Pattern.compile(
          "(?i)((?:^|[?&;,{\\s'\"])[a-z0-9_-]*(?:password|passwd|pwd|secret|token)"
              + "(?!callback)[a-z0-9_-]*=|(?:^|[?&;,{\\s'\"])sig=)([^&;#,}\\s'\"]*?)(?=$|[&;#,}\\s'\"]|:\\s)");

  /**
   * An HTTP credential as a header or wire log shows it: {@code Authorization: Bearer x}, {@code
   * Proxy-Authorization: Basic x}, {@code header.authorization=Bearer x}. The scheme is kept, the
   * credential after it masked.
   */
  private static final Pattern AUTHORIZATION =
      Pattern.compile(
          // A quoted name ("Authorization": "…", as JSON shows it) takes a quoted value only, so
          // a sentence naming the header ('Authorization': header …) is left alone.
          "(?i)(authorization(?:\\s*[:=]\\s*|[\"']\\s*[:=]\\s*[\"'])"
              + "(?:(?:bearer|basic|digest|token|negotiate)\\s+)?+)(?!\\$\\{)([^\\s\"',\\[\\]]+)");

  /**
   * A JSON field whose name looks secret, as a wire log of a REST catalog's answer shows it: {@code
   * "access_token": "x"}, {@code "s3.secret-access-key": "x"} (vended credentials).
   */
  private static final Pattern JSON_SECRET =
      Pattern.compile(
          "(?i)(\"[^\"\\s]*(?:password|passwd|secret|token|credential|session-key)[^\"\\s]*\""
              + "\\s*:\\s*\")([^\"\\\\]*)(?=\")");

  /** {@code scheme://user:password@host}; neither part holds white space, a slash or an @. */
  private static final Pattern USER_INFO = Pattern.compile("(://[^/:@?#\\s]+:)([^/@?#\\s]*)@");

  private static final Pattern NOT_SECRET = Pattern.compile("(?i)true|false|[0-9.]+");

  private static final Set<String> KNOWN = ConcurrentHashMap.newKeySet();

  /** Longest first, so a secret that contains another is masked whole. */
  private static volatile List<String> knownLongestFirst = List.of();

  private Redaction() {}

  /** {@code text} with every uri password and every known secret value masked; null stays null. */
  public static String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String masked = maskUriCredentials(text);
    masked = maskGroup(AUTHORIZATION, masked);
    masked = maskGroup(JSON_SECRET, masked);
    for (String secret : knownLongestFirst) {
      if (masked.contains(secret)) {
        masked = masked.replace(secret, MASK);
      }
    }
    return masked;
  }

  /** True when {@code value} carries a password: {@code password=...} or {@code user:pw@}. */
  public static boolean carriesCredential(String value) {
    return value != null
        && (CREDENTIAL_PARAMETER.matcher(value).find() || USER_INFO.matcher(value).find());
  }

  /** {@code value} with the passwords inside its uris masked (known values are left alone). */
  public static String maskUriCredentials(String value) {
    if (value == null || !carriesCredential(value)) {
      return value;
    }
    String masked = CREDENTIAL_PARAMETER.matcher(value).replaceAll("$1" + MASK);
    return USER_INFO.matcher(masked).replaceAll("$1" + MASK + "@");
  }

  /** {@code text} with group 2 of each match masked, unless it is empty, a flag or a number. */
  private static String maskGroup(Pattern pattern, String text) {
    Matcher matcher = pattern.matcher(text);
    if (!matcher.find()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    do {
      String value = matcher.group(2);
      String replacement = value.isEmpty() || NOT_SECRET.matcher(value).matches() ? value : MASK;
      matcher.appendReplacement(out, Matcher.quoteReplacement(matcher.group(1) + replacement));
    } while (matcher.find());
    matcher.appendTail(out);
    return out.toString();
  }

  /** Remembers the secret values of a catalog configuration: secret keys and uri passwords. */
  public static void remember(CatalogConfig config) {
    config.properties().forEach(Redaction::rememberProperty);
  }

  /**
   * Remembers the values of secret environment variables (by name, as {@link
   * CatalogConfig#isCredential} judges a property) and the passwords inside any variable's uri.
   */
  public static void rememberEnvironment(Map<String, String> environment) {
    environment.forEach(
        (name, value) -> rememberProperty(name.toLowerCase(Locale.ROOT).replace('_', '-'), value));
  }

  /**
   * Remembers one value that must never be shown. Flags and numbers ({@code true}, {@code 30000})
   * are not secrets whatever their key says ({@code token-refresh-enabled}).
   */
  public static void remember(String secret) {
    if (secret != null
        && secret.length() >= MIN_SECRET_LENGTH
        && !NOT_SECRET.matcher(secret).matches()
        && KNOWN.add(secret)) {
      knownLongestFirst =
          KNOWN.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }
  }

  private static void rememberProperty(String key, String value) {
    if (value == null) {
      return;
    }
    if (CatalogConfig.isCredential(key)) {
      remember(value);
      // A REST catalog's credential is client-id:secret, and an OAuth2 token request sends the
      // secret alone (client_secret=...): the secret half must be known by itself.
      int colon = value.indexOf(':');
      if (key.toLowerCase(Locale.ROOT).endsWith("credential") && colon >= 0) {
        remember(value.substring(colon + 1));
      }
    }
    for (Pattern pattern : List.of(CREDENTIAL_PARAMETER, USER_INFO)) {
      Matcher matcher = pattern.matcher(value);
      while (matcher.find()) {
        remember(matcher.group(2));
      }
    }
  }
}
