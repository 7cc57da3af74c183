package dev.floe.flink.check;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** How often one check was violated, with the first few offending rows as samples. */
public final class Violations implements Serializable {
  public static final int MAX_SAMPLES = 3;

  private long count;
  private final List<String> samples = new ArrayList<>();

  public void add(String sample) {
    count++;
    if (samples.size() < MAX_SAMPLES) {
      samples.add(sample);
    }
  }

  /** Counts {@code more} violations that have no sample. */
  public void addUnsampled(long more) {
    count += more;
  }

  public void merge(Violations other) {
    count += other.count;
    for (String sample : other.samples) {
      if (samples.size() < MAX_SAMPLES) {
        samples.add(sample);
      }
    }
  }

  public long count() {
    return count;
  }

  public List<String> samples() {
    return List.copyOf(samples);
  }
}
