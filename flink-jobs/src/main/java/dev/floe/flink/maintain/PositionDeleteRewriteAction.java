package dev.floe.flink.maintain;

import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.maintain.ActionOutcome;
import dev.floe.catalog.maintain.MaintenanceAction;
import dev.floe.catalog.maintain.MaintenanceReport;
import dev.floe.catalog.maintain.TableStats;
import dev.floe.catalog.slice.Slice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;

/**
 * {@code floe maintain TABLE --rewrite-position-deletes [--slice ...]} as one of the command's
 * {@link MaintenanceAction}s: a {@link PositionDeleteRewrite} per slice (one commit each), with the
 * table's numbers before and after. Without slices it takes every time slice holding position
 * delete files, and reports (skips) the partitions that lie in no time slice. A slice that fails (a
 * commit conflict, exit 4, or another of our errors) is reported and the others go on; {@link
 * #exitCode()} says so after {@link #run}. A format v3 table still holding position delete files is
 * refused up front (exit 2).
 */
public final class PositionDeleteRewriteAction implements MaintenanceAction {
  /** What a dry run can only estimate: the metadata the new snapshots need. */
  static final Set<String> ESTIMATED = Set.of("manifests", "metadataFiles", "metadataBytes");

  private final Table table;
  private final String name;
  private final List<String> values;
  private List<SliceRewrite> slices = List.of();

  /**
   * What happened to one slice.
   *
   * @param slice the slice as given (or as picked, {@code column=value})
   * @param label the resolved slice's label
   * @param status {@code rewrote}, {@code would rewrite}, {@code nothing to rewrite} or {@code
   *     failed}
   * @param result the counts (zero when there was nothing to do or the commit failed)
   * @param exitCode 0, or the failure's exit code
   * @param detail the failure's message, else empty
   */
  public record SliceRewrite(
      String slice,
      String label,
      String status,
      PositionDeleteRewrite.Result result,
      int exitCode,
      String detail) {}

  private PositionDeleteRewriteAction(Table table, String name, List<String> values) {
    this.table = table;
    this.name = name;
    this.values = List.copyOf(values);
  }

  /**
   * @param table the table
   * @param name its name, for messages and lineage
   * @param slices slices as {@code --slice} takes them; empty for every slice with position deletes
   */
  public static PositionDeleteRewriteAction of(Table table, String name, List<String> slices) {
    return new PositionDeleteRewriteAction(table, name, slices);
  }

  @Override
  public String name() {
    return "rewrite-position-deletes";
  }

  @Override
  public void check() {
    if (!values.isEmpty()) {
      CompactionSlices.resolve(name, table, values);
    }
    PositionDeleteRewrite.of(table, name).checkFormat();
  }

  @Override
  public MaintenanceReport run(boolean dryRun) {
    TableStats before = TableStats.of(table);
    PositionDeleteRewrite rewrite = PositionDeleteRewrite.of(table, name);
    rewrite.checkFormat();
    List<SliceRewrite> outcomes = new ArrayList<>();
    List<String> given = values;
    if (values.isEmpty()) {
      PositionDeleteRewrite.Found found = rewrite.slicesWithPositionDeletes();
      given = found.slices();
      for (String partition : found.noSlice()) {
        outcomes.add(
            new SliceRewrite(
                partition,
                partition,
                "skipped",
                new PositionDeleteRewrite.Result(0, 0, 0, 0, null),
                ExitCodes.OK,
                "partition "
                    + partition
                    + " lies in no time slice (a null or non-time partition value); its position"
                    + " delete files are left as they are"));
      }
    }
    List<Slice> resolved =
        given.isEmpty() ? List.of() : CompactionSlices.resolve(name, table, given);
    for (int i = 0; i < resolved.size(); i++) {
      Slice slice = resolved.get(i);
      try {
        PositionDeleteRewrite.Result result =
            dryRun ? rewrite.apply(slice) : rewrite.rewrite(slice);
        String status =
            result.replaced() == 0 ? "nothing to rewrite" : dryRun ? "would rewrite" : "rewrote";
        outcomes.add(new SliceRewrite(given.get(i), slice.label(), status, result, 0, ""));
      } catch (FloeException e) {
        // a conflict (exit 4) or any other typed failure: reported, the other slices go on
        outcomes.add(
            new SliceRewrite(
                given.get(i),
                slice.label(),
                "failed",
                new PositionDeleteRewrite.Result(0, 0, 0, 0, null),
                e.exitCode(),
                e.getMessage()));
      }
    }
    slices = List.copyOf(outcomes);
    TableStats after = dryRun ? predicted(before, slices) : TableStats.of(table);
    return new MaintenanceReport(
        name(), dryRun, before, after, dryRun ? ESTIMATED : Set.of(), new Outcome(slices));
  }

