package dev.floe.catalog.spec;

/** The destructive changes an apply may make, each off unless the operator asks for it. */
record ApplyOptions(boolean allowDropColumns, boolean allowRepartition) {}
