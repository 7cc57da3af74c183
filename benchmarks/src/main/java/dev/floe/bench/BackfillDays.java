package dev.floe.bench;

import dev.floe.catalog.lineage.ContentHash;
import java.time.LocalDate;
import java.util.List;

/**
 * The staged range of a backfill run: consecutive days from {@code first}, each one slice of {@code
 * rowsPerDay} rows whose content hash was computed while its staging file was written.
 *
 * @param first the first day, the range's inclusive start
 * @param rowsPerDay rows of every day
 * @param hashes each day's expected content hash, oldest first (one per slice)
 */
record BackfillDays(LocalDate first, long rowsPerDay, List<ContentHash> hashes) {

  /** Where every benchmark range starts; any fixed day would do. */
  static final LocalDate FIRST = LocalDate.of(2026, 1, 1);

  BackfillDays {
    hashes = List.copyOf(hashes);
  }

  int slices() {
    return hashes.size();
  }

  long totalRows() {
    return rowsPerDay * slices();
  }

  LocalDate day(int index) {
    return first.plusDays(index);
  }

  /** {@code --from}: the first day, inclusive. */
  String from() {
    return first.toString();
  }

  /** {@code --to}: the day after the last, exclusive like a slice's end. */
  String to() {
    return first.plusDays(slices()).toString();
  }

  /** The {@code --slice} values, oldest first. */
  List<String> values() {
    return java.util.stream.IntStream.range(0, slices()).mapToObj(i -> day(i).toString()).toList();
  }
}
