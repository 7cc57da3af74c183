package dev.floe.catalog.lint;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A secret written into a manifest: a header that looks secret, a credential scheme or a URL with a
 * password, token or key, not taken from {@code ${env:NAME}} ({@link LiteralSecrets} judges the
 * written parts, beside any reference). Messages never quote the value.
 */
final class EffectLiteralSecret implements Check {
  static final Rule RULE =
      new Rule(
          "effect-literal-secret",
          Severity.ERROR,
          "A webhook secret written literally: a header named like a secret (Authorization,"
              + " *token*, *key...), a Bearer/Basic credential, or a URL with a password or a"
              + " token or key parameter, whose value is not taken from the environment (an env:"
              + " reference); a secret written beside a reference counts too.");

  @Override
  public Rule rule() {
    return RULE;
  }

  @Override
  public List<Finding> check(LintedManifest manifest, LintSet set) {
    List<Finding> findings = new ArrayList<>();
    for (EffectItems effect : EffectItems.of(manifest)) {
      JsonNode webhook = effect.webhook();
      if (webhook == null) {
        continue;
      }
      String where = effect.name() == null ? effect.path() : "effect '" + effect.name() + "'";
      String url = LintedManifest.text(webhook.get("url"));
      if (url != null && LiteralSecrets.inUrl(url)) {
        findings.add(
            RULE.at(
                manifest,
                effect.path() + ".webhook.url",
                "Cannot keep the URL of %s out of the manifest: it holds a password, token or key"
                    + " written literally; write it as ${env:NAME}",
                where));
      }
      JsonNode headers = webhook.get("headers");
      if (headers == null || !headers.isObject()) {
        continue;
      }
      Iterator<Map.Entry<String, JsonNode>> entries = headers.fields();
      while (entries.hasNext()) {
        Map.Entry<String, JsonNode> header = entries.next();
        String value = LintedManifest.text(header.getValue());
        if (value != null && LiteralSecrets.inHeader(header.getKey(), value)) {
          findings.add(
              RULE.at(
                  manifest,
                  effect.path() + ".webhook.headers." + header.getKey(),
                  "Cannot keep header '%s' of %s out of the manifest: its value is written"
                      + " literally; take it from the environment, e.g. 'Bearer ${env:BI_TOKEN}'",
                  header.getKey(),
                  where));
        }
      }
    }
    return findings;
  }
}
