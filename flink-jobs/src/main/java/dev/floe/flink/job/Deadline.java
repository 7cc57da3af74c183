package dev.floe.flink.job;

import dev.floe.catalog.job.Timeout;
import java.io.Serializable;
import java.time.Clock;

/**
 * The moment a run must be done by, and how a message says that it was not. A run's deadline is its
 * {@link Timeout} counted from the run's start; a backfill's slices are also bound by the
 * backfill's overall deadline, whichever comes first ({@link #earlier}).
 *
 * <p>Both sides of a run read it: the client cancels the Flink job once it passes ({@code
 * DeadlineExecution}), and inside the job no commit starts after it ({@link DeadlineGate}), so a
 * detached job keeps it too.
 *
 * @param atMillis the deadline, in milliseconds since the epoch
 * @param reason how the failure reads after "Cannot run job for slice: ", e.g. {@code timed out
 *     after 30m (--timeout)}
 */
public record Deadline(long atMillis, String reason) implements Serializable {

  /** {@code timeout} from now: a run's own deadline. */
  public static Deadline after(Timeout timeout, Clock clock) {
    return new Deadline(plus(clock.millis(), timeout), "timed out after " + timeout.describe());
  }

  /**
   * {@code timeout} once for each of {@code runs} runs, from now: a job that loads several slices
   * gets each slice's timeout.
   */
  public static Deadline afterEach(Timeout timeout, int runs, Clock clock) {
    long millis = Math.multiplyExact(timeout.duration().toMillis(), (long) runs);
    return new Deadline(
        Math.addExact(clock.millis(), millis),
        "timed out after "
            + runs
            + " x "
            + timeout.describe()
            + ", its "
            + runs
            + " slices' timeouts in one job");
  }

  /** {@code timeout} from now: the deadline of a whole backfill. */
  public static Deadline overall(Timeout timeout, Clock clock) {
    return new Deadline(
        plus(clock.millis(), timeout),
        "timed out when the backfill's overall timeout of " + timeout.describe() + " passed");
  }

  /** The earlier of two deadlines; either may be null (no deadline). */
  public static Deadline earlier(Deadline a, Deadline b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return b.atMillis < a.atMillis ? b : a;
  }

  public boolean passed(Clock clock) {
    return clock.millis() >= atMillis;
  }

  /** Milliseconds left, 0 once passed. */
  public long remainingMillis(Clock clock) {
    return Math.max(0, atMillis - clock.millis());
  }

  private static long plus(long now, Timeout timeout) {
    return now + timeout.duration().toMillis(); // at most 365 days: no overflow
  }
}
