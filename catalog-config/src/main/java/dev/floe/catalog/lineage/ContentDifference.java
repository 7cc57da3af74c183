package dev.floe.catalog.lineage;

import java.util.List;
import java.util.Map;

/**
 * How two versions of the same rows differ, compared as multisets (a row present twice on one side
 * and once on the other counts once as different).
 *
 * @param columns the columns whose multiset of values differs, in schema order: a column not named
 *     here holds the same values on both sides, only perhaps paired differently in rows
 * @param onlyLeftRows how many rows the left side has that the right does not
 * @param onlyRightRows how many rows the right side has that the left does not
 * @param onlyLeft up to {@link ContentDiff#SAMPLES} of those left rows, column to value
 * @param onlyRight up to {@link ContentDiff#SAMPLES} of those right rows, column to value
 */
public record ContentDifference(
    List<String> columns,
    long onlyLeftRows,
    long onlyRightRows,
    List<Map<String, String>> onlyLeft,
    List<Map<String, String>> onlyRight) {

  public ContentDifference {
    columns = List.copyOf(columns);
    onlyLeft = List.copyOf(onlyLeft);
    onlyRight = List.copyOf(onlyRight);
  }

  /** Whether both sides hold the same rows. */
  public boolean isEmpty() {
    return onlyLeftRows == 0 && onlyRightRows == 0;
  }
}
