package dev.floe.catalog.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.testing.EmbeddedCatalog;
import dev.floe.catalog.testing.TableRows;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Compares real snapshots of a real table: rows as multisets, columns by their values. */
class ContentDiffTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)));
  private static final Expression ALL = Expressions.alwaysTrue();

  @RegisterExtension final EmbeddedCatalog catalog = new EmbeddedCatalog();
  private Table table;
  private long left;

  /** The left side: ids 1, 2, 3 named a, b, c with amounts 10, 20, 30 in one file. */
  @BeforeEach
  void leftSide() {
    table = catalog.create("s.t", SCHEMA, PartitionSpec.unpartitioned());
    left = replaceWith(row(1, "a", "10.00"), row(2, "b", "20.00"), row(3, "c", "30.00"));
  }

  @Test
  void theSameRowsInOtherFilesAndOrderDoNotDiffer() {
    table.newDelete().deleteFromRowFilter(ALL).commit();
    TableRows.append(table, row(3, "c", "30.00"));
    TableRows.append(table, row(2, "b", "20.00"), row(1, "a", "10.00"));
    long right = table.currentSnapshot().snapshotId();

    ContentDifference diff = ContentDiff.compare(table, left, right, ALL);

    assertThat(diff.isEmpty()).isTrue();
    assertThat(diff.columns()).isEmpty();
    assertThat(diff.onlyLeft()).isEmpty();
    assertThat(diff.onlyRight()).isEmpty();
  }

  @Test
  void oneChangedValueNamesItsColumnAndShowsTheRowOnBothSides() {
    long right = replaceWith(row(1, "a", "10.00"), row(2, "b", "99.00"), row(3, "c", "30.00"));

    ContentDifference diff = ContentDiff.compare(table, left, right, ALL);

    assertThat(diff.columns()).containsExactly("amount");
    assertThat(diff.onlyLeftRows()).isEqualTo(1);
    assertThat(diff.onlyRightRows()).isEqualTo(1);
    assertThat(diff.onlyLeft()).containsExactly(Map.of("id", "2", "name", "b", "amount", "20.00"));
    assertThat(diff.onlyRight()).containsExactly(Map.of("id", "2", "name", "b", "amount", "99.00"));
  }

  @Test
  void valuesPairedDifferentlyDifferAsRowsButNameNoColumn() {
    long right = replaceWith(row(1, "b", "10.00"), row(2, "a", "20.00"), row(3, "c", "30.00"));

    ContentDifference diff = ContentDiff.compare(table, left, right, ALL);

    assertThat(diff.columns()).isEmpty();
    assertThat(diff.onlyLeftRows()).isEqualTo(2);
    assertThat(diff.onlyRightRows()).isEqualTo(2);
  }

  @Test
  void aDuplicatedRowCountsAndSamplesStopAtFive() {
    List<Record> rows = new ArrayList<>(List.of(row(1, "a", "10.00"), row(2, "b", "20.00")));
    for (int i = 0; i < 8; i++) {
      rows.add(row(3, "c", "30.00"));
    }
    long right = replaceWith(rows.toArray(Record[]::new));

    ContentDifference diff = ContentDiff.compare(table, left, right, ALL);
    ContentDifference reversed = ContentDiff.compare(table, right, left, ALL);

    assertThat(diff.onlyLeftRows()).isZero();
    assertThat(diff.onlyRightRows()).isEqualTo(7);
    assertThat(diff.onlyRight()).hasSize(ContentDiff.SAMPLES);
    assertThat(diff.onlyRight()).allMatch(r -> r.get("id").equals("3"));
    assertThat(diff.columns()).containsExactly("id", "name", "amount");
    assertThat(reversed.onlyLeftRows()).isEqualTo(7);
    assertThat(reversed.onlyRight()).isEmpty();
  }

  @Test
  void onlyRowsMatchingTheFilterAndANullSideCountAsNoRows() {
    long right = replaceWith(row(1, "a", "10.00"), row(2, "b", "20.00"), row(3, "z", "30.00"));
    Expression firstTwo = Expressions.lessThan("id", 3L);

    assertThat(ContentDiff.compare(table, left, right, firstTwo).isEmpty()).isTrue();
    ContentDifference againstNothing = ContentDiff.compare(table, null, right, firstTwo);
    assertThat(againstNothing.onlyRightRows()).isEqualTo(2);
    assertThat(againstNothing.onlyLeft()).isEmpty();
    Map<String, String> withNull =
        ContentDiff.compare(table, left, replaceWith(row(1, null, "10.00")), ALL)
            .onlyRight()
            .get(0);
    assertThat(withNull).containsEntry("name", "null");
  }

  /** Replaces the whole table with {@code rows} in one snapshot and returns its id. */
  private long replaceWith(Record... rows) {
    table.newOverwrite().overwriteByRowFilter(ALL).addFile(TableRows.write(table, rows)).commit();
    return table.currentSnapshot().snapshotId();
  }

  private Record row(long id, String name, String amount) {
    Map<String, Object> values = new HashMap<>();
    values.put("id", id);
    values.put("name", name);
    values.put("amount", new BigDecimal(amount));
    return TableRows.row(table, values);
  }
}
