package dev.floe.flink.commit;

import dev.floe.catalog.commit.FailurePoint;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.check.DuplicateKeys;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.accumulators.ListAccumulator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.DataFile;

/**
 * The job's single committer (parallelism 1). Gathers every writer's files, hash and check stats
 * and, at end of input, hands them to {@link SliceCommitter}. Committing inside the job (not from
 * the client) keeps detached {@code flink run} correct. The outcome goes back to the client as an
 * accumulator.
 */
public final class SliceCommitterOperator extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<byte[], Void>, BoundedOneInput {
  public static final String OUTCOME_ACCUMULATOR = "floe-commit-outcome";

  private final CommitPlan plan;

  private transient List<DataFile> files;
  private transient ContentHash hash;
  private transient CheckStats stats;
  private transient DuplicateKeys duplicates;
  private transient ListAccumulator<byte[]> outcome;

  public SliceCommitterOperator(CommitPlan plan) {
    this.plan = plan;
  }

  @Override
  public void open() throws Exception {
    super.open();
    files = new ArrayList<>();
    hash = ContentHash.empty();
    stats = new CheckStats();
    duplicates = new DuplicateKeys();
    outcome = new ListAccumulator<>();
    getRuntimeContext().addAccumulator(OUTCOME_ACCUMULATOR, outcome);
  }

  @Override
  public void processElement(StreamRecord<byte[]> element) {
    CommitMessage message = CommitMessages.decode(element.getValue(), getUserCodeClassloader());
    if (message instanceof CommitMessage.Written written) {
      files.addAll(written.files());
      hash.merge(written.hash());
      stats.merge(written.stats());
    } else if (message instanceof CommitMessage.DuplicateKeyHashes duplicate) {
      duplicates.add(duplicate.checkIndex(), duplicate.hashes());
    }
  }

  @Override
  public void endInput() {
    plan.failAt()
        .failIf(
            FailurePoint.AFTER_ALL_FILES, "after all files of " + plan.target() + " were written");
    org.apache.iceberg.catalog.Catalog catalog = Catalogs.open(plan.catalog());
    try {
      CommitOutcome result =
          new SliceCommitter(catalog, plan).commit(files, hash, stats, duplicates);
      OutcomeLog.log(plan, result);
      outcome.add(CommitMessages.encode(result));
    } finally {
      Catalogs.close(catalog);
    }
  }
}
