package dev.floe.flink.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.catalog.error.CheckFailedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

class SourceBatchTest {
  private static final RowType ROW =
      RowType.of(
          new org.apache.flink.table.types.logical.LogicalType[] {
            new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH), new BigIntType()
          },
          new String[] {"id", "v", "version"});

  @Test
  void aMergeKeepsTheGreatestOrderingValueWhateverTheArrivalOrder() {
    List<RowData> rows =
        new ArrayList<>(List.of(row(1, "old", 1), row(1, "newest", 3), row(1, "mid", 2)));
    for (int shuffle = 0; shuffle < 6; shuffle++) {
      Collections.rotate(rows, 1);
      if (shuffle == 3) {
        Collections.swap(rows, 0, 1);
      }
      SourceBatch batch = merge();
      rows.forEach(batch::add);

      assertThat(batch.size()).isEqualTo(1);
      assertThat(batch.winners())
          .extracting(r -> r.getString(1).toString())
          .containsExactly("newest");
      assertThat(batch.received()).isEqualTo(3);
    }
  }

  @Test
  void aMergeCollapsesIdenticalRowsAndRefusesDifferentOnesWithTheSameOrdering() {
    SourceBatch identical = merge();
    identical.add(row(1, "a", 5));
    identical.add(row(1, "a", 5));
    SourceBatch ambiguous = merge();
    ambiguous.add(row(7, "a", 5));
    ambiguous.add(row(7, "b", 5));

    assertThat(identical.size()).isEqualTo(1);
    identical.requireUnambiguous();
    assertThatThrownBy(ambiguous::requireUnambiguous)
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("two source rows have key id=7 and the same version")
        .hasMessageContaining("neither is newer");
  }

  @Test
  void aTieIsJudgedOnTheFinalWinnerWhateverTheArrivalOrder() {
    RowData tiedA = row(1, "a", 1);
    RowData tiedB = row(1, "b", 1);
    RowData newer = row(1, "c", 2);
    SourceBatch newestFirst = merge();
    List.of(newer, tiedA, tiedB).forEach(newestFirst::add);
    SourceBatch newestLast = merge();
    List.of(tiedA, tiedB, newer).forEach(newestLast::add);
    SourceBatch tieOnTop = merge();
    List.of(newer, row(1, "d", 2)).forEach(tieOnTop::add);

    newestFirst.requireUnambiguous();
    newestLast.requireUnambiguous();
    assertThat(newestLast.winners())
        .extracting(r -> r.getString(1).toString())
        .containsExactly("c");
    assertThatThrownBy(tieOnTop::requireUnambiguous)
        .hasMessageContaining("two source rows have key id=1");
  }

  @Test
  void aMergeRefusesASourceRowWithoutOrderingValue() {
    assertThatThrownBy(() -> merge().add(GenericRowData.of(1L, StringData.fromString("a"), null)))
        .isInstanceOf(CheckFailedException.class)
        .hasMessageContaining("a source row has no version");
  }

  @Test
  void insertIfAbsentKeepsTheSmallestOrderingValueAndWithoutOrderingAStableChoice() {
    SourceBatch ordered = new SourceBatch("t", ROW, List.of("id"), "version", false);
    ordered.add(row(1, "resent", 2));
    ordered.add(row(1, "first", 1));
    SourceBatch forward = new SourceBatch("t", ROW, List.of("id"), null, false);
    SourceBatch backward = new SourceBatch("t", ROW, List.of("id"), null, false);
    forward.add(row(1, "x", 1));
    forward.add(row(1, "y", 1));
    backward.add(row(1, "y", 1));
    backward.add(row(1, "x", 1));

    assertThat(ordered.winners())
        .extracting(r -> r.getString(1).toString())
        .containsExactly("first");
    assertThat(forward.contentHash()).isEqualTo(backward.contentHash());
  }

  private static SourceBatch merge() {
    return new SourceBatch("t", ROW, List.of("id"), "version", true);
  }

  private static RowData row(long id, String v, long version) {
    return GenericRowData.of(id, StringData.fromString(v), version);
  }
}
