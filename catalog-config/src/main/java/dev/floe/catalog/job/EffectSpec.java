package dev.floe.catalog.job;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A side effect a job declares (DESIGN rule 8): a webhook POSTed once per run key, after the run
 * committed to main, through the outbox.
 *
 * @param name the effect's name, unique in its manifest; with the run key it is the outbox key
 * @param url where to POST; may reference {@code ${env:NAME}} (a webhook URL can be a secret)
 * @param headers header name to value template; values may reference {@code ${env:NAME}} and are
 *     resolved only when sending, so a token never lives in a manifest, the outbox or a log
 * @param body the JSON body template with {@code ${variable}} references to the run result
 * @param maxAttempts POSTs one delivery makes before it leaves the effect {@code failed}
 */
public record EffectSpec(
    String name, String url, Map<String, String> headers, String body, int maxAttempts)
    implements Serializable {

  /** What {@code max_attempts} defaults to. */
  public static final int DEFAULT_MAX_ATTEMPTS = 5;

  public EffectSpec {
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }
}
