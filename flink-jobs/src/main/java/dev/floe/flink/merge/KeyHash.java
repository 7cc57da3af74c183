package dev.floe.flink.merge;

/** A key's 128-bit hash, {@code high, low}: how the merge tells keys apart in its maps and sets. */
record KeyHash(long high, long low) {}
