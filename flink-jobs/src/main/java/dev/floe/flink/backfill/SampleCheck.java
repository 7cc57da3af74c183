package dev.floe.flink.backfill;

/**
 * The sample slice, validated end to end before the rest of the range: run on main, run again into
 * a scratch branch, and the two contents compared.
 *
 * @param slice the sample slice's value
 * @param first the run on main (skipped when a resumed backfill had loaded it already)
 * @param mainHash the slice's content hash on main after the first run, or null
 * @param secondHash the content hash the second run left on its scratch branch, or null
 * @param passed whether the backfill may go on
 * @param detail a sentence for the operator
 * @param exitCode 0 when passed; else what the failure maps to (3 when not reproducible)
 */
public record SampleCheck(
    String slice,
    SliceOutcome first,
    String mainHash,
    String secondHash,
    boolean passed,
    String detail,
    int exitCode) {}