  /** The exit code of the last run: 0 unless a slice failed (then the first failure's code). */
  public int exitCode() {
    return slices.stream()
        .mapToInt(SliceRewrite::exitCode)
        .filter(code -> code != 0)
        .findFirst()
        .orElse(ExitCodes.OK);
  }

  /** The last run's slices, empty before {@link #run}. */
  public List<SliceRewrite> slices() {
    return slices;
  }

  /** One more snapshot per slice with work, its delete files replaced by the ones it writes. */
  static TableStats predicted(TableStats before, List<SliceRewrite> slices) {
    int commits = 0;
    long deletes = before.deleteFiles();
    for (SliceRewrite slice : slices) {
      if (slice.result().replaced() > 0) {
        commits++;
        deletes += slice.result().written() - slice.result().replaced();
      }
    }
    return new TableStats(
        before.snapshots() + commits,
        before.dataFiles(),
        before.dataBytes(),
        deletes,
        before.manifests(),
        before.metadataFiles(),
        before.metadataBytes());
  }

  private record Outcome(List<SliceRewrite> slices) implements ActionOutcome {
    @Override
    public boolean changed() {
      return slices.stream().anyMatch(s -> s.result().snapshotId() != null);
    }

    @Override
    public List<String> lines() {
      List<String> lines = new ArrayList<>();
      if (slices.isEmpty()) {
        lines.add("nothing to rewrite: no position delete files");
      }
      for (SliceRewrite slice : slices) {
        PositionDeleteRewrite.Result r = slice.result();
        String what =
            switch (slice.status()) {
              case "failed" -> "failed (exit " + slice.exitCode() + "): " + slice.detail();
              case "skipped" -> "skipped: " + slice.detail();
              case "nothing to rewrite" ->
                  "nothing to rewrite: every partition has at most one position delete file and"
                      + " no entry naming a data file that is gone";
              default ->
                  String.format(
                      "%s %d position delete file(s) -> %d; %d entr%s kept, %d dangling dropped%s",
                      slice.status(),
                      r.replaced(),
                      r.written(),
                      r.kept(),
                      r.kept() == 1 ? "y" : "ies",
                      r.dropped(),
                      r.snapshotId() == null ? "" : "; snapshot " + r.snapshotId());
            };
        lines.add(String.format("%-14s %s", slice.slice(), what));
      }
      return lines;
    }

    @Override
    public Map<String, Object> details() {
      List<Map<String, Object>> entries = new ArrayList<>();
      for (SliceRewrite slice : slices) {
        PositionDeleteRewrite.Result r = slice.result();
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("slice", slice.slice());
        entry.put("label", slice.label());
        entry.put("status", slice.status());
        entry.put("delete_files_in", r.replaced());
        entry.put("delete_files_out", r.written());
        entry.put("entries_kept", r.kept());
        entry.put("dangling_entries_dropped", r.dropped());
        entry.put("snapshot_id", r.snapshotId());
        entry.put("exit_code", slice.exitCode());
        entry.put("detail", slice.detail());
        entries.add(entry);
      }
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("slices", entries);
      return Map.of("position_deletes", map);
    }
  }
}
