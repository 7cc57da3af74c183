package dev.floe.catalog.lint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** effect-without-dedup-key and effect-literal-secret. */
class EffectRulesTest {
  @TempDir Path dir;

  private LintFiles jobWithEffects(String effects) {
    LintFiles files = new LintFiles(dir);
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB + "effects:\n" + effects.indent(2));
    return files;
  }

  @Test
  void anEffectWithoutNameIsAFinding() {
    LintFiles files =
        jobWithEffects(
            """
            - webhook: {url: "https://bi.example.com/hook"}
            """);

    assertThat(files.findings(EffectWithoutDedupKey.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(11);
              assertThat(f.key()).isEqualTo("effects[0].name");
              assertThat(f.message()).contains("effects[0]: it has no name");
            });
    assertThat(files.findings(InvalidManifest.RULE)).isEmpty();
  }

  @Test
  void twoEffectsWithOneNameIsAFindingAtTheSecond() {
    LintFiles files =
        jobWithEffects(
            """
            - name: notify
              webhook: {url: "https://bi.example.com/a"}
            - name: notify
              webhook: {url: "https://bi.example.com/b"}
            """);

    assertThat(files.findings(EffectWithoutDedupKey.RULE))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.line()).isEqualTo(13);
              assertThat(f.message()).contains("effect 'notify': effects[0] has the same name");
            });
  }

  @Test
  void namedEffectsAreClean() {
    LintFiles files =
        jobWithEffects(
            """
            - name: notify_bi
              webhook:
                url: "https://bi.example.com/hook"
                headers: {Authorization: "Bearer ${env:BI_TOKEN}", X-Team: data}
            """);

    assertThat(files.lint().findings()).isEmpty();
  }

  @Test
  void aSecretHeaderWrittenLiterallyIsAFindingThatNeverQuotesIt() {
    LintFiles files =
        jobWithEffects(
            """
            - name: notify_bi
              webhook:
                url: "https://bi.example.com/hook"
                headers:
                  X-Api-Key: s3cr3t-value
                  X-Auth: Bearer s3cr3t-token
            """);

    assertThat(files.findings(EffectLiteralSecret.RULE))
        .extracting(Finding::line, Finding::key)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(15, "effects[0].webhook.headers.X-Api-Key"),
            org.assertj.core.groups.Tuple.tuple(16, "effects[0].webhook.headers.X-Auth"));
    assertThat(files.lint().findings())
        .extracting(Finding::message)
        .noneMatch(m -> m.contains("s3cr3t"));
  }

  @Test
  void aUrlWithALiteralTokenIsAFinding() {
    LintFiles files =
        jobWithEffects(
            """
            - name: notify_bi
              webhook: {url: "https://bi.example.com/hook?token=abc123"}
            """);

    assertThat(files.findings(EffectLiteralSecret.RULE))
        .singleElement()
        .satisfies(f -> assertThat(f.message()).doesNotContain("abc123").contains("notify_bi"));
  }

  @Test
  void aSecretWrittenBesideAnEnvReferenceIsAFinding() {
    LintFiles files =
        jobWithEffects(
            """
            - name: notify_bi
              webhook:
                url: "https://${env:HOOK_HOST}/hook?token=abc123secret"
                headers:
                  Authorization: "Bearer abcdef123456 ${env:UNUSED}"
                  X-Auth: "Bearer abc${env:TOKEN_TAIL}"
                  X-Api-Key: "s3cr3t ${env:KEY_TAIL}"
                  X-Amz-Token: "AWS4-HMAC-SHA256 ${env:SIGNATURE}"
                  X-Hmac-Token: "HMAC-SHA256 ${env:SIGNATURE}"
                  X-Goog-Token: "GOOG1 ${env:ACCESS}:${env:SECRET}"
                  X-Key-Token: "Api_Key ${env:KEY}"
                  X-Colon-Token: "Bearer: ${env:TOKEN}"
                  X-Scram-Token: "SCRAM-SHA-256 ${env:PROOF}"
                  X-Sigv4a-Token: "AWS4-ECDSA-P256-SHA256 ${env:SIGNATURE}"
                  X-Stripe-Key: "sk_live_4eC39HqLyjWD ${env:TAIL}"
                  X-Slack-Token: "xoxb-1234-5678-abcdEF ${env:TAIL}"
                  X-Uuid-Key: "e4567b12-e89b-12d3-a456-426614174000 ${env:TAIL}"
            """);

    // s3cr3t is no scheme: a word with digits is part of the credential.
    assertThat(files.findings(EffectLiteralSecret.RULE))
        .extracting(Finding::key)
        .containsExactly(
            "effects[0].webhook.url",
            "effects[0].webhook.headers.Authorization",
            "effects[0].webhook.headers.X-Auth",
            "effects[0].webhook.headers.X-Api-Key",
            "effects[0].webhook.headers.X-Stripe-Key",
            "effects[0].webhook.headers.X-Slack-Token",
            "effects[0].webhook.headers.X-Uuid-Key");
    assertThat(files.lint().findings())
        .extracting(Finding::message)
        .noneMatch(
            m ->
                m.contains("abc123")
                    || m.contains("abcdef")
                    || m.contains("s3cr3t")
                    || m.contains("sk_live"));
  }

  @Test
  void aSecretTakenWholeFromTheEnvironmentIsClean() {
    LintFiles files =
        jobWithEffects(
            """
            - name: notify_bi
              webhook:
                url: "https://${env:HOOK_HOST}/hook?token=${env:HOOK_TOKEN}&team=data"
                headers:
                  Authorization: "Basic ${env:HOOK_USER}:${env:HOOK_PASSWORD}"
                  X-Api-Key: "${env:HOOK_KEY}"
                  X-Forwarded-Host: "${env:HOOK_HOST}.example.com"
            - name: notify_ops
              webhook: {url: "https://hook:${env:HOOK_PASSWORD}@ops.example.com/${env:PATH}?v=1"}
            """);

    assertThat(files.findings(EffectLiteralSecret.RULE)).isEmpty();
  }

  @Test
  void aUrlWithAKeyParameterWrittenLiterallyIsAFindingAsAHeaderNamedKeyIs() {
    LintFiles files =
        jobWithEffects(
            """
            - name: a
              webhook: {url: "https://bi.example.com/hook?api_key=abc123"}
            - name: b
              webhook: {url: "https://bi.example.com/hook?team=data&apikey=abc123"}
            - name: c
              webhook: {url: "https://bi.example.com/hook?key=abc123#top"}
            - name: d
              webhook: {url: "https://bi.example.com/hook?access_token=abc123"}
            - name: e
              webhook: {url: "https://bi.example.com/hook?keyword=x&key=${env:HOOK_KEY}"}
            """);

    assertThat(files.findings(EffectLiteralSecret.RULE))
        .extracting(Finding::key)
        .containsExactly(
            "effects[0].webhook.url",
            "effects[1].webhook.url",
            "effects[2].webhook.url",
            "effects[3].webhook.url");
  }

  @Test
  void aLabelBeforeAReferenceAndADataParameterNamedKeyAreClean() {
    LintFiles files =
        jobWithEffects(
            """
            - name: fcm
              webhook:
                url: "https://fcm.example.com/send?partition_key=region&sort_key=day"
                headers:
                  Authorization: "key=${env:FCM_KEY}"
            - name: rails
              webhook:
                url: "https://app.example.com/hook"
                headers:
                  Authorization: "Token token=${env:APP_TOKEN}"
            """);

    assertThat(files.findings(EffectLiteralSecret.RULE)).isEmpty();
  }

  @Test
  void aBackfillsOnDoneWebhookIsCheckedToo() {
    LintFiles files = new LintFiles(dir);
    files.write("jobs/daily.yaml", LintFiles.DAILY_JOB);
    files.write(
        "backfills/january.yaml",
        LintFiles.BACKFILL
            + """
            on_backfill_done:
              - webhook:
                  url: "https://bi.example.com/hook"
                  headers: {Authorization: "Basic dXNlcjpwYXNz"}
            """);

    assertThat(files.lint().findings())
        .extracting(Finding::rule)
        .containsExactlyInAnyOrder("effect-without-dedup-key", "effect-literal-secret");
  }
}
