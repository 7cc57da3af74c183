package dev.floe.flink.cli;

import dev.floe.catalog.config.Durations;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.snapshot.Tag;
import dev.floe.catalog.snapshot.TagPlan;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `floe tag <table> NAME`: name a snapshot so expiry keeps it. Metadata only. */
@Command(
    name = "tag",
    header = "Tag a snapshot so expiry keeps it.",
    mixinStandardHelpOptions = true,
    description = {
      "Tag the current snapshot (or --snapshot ID) as NAME. Snapshot expiry keeps a tagged",
      "snapshot and its files; with --retain the tag itself is dropped by expiry once the snapshot",
      "is that old. An existing name is refused (tags are never moved), as are main and names",
      "starting with audit- or floe-before-rollback-."
    })
public final class TagCommand implements Callable<Integer> {
  @Mixin CommonOptions common;
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "namespace.table")
  String table;

  @Parameters(index = "1", paramLabel = "NAME", description = "The tag's name.")
  String name;

  @Option(
      names = "--snapshot",
      paramLabel = "ID",
      description = "Tag this snapshot instead of the current one (see `floe snapshots`).")
  Long snapshot;

  @Option(
      names = "--retain",
      paramLabel = "DURATION",
      description =
          "Let snapshot expiry drop the tag once its snapshot is this old (P30D, 12h, ...);"
              + " default: the table's history.expire.max-ref-age-ms if it sets one, else keep it"
              + " until `floe untag`.")
  String retain;

  @Option(
      names = "--dry-run",
      description = "Check and print what would be tagged; change nothing.")
  boolean dryRun;

  @Override
  public Integer call() {
    TagPlan plan =
        common.withTable(
            table,
            loaded -> {
              Tag tag = Tag.of(loaded, table, name);
              if (snapshot != null) {
                tag.snapshot(snapshot);
              }
              if (retain != null) {
                tag.retain(parse(retain));
              }
              return dryRun ? tag.apply() : tag.commit();
            });
    print(plan, spec.commandLine().getOut(), dryRun, common.json);
    return ExitCodes.OK;
  }

  private static Duration parse(String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw InvalidInputException.of("Cannot parse --retain '%s': %s", text, e.getMessage());
    }
  }

  static void print(TagPlan plan, PrintWriter out, boolean dryRun, boolean json) {
    if (json) {
      var map = new java.util.LinkedHashMap<String, Object>();
      map.put("table", plan.table());
      map.put("dry_run", dryRun);
      map.put("action", plan.action().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
      map.putAll(TagsCommand.toMap(plan.tag()));
      out.println(Json.write(map));
      return;
    }
    var tag = plan.tag();
    if (plan.action() == TagPlan.Action.UNCHANGED) {
      out.printf(
          "%s snapshot %d is already tagged %s%s: nothing to do (no-op)%n",
          plan.table(),
          tag.snapshotId(),
          tag.name(),
          // The age expiry applies: the tag's own --retain, else the table's
          // history.expire.max-ref-age-ms.
          tag.maxRefAge() == null
              ? ""
              : " (expiry may drop the tag after " + tag.expiresAt() + ")");
    } else if (plan.action() == TagPlan.Action.ALREADY_REMOVED) {
      out.printf(
          "tag %s of %s is already removed (it named snapshot %d): nothing to do (no-op)%n",
          tag.name(), plan.table(), tag.snapshotId());
    } else if (plan.action() == TagPlan.Action.CREATE) {
      out.printf(
          "%s %s snapshot %d as %s%s%n",
          dryRun ? "would tag" : "tagged",
          plan.table(),
          tag.snapshotId(),
          tag.name(),
          tag.maxRefAge() == null
              ? " (kept until `floe untag`)"
              : " (expiry may drop the tag after "
                  + tag.expiresAt()
                  + ", "
                  + TagsCommand.iso(tag.maxRefAge())
                  + " after the snapshot)");
    } else {
      out.printf(
          "%s tag %s from %s; snapshot %d stays until snapshot expiry drops it%n",
          dryRun ? "would remove" : "removed", tag.name(), plan.table(), tag.snapshotId());
      if (tag.role() == dev.floe.catalog.snapshot.RefEntry.Role.ROLLBACK) {
        out.println(
            "  note: this tag kept the head a rollback left; without it that head can expire");
      }
    }
  }
}
