package dev.floe.catalog.maintain;

import dev.floe.catalog.spec.MaintenancePolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * How compaction groups one partition's files into bins, each rewritten by one task into at most
 * {@link #outputs} files: the one rule compaction rewrites by and {@code floe maintain --plan}
 * counts by, so the files a plan says a compaction replaces and writes are the files it replaces
 * and writes. (The plan once counted from per-partition totals while compaction packed bins and
 * left out the files a bin held alone: the plan proposed the same compaction every night.)
 */
public final class CompactionBins {
  private static final Comparator<BinFile> LARGEST_FIRST =
      Comparator.comparingLong(BinFile::bytes).reversed().thenComparing(BinFile::location);

  private CompactionBins() {}

  /**
   * Binpack: the bins of one partition's candidates (its files that are small or selected for their
   * delete files); none when the partition is not rewritten. It is rewritten when it has two
   * candidates, or one selected for its deletes. The candidates are split into as many bins as
   * files of the target size their bytes fill ({@link MaintenancePolicy#expectedFiles}), but no
   * more than give each bin two files or one selected for its deletes, each about equally full
   * (largest file first into the emptiest bin), so that a large partition is rewritten by parallel
   * tasks. A bin left with one file not selected for its deletes (rewriting it alone gains nothing)
   * joins the emptiest other bin: every candidate of a rewritten partition is rewritten.
   *
   * @param candidates the candidates of one partition
   * @param target the target file size in bytes
   * @return the bins, each sorted by location, in a deterministic order
   */
  public static List<List<BinFile>> binpack(List<BinFile> candidates, long target) {
    long selected = candidates.stream().filter(BinFile::forDeletes).count();
    if (candidates.size() < 2 && selected == 0) {
      return List.of();
    }
    long pairsOrSelected = selected + (candidates.size() - selected) / 2;
    int count =
        (int)
            Math.max(
                1,
                Math.min(
                    pairsOrSelected, MaintenancePolicy.expectedFiles(bytes(candidates), target)));
    List<Bin> bins = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      bins.add(new Bin());
    }
    List<BinFile> largestFirst = new ArrayList<>(candidates);
    largestFirst.sort(LARGEST_FIRST);
    for (BinFile file : largestFirst) {
      emptiest(bins).add(file);
    }
    bins.removeIf(bin -> bin.files.isEmpty());
    foldLoneFiles(bins);
    List<List<BinFile>> packed = new ArrayList<>();
    bins.forEach(bin -> packed.add(bin.files));
    return sorted(packed);
  }

  /**
   * Sort and z-order: the bins of one partition's files (all of them, small or not: a rewritten
   * partition is ordered whole); none when the partition is not rewritten. A partition that {@link
   * #fitsOneGroup fits one in-memory group} is one bin; a larger one is packed under both caps,
   * first fit, largest file first (two files each over half a cap never share a bin). It is
   * rewritten when it holds more small files than it has bins (each ordered bin leaves one file
   * below the target, so that many is the state an ordered rewrite leaves, not work) and its bins
   * write fewer files than they rewrite ({@link #outputs}), when a file is selected for its delete
   * files, or, fitting one group, when {@code overlaps} (strategy sort: its files overlap on the
   * sort key; asked only then). A bin of one file not selected for its deletes is left out:
   * rewriting it alone gains nothing. (Without the fewer files, an ordered partition whose rows
   * vary in size along the order, say 8 KB, 9 KB and 81 KB at a 33 KB target, was rewritten into
   * the same three files on every run, and the plan, counting no file removed, stayed quiet.)
   *
   * @param files every file of one partition that compaction may rewrite
   * @param target the target file size in bytes (files below {@link
   *     MaintenancePolicy#smallFileLimit} of it are small)
   * @param rowBytes estimated heap of one row held in memory ({@link GroupHeap#bytesPerRow})
   * @param overlaps whether the partition's files overlap on the sort key
   * @return the bins, each sorted by location, in a deterministic order
   */
  public static List<List<BinFile>> ordered(
      List<BinFile> files, long target, long rowBytes, BooleanSupplier overlaps) {
    if (files.isEmpty()) {
      return List.of();
    }
    boolean fits = fitsOneGroup(files, rowBytes);
    List<List<BinFile>> bins = fits ? new ArrayList<>(List.of(files)) : capped(files, rowBytes);
    long smallLimit = MaintenancePolicy.smallFileLimit(target);
    long small = files.stream().filter(f -> f.bytes() < smallLimit).count();
    boolean forDeletes = files.stream().anyMatch(BinFile::forDeletes);
    boolean bySmallFiles = small > bins.size();
    bins.removeIf(bin -> bin.size() < 2 && !bin.get(0).forDeletes());
    boolean fewerFiles =
        bins.stream().mapToLong(bin -> outputs(bin, target)).sum()
            < bins.stream().mapToLong(List::size).sum();
    if (!(bySmallFiles && fewerFiles) && !forDeletes && !(fits && overlaps.getAsBoolean())) {
      return List.of();
    }
    return sorted(bins);
  }

  /**
   * Whether {@code files} fit one sorted or z-ordered group: at most {@link
   * SortKeyOverlap#MAX_GROUP_BYTES} of files and {@link GroupHeap#MAX_GROUP_HEAP_BYTES} of
   * estimated heap ({@code rowBytes} per row).
   */
  public static boolean fitsOneGroup(List<BinFile> files, long rowBytes) {
    long rows = files.stream().mapToLong(BinFile::rows).sum();
    return bytes(files) <= SortKeyOverlap.MAX_GROUP_BYTES
        && rows * rowBytes <= GroupHeap.MAX_GROUP_HEAP_BYTES;
  }

  /**
   * The files rewriting {@code bin} writes at most: as many as the target size fills ({@link
   * MaintenancePolicy#expectedFiles}).
   */
  public static int outputs(List<BinFile> bin, long target) {
    return MaintenancePolicy.expectedFiles(bytes(bin), target);
  }

  /** The bytes of {@code files}. */
  public static long bytes(List<BinFile> files) {
    return files.stream().mapToLong(BinFile::bytes).sum();
  }

  private static List<List<BinFile>> capped(List<BinFile> files, long rowBytes) {
    List<BinFile> largestFirst = new ArrayList<>(files);
    largestFirst.sort(LARGEST_FIRST);
    List<List<BinFile>> bins = new ArrayList<>();
    List<long[]> filled = new ArrayList<>(); // bytes, estimated heap
    for (BinFile file : largestFirst) {
      long heap = file.rows() * rowBytes;
      int fit = -1;
      for (int i = 0; i < bins.size() && fit < 0; i++) {
        if (filled.get(i)[0] + file.bytes() <= SortKeyOverlap.MAX_GROUP_BYTES
            && filled.get(i)[1] + heap <= GroupHeap.MAX_GROUP_HEAP_BYTES) {
          fit = i;
        }
      }
      if (fit < 0) {
        bins.add(new ArrayList<>());
        filled.add(new long[2]);
        fit = bins.size() - 1;
      }
      bins.get(fit).add(file);
      filled.get(fit)[0] += file.bytes();
      filled.get(fit)[1] += heap;
    }
    return bins;
  }

  /** Moves each file a bin holds alone, unless selected for its deletes, to the emptiest other. */
  private static void foldLoneFiles(List<Bin> bins) {
    int i = 0;
    while (i < bins.size() && bins.size() > 1) {
      Bin bin = bins.get(i);
      if (bin.files.size() == 1 && !bin.files.get(0).forDeletes()) {
        bins.remove(i);
        emptiest(bins).add(bin.files.get(0));
        i = 0;
      } else {
        i++;
      }
    }
  }

  /** The least full bin, the first of equals. */
  private static Bin emptiest(List<Bin> bins) {
    Bin emptiest = bins.get(0);
    for (Bin bin : bins) {
      if (bin.bytes < emptiest.bytes) {
        emptiest = bin;
      }
    }
    return emptiest;
  }

  /** A bin being filled, with its bytes so far. */
  private static final class Bin {
    final List<BinFile> files = new ArrayList<>();
    long bytes;

    void add(BinFile file) {
      files.add(file);
      bytes += file.bytes();
    }
  }

  private static List<List<BinFile>> sorted(List<List<BinFile>> bins) {
    List<List<BinFile>> sorted = new ArrayList<>();
    for (List<BinFile> bin : bins) {
      List<BinFile> copy = new ArrayList<>(bin);
      copy.sort(Comparator.comparing(BinFile::location));
      sorted.add(List.copyOf(copy));
    }
    return List.copyOf(sorted);
  }
}
