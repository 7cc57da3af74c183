package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SourceSplitsRowWiseTest {

  @Test
  void projectionsAndFiltersOfOneScanAreRowWise() {
    assertThat(
            SourceSplits.rowWise(
                """
                LogicalProject(id=[$0], d=[$1])
                  LogicalFilter(condition=[>=($1, 2026-10-03)])
                    LogicalTableScan(table=[[floe, sales, orders]])
                """))
        .isTrue();
    assertThat(SourceSplits.rowWise("LogicalTableScan(table=[[floe, sales, orders]])")).isTrue();
  }

  @Test
  void joinsAggregatesSortsAndUnknownPlansAreNot() {
    assertThat(
            SourceSplits.rowWise(
                """
                LogicalProject(id=[$0])
                  LogicalJoin(condition=[=($0, $2)], joinType=[inner])
                    LogicalTableScan(table=[[floe, sales, orders]])
                    LogicalTableScan(table=[[floe, sales, customers]])
                """))
        .isFalse();
    assertThat(
            SourceSplits.rowWise(
                """
                LogicalAggregate(group=[{0}], n=[COUNT()])
                  LogicalTableScan(table=[[floe, sales, orders]])
                """))
        .isFalse();
    assertThat(
            SourceSplits.rowWise(
                """
                LogicalSort(fetch=[10])
                  LogicalTableScan(table=[[floe, sales, orders]])
                """))
        .isFalse();
    assertThat(SourceSplits.rowWise("LogicalValues(tuples=[[{ 1 }]])")).isFalse();
    assertThat(SourceSplits.rowWise("")).isFalse();
  }
}
