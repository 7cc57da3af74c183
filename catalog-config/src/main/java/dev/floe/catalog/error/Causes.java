package dev.floe.catalog.error;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/** A failure and the chain of its causes, for code that looks for one kind of cause in it. */
public final class Causes {
  private Causes() {}

  /**
   * {@code failure} first, then each cause in turn, each once: a chain that loops back on itself (a
   * library that sets a cause to an earlier exception) ends where it would repeat.
   */
  public static List<Throwable> of(Throwable failure) {
    List<Throwable> chain = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }
}
