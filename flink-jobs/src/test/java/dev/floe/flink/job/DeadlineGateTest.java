package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.floe.catalog.config.CatalogConfig;
import dev.floe.catalog.config.CatalogConfigLoader;
import dev.floe.catalog.config.Catalogs;
import dev.floe.catalog.error.ExitCodes;
import dev.floe.catalog.error.FloeException;
import dev.floe.catalog.error.TimedOutException;
import dev.floe.catalog.lineage.ContentHash;
import dev.floe.catalog.testing.TableRows;
import dev.floe.flink.check.CheckStats;
import dev.floe.flink.commit.CommitMessage;
import dev.floe.flink.commit.CommitMessages;
import dev.floe.flink.session.FlinkSessions;
import dev.floe.flink.session.LocalCluster;
import dev.floe.flink.testing.ExampleTables;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.SerializableTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate in front of a run's committer: the last word on whether a commit may start, inside the
 * job, whatever the client does. Driven with a writer's message for a real data file.
 */
class DeadlineGateTest {
  private static final String SUBJECT = "run fact_orders_backfill for 2026-01-01";

  private static LocalCluster cluster;

  @TempDir Path home;
  private Catalog catalog;
  private Table table;
  private DataFile written;

  @BeforeAll
  static void startTheCluster() {
    cluster = LocalCluster.start(1);
  }

  @AfterAll
  static void stopTheCluster() {
    cluster.close();
  }

  @BeforeEach
  void writeAnUncommittedFile() {
    CatalogConfig config = CatalogConfigLoader.embedded(home);
    new ExampleTables(config).createOrders(LocalDate.parse("2026-01-01"), 1, 1);
    catalog = Catalogs.open(config);
    table = Catalogs.loadTable(catalog, ExampleTables.FACT_ORDERS);
    written =
        TableRows.write(
            table,
            TableRows.row(
                table,
                Map.of(
                    "order_id",
                    1L,
                    "amount",
                    new BigDecimal("1.00"),
                    "order_date",
                    LocalDate.parse("2026-01-01"))));
  }

  @AfterEach
  void closeTheCatalog() {
    Catalogs.close(catalog);
  }

  @Test
  void pastTheDeadlineItDeletesTheWrittenFilesAndFailsTheJobBeforeTheCommit() {
    Deadline passed =
        new Deadline(System.currentTimeMillis() - 1, "timed out after 1s (--timeout)");

    FloeException failure = JobFailures.findFloeException(catchThrowable(() -> runGate(passed)));

    assertThat(failure)
        .isInstanceOf(TimedOutException.class)
        .hasMessage(
            "Cannot run fact_orders_backfill for 2026-01-01: timed out after 1s (--timeout) before"
                + " its commit started; the 1 file(s) it wrote were deleted and nothing was"
                + " committed");
    assertThat(failure.exitCode()).isEqualTo(ExitCodes.TIMED_OUT);
    assertThat(table.io().newInputFile(written.location()).exists()).isFalse();
  }

  @Test
  void beforeTheDeadlineItPassesEverythingOnAndDeletesNothing() throws Exception {
    runGate(new Deadline(System.currentTimeMillis() + 600_000, "timed out after 10m (--timeout)"));

    assertThat(table.io().newInputFile(written.location()).exists()).isTrue();
  }

  /**
   * The gate's end-of-input check is the last thing before the commit only if gate and committer
   * share a task: set up as {@link SliceJob} sets up its committer, they chain.
   */
  @Test
  void theGateIsChainedToTheCommitterAfterIt() {
    StreamExecutionEnvironment env = FlinkSessions.batchEnvironment(2);
    DeadlineGate.beforeCommit(
            env.fromData(
                    List.of(new byte[0]), PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                .rebalance(),
            new Deadline(Long.MAX_VALUE, "never"),
            SUBJECT,
            SerializableTable.copyOf(table))
        .transform("committer", Types.VOID, new Committer())
        .setParallelism(1)
        .setMaxParallelism(1)
        .sinkTo(new DiscardingSink<>())
        .setParallelism(1);

    List<String> tasks = new ArrayList<>();
    env.getStreamGraph().getJobGraph().getVertices().forEach(v -> tasks.add(v.getName()));

    assertThat(tasks)
        .hasSize(2)
        .anySatisfy(t -> assertThat(t).contains("floe-deadline", "committer"));
  }

  /** Stands for a committer: a one-input operator like SliceCommitterOperator. */
  private static final class Committer extends AbstractStreamOperator<Void>
      implements OneInputStreamOperator<byte[], Void> {
    @Override
    public void processElement(StreamRecord<byte[]> element) {}
  }

  private void runGate(Deadline deadline) throws Exception {
    StreamExecutionEnvironment env = FlinkSessions.batchEnvironment(1);
    byte[] message =
        CommitMessages.encode(
            new CommitMessage.Written(0, List.of(written), ContentHash.empty(), new CheckStats()));
    DeadlineGate.beforeCommit(
            env.fromData(List.of(message), PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO),
            deadline,
            SUBJECT,
            SerializableTable.copyOf(table))
        .sinkTo(new DiscardingSink<>());
    env.execute("deadline gate");
  }
}
