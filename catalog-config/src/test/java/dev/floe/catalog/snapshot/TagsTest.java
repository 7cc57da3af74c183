package dev.floe.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.InvalidInputException;
import dev.floe.catalog.lineage.AuditBranch;
import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.InterceptedTable;
import dev.floe.catalog.testing.PastedCommand;
import dev.floe.catalog.testing.TableRows;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Tags on a real table: created, listed with Floe's roles and lineage, removed, and refused. */
class TagsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "d", Types.DateType.get()));

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;
  private long first;
  private long second;

  /** Two snapshots; the second one is a Floe commit with lineage. */
  @BeforeEach
  void twoSnapshots() {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("d").build());
    TableRows.append(table, row(1, "2026-10-01"));
    first = table.currentSnapshot().snapshotId();
    table
        .newAppend()
        .appendFile(TableRows.write(table, row(2, "2026-10-02")))
        .set("floe.run-id", "r2")
        .set("floe.job", "daily")
        .set("floe.slice", "d=[2026-10-02,2026-10-03)")
        .commit();
    second = table.currentSnapshot().snapshotId();
  }

  @Test
  void aTagNamesTheCurrentSnapshotAndRetainSetsItsMaxRefAge() {
    TagPlan plan = Tag.of(table, "s.t", "month-end").retain(Duration.ofDays(30)).commit();
    table.refresh();

    assertThat(plan.tag().snapshotId()).isEqualTo(second);
    assertThat(table.refs().get("month-end").isTag()).isTrue();
    assertThat(table.refs().get("month-end").snapshotId()).isEqualTo(second);
    assertThat(table.refs().get("month-end").maxRefAgeMs())
        .isEqualTo(Duration.ofDays(30).toMillis());
  }

  @Test
  void aTagOrUntagWhoseAnswerTheCatalogLostIsReportedDone() {
    RESTException lost = new RESTException("Error occurred while processing POST request");

    TagPlan tagged = Tag.of(InterceptedTable.answersLost(table, lost), "s.t", "month-end").commit();
    table.refresh();
    assertThat(tagged.action()).isEqualTo(TagPlan.Action.CREATE);
    assertThat(table.refs().get("month-end").snapshotId()).isEqualTo(second);

    TagPlan untagged =
        Untag.of(InterceptedTable.answersLost(table, lost), "s.t", "month-end").commit();
    table.refresh();
    assertThat(untagged.action()).isEqualTo(TagPlan.Action.REMOVE);
    assertThat(table.refs()).doesNotContainKey("month-end");
  }

  @Test
  void aTagThatTheCatalogNeverCommittedStillFails() {
    RESTException refused = new RESTException("Error occurred while processing POST request");

    assertThatThrownBy(
            () -> Tag.of(InterceptedTable.commitsFail(table, refused), "s.t", "month-end").commit())
        .isSameAs(refused);
    table.refresh();
    assertThat(table.refs()).doesNotContainKey("month-end");
  }

  @Test
  void aTagCanNameAnOlderSnapshotAndADryRunCreatesNothing() {
    TagPlan dryRun = Tag.of(table, "s.t", "before").snapshot(first).apply();
    table.refresh();
    assertThat(table.refs()).doesNotContainKey("before");
    assertThat(dryRun.tag().snapshotId()).isEqualTo(first);

    Tag.of(table, "s.t", "before").snapshot(first).commit();
    table.refresh();
    assertThat(table.refs().get("before").snapshotId()).isEqualTo(first);
    assertThat(table.refs().get("before").maxRefAgeMs()).isNull();
  }

  @Test
  void theListShowsTagsAndBranchesWithTheirRolesAndLineage() {
    Rollback.of(table, "s.t").toSnapshot(first).commit();
    table.refresh();
    table.manageSnapshots().createBranch("audit-r9", first).commit();
    Tag.of(table, "s.t", "mine").snapshot(second).retain(Duration.ofDays(7)).commit();
    table.refresh();

    List<RefEntry> refs = Tags.list(table);

    assertThat(refs)
        .extracting(RefEntry::name)
        .containsExactly("main", "audit-r9", "floe-before-rollback-1", "mine");
    assertThat(refs)
        .extracting(RefEntry::role)
        .containsExactly(
            RefEntry.Role.MAIN, RefEntry.Role.AUDIT, RefEntry.Role.ROLLBACK, RefEntry.Role.USER);
    assertThat(refs)
        .extracting(RefEntry::kind)
        .containsExactly(
            RefEntry.Kind.BRANCH, RefEntry.Kind.BRANCH, RefEntry.Kind.TAG, RefEntry.Kind.TAG);
    RefEntry mine = refs.get(3);
    assertThat(mine.snapshotId()).isEqualTo(second);
    assertThat(mine.snapshotTimestampMillis()).isEqualTo(table.snapshot(second).timestampMillis());
    assertThat(mine.maxRefAge()).isEqualTo(Duration.ofDays(7));
    assertThat(mine.expiresAt().toEpochMilli())
        .isEqualTo(table.snapshot(second).timestampMillis() + Duration.ofDays(7).toMillis());
    assertThat(mine.lineage()).isPresent();
    assertThat(mine.lineage().get().runId()).isEqualTo("r2");
    assertThat(mine.lineage().get().job()).isEqualTo("daily");
    assertThat(refs.get(0).lineage()).isEmpty(); // main is back at the first, non-Floe snapshot
  }

  @Test
  void theUntagHintQuotesATableAndTagThatAShellWouldSplitOrExpand() {
    String name = "s.order items";
    String tag = "q4 close's $HOME";
    Tag.of(table, name, tag).snapshot(first).commit();
    table.refresh();

    assertThatThrownBy(() -> Tag.of(table, name, tag).apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("a tag named " + tag + " already points at snapshot " + first)
        .hasMessageContaining(
            "(remove it first with `floe untag 's.order items' 'q4 close'\\''s $HOME'`)")
        .satisfies(
            e ->
                assertThat(PastedCommand.words(hint(e.getMessage(), "floe untag")))
                    .containsExactly("floe", "untag", name, tag));
    assertThatThrownBy(() -> Tag.of(table, name, "x").snapshot(42L).apply())
        .hasMessageContaining("see `floe snapshots 's.order items'`)");
  }

  /** The command between backquotes in {@code message} that starts with {@code start}. */
  static String hint(String message, String start) {
    int from = message.indexOf("`" + start);
    assertThat(from).as(message).isNotNegative();
    return message.substring(from + 1, message.indexOf('`', from + 1));
  }

  @Test
  void aTagIsNeverMovedNorNamedLikeABranchOrAFloeTag() {
    Tag.of(table, "s.t", "keep").snapshot(first).commit();
    table.manageSnapshots().createBranch("dev", first).commit();
    table.refresh();

    assertThatThrownBy(() -> Tag.of(table, "s.t", "keep").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("a tag named keep already points at snapshot " + first)
        .hasMessageContaining("floe untag s.t keep");
    assertThatThrownBy(() -> Tag.of(table, "s.t", "dev").apply())
        .hasMessageContaining("a branch named dev already points at snapshot " + first);
    assertThatThrownBy(() -> Tag.of(table, "s.t", "main").apply())
        .hasMessageContaining("Cannot tag s.t as main: main is the table's main branch");
    assertThatThrownBy(() -> Tag.of(table, "s.t", "-x").apply())
        .hasMessage(
            "Cannot tag s.t as -x: a name starting with '-' reads as an option on floe's command"
                + " line");
    assertThatThrownBy(() -> Tag.of(table, "s.t", "audit-x").apply())
        .hasMessageContaining("reserved for write-audit-publish branches");
    assertThatThrownBy(() -> Tag.of(table, "s.t", "floe-before-rollback-7").apply())
        .hasMessageContaining("reserved for the tags `floe rollback` makes");
    assertThatThrownBy(() -> Tag.of(table, "s.t", "x").snapshot(42L).apply())
        .hasMessageContaining("Cannot tag s.t as x at snapshot 42: no such snapshot");
    assertThatThrownBy(() -> Tag.of(table, "s.t", "x").retain(Duration.ZERO).apply())
        .hasMessageContaining("the retention must be at least a millisecond");
    assertThatThrownBy(() -> Tag.of(table, "s.t", "x").retain(Duration.ofNanos(1_500_000)).apply())
        .as("1.5 ms would be kept as 1 ms")
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Iceberg keeps a tag's retention in whole milliseconds");
    // Past what a long of milliseconds holds: refused as input, not an arithmetic overflow.
    assertThatThrownBy(
            () -> Tag.of(table, "s.t", "x").retain(Duration.ofDays(999_999_999_999L)).apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("at most P365250D (1,000 years)");
    assertThat(Tag.of(table, "s.t", "x").retain(Tag.MAX_RETAIN).apply().tag().snapshotId())
        .isEqualTo(table.currentSnapshot().snapshotId());
    table.refresh();
    assertThat(table.refs().get("keep").snapshotId()).isEqualTo(first);
  }

  @Test
  void aRerunOfTheSameTagIsANoOpButAnotherSnapshotOrRetentionIsRefused() {
    Tag.of(table, "s.t", "month-end").retain(Duration.ofDays(30)).commit();
    table.refresh();
    String metadata = metadataLocation();

    TagPlan rerun = Tag.of(table, "s.t", "month-end").retain(Duration.ofDays(30)).commit();
    table.refresh();

    assertThat(rerun.action()).isEqualTo(TagPlan.Action.UNCHANGED);
    assertThat(rerun.tag().snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    assertThat(metadataLocation()).as("nothing committed").isEqualTo(metadata);
    long head = table.currentSnapshot().snapshotId();
    assertThatThrownBy(() -> Tag.of(table, "s.t", "month-end").apply())
        .hasMessageContaining(
            "Cannot tag s.t as month-end without --retain: tag month-end already names snapshot "
                + head
                + " with --retain P30D; a tag's retention is never changed");
    assertThatThrownBy(() -> Tag.of(table, "s.t", "month-end").retain(Duration.ofDays(7)).apply())
        .hasMessageContaining(
            "Cannot tag s.t as month-end with --retain P7D: tag month-end already names snapshot "
                + head
                + " with --retain P30D");
    assertThatThrownBy(() -> Tag.of(table, "s.t", "month-end").snapshot(first).apply())
        .hasMessageContaining("a tag named month-end already points at snapshot " + head);
    // A retention out of range is refused as such, not taken for the tag's own.
    Tag.of(table, "s.t", "plain").commit();
    table.refresh();
    assertThatThrownBy(
            () -> Tag.of(table, "s.t", "plain").retain(Duration.ofDays(999_999_999_999L)).apply())
        .hasMessageContaining("at most P365250D (1,000 years)");
  }

  private String metadataLocation() {
    return ((org.apache.iceberg.HasTableOperations) table)
        .operations()
        .current()
        .metadataFileLocation();
  }

  @Test
  void anEmptyTableCannotBeTagged() {
    Table empty = catalog.create("s.empty", SCHEMA, PartitionSpec.unpartitioned());

    assertThatThrownBy(() -> Tag.of(empty, "s.empty", "x").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot tag s.empty as x: the table has no snapshots yet");
  }

  @Test
  void untagRemovesATagButNoBranch() {
    Tag.of(table, "s.t", "keep").snapshot(first).commit();
    table.manageSnapshots().createBranch("audit-r1", first).commit();
    table.manageSnapshots().createBranch("dev", first).commit();
    table.refresh();

    TagPlan dryRun = Untag.of(table, "s.t", "keep").apply();
    table.refresh();
    assertThat(table.refs()).containsKey("keep");
    assertThat(dryRun.tag().snapshotId()).isEqualTo(first);

    Untag.of(table, "s.t", "keep").commit();
    table.refresh();
    assertThat(table.refs()).doesNotContainKey("keep");
    assertThat(table.snapshot(first)).isNotNull();

    assertThatThrownBy(() -> Untag.of(table, "s.t", "kep").apply())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "Cannot untag kep from s.t: no tag named kep, nor in the 6 earlier metadata"
                + " version(s) read");
    assertThatThrownBy(() -> Untag.of(table, "s.t", "main").apply())
        .hasMessageContaining("main is the table's main branch, not a tag");
    assertThatThrownBy(() -> Untag.of(table, "s.t", "audit-r1").apply())
        .hasMessageContaining("it is an audit branch, not a tag; use `floe discard`");
    assertThatThrownBy(() -> Untag.of(table, "s.t", "dev").apply())
        .hasMessageContaining("it is a branch, not a tag");
    table.refresh();
    assertThat(table.refs()).containsKeys("main", "audit-r1", "dev");
  }

  @Test
  void aRetriedUntagFindsTheTagInARecentMetadataVersionAndChangesNothing() {
    Tag.of(table, "s.t", "keep").snapshot(first).commit();
    Untag.of(table, "s.t", "keep").commit();
    table.manageSnapshots().createBranch("dev", first).commit();
    table.refresh();
    String metadataBefore = metadataLocation();

    TagPlan rerun = Untag.of(table, "s.t", "keep").commit();
    table.refresh();

    assertThat(rerun.action()).isEqualTo(TagPlan.Action.ALREADY_REMOVED);
    assertThat(rerun.tag().snapshotId()).isEqualTo(first);
    assertThat(metadataLocation()).isEqualTo(metadataBefore);
  }

  @Test
  void anUntagRacingAnotherUntagOfTheSameTagFindsItsGoalReached() {
    Tag.of(table, "s.t", "keep").snapshot(first).commit();
    table.refresh();
    Table stale =
        catalog.catalog().loadTable(org.apache.iceberg.catalog.TableIdentifier.parse("s.t"));
    Untag.of(table, "s.t", "keep").commit();

    TagPlan second = Untag.of(stale, "s.t", "keep").commit();

    assertThat(second.action()).isEqualTo(TagPlan.Action.ALREADY_REMOVED);
  }

  @Test
  void anUntagWhoseCommitLosesToTheSameUntagReportsItAlreadyRemoved() {
    Tag.of(table, "s.t", "keep").snapshot(first).commit();
    // The other process removes the tag between this one's plan and its commit, whose
    // compare-and-set then fails: the identical refs were taken for this commit's own change,
    // reported as "remove" with a warning that its answer was lost.
    Table racing =
        InterceptedTable.beforeEachCommit(
            catalog.load("s.t"),
            attempt -> {
              if (attempt == 0) {
                // In another millisecond than this commit's metadata was made: two versions of
                // one millisecond cannot be told apart (LostAnswerCheck.written).
                sleep(5);
                Untag.of(catalog.load("s.t"), "s.t", "keep").commit();
              }
            });

    TagPlan loser = Untag.of(racing, "s.t", "keep").commit();

    assertThat(loser.action()).isEqualTo(TagPlan.Action.ALREADY_REMOVED);
    table.refresh();
    assertThat(table.refs()).doesNotContainKey("keep");
  }

  @Test
  void tagUntagAndDiscardCommitWhenAnotherCommitLandsBetweenTheirPlanAndTheirCommit() {
    Tag.of(table, "s.t", "old").snapshot(first).commit();
    table.manageSnapshots().createBranch(AuditBranch.of("r9"), first).commit();
    // A table read before another writer's commits, as a command's load racing a nightly run.
    Table stale = catalog.load("s.t");
    TableRows.append(table, row(3, "2026-10-03"));
    Tag.of(table, "s.t", "unrelated").commit();

    assertThat(Tag.of(stale, "s.t", "month-end").snapshot(second).commit().action())
        .isEqualTo(TagPlan.Action.CREATE);
    assertThat(Untag.of(stale, "s.t", "old").commit().action()).isEqualTo(TagPlan.Action.REMOVE);
    assertThat(Discard.of(stale, "s.t").run("r9").commit().role())
        .isEqualTo(DiscardPlan.Role.AUDIT);

    table.refresh();
    assertThat(table.refs()).containsKeys("month-end", "unrelated").doesNotContainKeys("old");
    assertThat(table.refs()).doesNotContainKey(AuditBranch.of("r9"));
    assertThat(table.refs().get("month-end").snapshotId()).isEqualTo(second);
    assertThat(table.currentSnapshot().summary()).containsEntry("added-records", "1");
  }

  @Test
  void aTagWhoseCommitAnswerWasLostIsACommitOfUnknownState() {
    Table lost =
        InterceptedTable.commitsFail(
            catalog.load("s.t"),
            new org.apache.iceberg.exceptions.CommitStateUnknownException(
                new RuntimeException("504 from the catalog")));

    assertThatThrownBy(() -> Tag.of(lost, "s.t", "m").commit())
        .isInstanceOf(dev.floe.catalog.error.CommitStateUnknownException.class)
        .hasMessageStartingWith("Cannot tell whether tag s.t as m was committed");
  }

  @Test
  void tagsUntagsAndDiscardsRacingEachOtherAllLand() throws Exception {
    for (int i = 0; i < 4; i++) {
      Tag.of(table, "s.t", "old-" + i).snapshot(first).commit();
      // Audited runs a0..a3 (main holds run r2: discard refuses a run main holds).
      table.manageSnapshots().createBranch(AuditBranch.of("a" + i), first).commit();
    }
    List<Callable<Object>> commands = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      // Each with its own table, as separate `floe` processes have.
      Table own = catalog.load("s.t");
      Table own2 = catalog.load("s.t");
      Table own3 = catalog.load("s.t");
      String n = String.valueOf(i);
      commands.add(() -> Tag.of(own, "s.t", "new-" + n).commit());
      commands.add(() -> Untag.of(own2, "s.t", "old-" + n).commit());
      commands.add(() -> Discard.of(own3, "s.t").run("a" + n).commit());
    }
    ExecutorService pool = Executors.newFixedThreadPool(commands.size());
    try {
      for (Future<Object> done : pool.invokeAll(commands)) {
        done.get();
      }
    } finally {
      pool.shutdownNow();
    }

    table.refresh();
    assertThat(table.refs().keySet())
        .containsExactlyInAnyOrder("main", "new-0", "new-1", "new-2", "new-3");
  }

  @Test
  void aTagRacingTheSameTagFindsItThereAndAnotherSnapshotsTagIsRefused() {
    Table stale = catalog.load("s.t");
    Table staler = catalog.load("s.t");
    Tag.of(table, "s.t", "t").snapshot(second).commit();

    assertThat(Tag.of(stale, "s.t", "t").snapshot(second).commit().action())
        .isEqualTo(TagPlan.Action.UNCHANGED);
    assertThatThrownBy(() -> Tag.of(staler, "s.t", "t").snapshot(first).commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("a tag named t already points at snapshot " + second);
  }

  @Test
  void aRetriedUntagOfATagWhoseSnapshotExpiredShowsTheSnapshotAsTheEarlierVersionHadIt() {
    Tag.of(table, "s.t", "keep").snapshot(first).commit();
    table.refresh();
    long committedAt = table.snapshot(first).timestampMillis();
    Untag.of(table, "s.t", "keep").commit();
    table.expireSnapshots().expireSnapshotId(first).cleanExpiredFiles(false).commit();
    table.refresh();
    assertThat(table.snapshot(first)).isNull();

    TagPlan rerun = Untag.of(table, "s.t", "keep").apply();

    assertThat(rerun.action()).isEqualTo(TagPlan.Action.ALREADY_REMOVED);
    assertThat(rerun.tag().snapshotTimestampMillis()).isEqualTo(committedAt);
  }

  @Test
  void aTagRemovedAsManyMetadataVersionsAgoAsUntagReadsIsFound() {
    Tag.of(table, "s.t", "keep").snapshot(first).commit();
    Untag.of(table, "s.t", "keep").commit();
    // The 10 versions before the current one: 8 of these, the untag's, and the tag's.
    for (int i = 0; i < Untag.RECENT_VERSIONS - 1; i++) {
      table.updateProperties().set("n", String.valueOf(i)).commit();
    }
    table.refresh();

    assertThat(Untag.of(table, "s.t", "keep").apply().action())
        .isEqualTo(TagPlan.Action.ALREADY_REMOVED);
  }

  @Test
  void aTagRemovedMoreMetadataVersionsAgoThanUntagReadsIsRefusedAsUnknown() {
    Tag.of(table, "s.t", "keep").snapshot(first).commit();
    Untag.of(table, "s.t", "keep").commit();
    for (int i = 0; i < Untag.RECENT_VERSIONS; i++) {
      table.updateProperties().set("n", String.valueOf(i)).commit();
    }
    table.refresh();

    assertThatThrownBy(() -> Untag.of(table, "s.t", "keep").commit())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("Cannot untag keep from s.t: no tag named keep");
  }

  private org.apache.iceberg.data.Record row(long id, String day) {
    return TableRows.row(table, Map.of("id", id, "d", LocalDate.parse(day)));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
