package dev.floe.catalog.maintain;

import java.util.List;
import java.util.Map;

/** What one maintenance action did or would do, in the shape the CLI prints. */
public interface ActionOutcome {

  /** Whether the action changed the table or its storage (always false for a dry run). */
  boolean changed();

  /** Lines for the text output, without indentation. */
  List<String> lines();

  /** The same for {@code --json}: names in snake_case, values JSON can hold. */
  Map<String, Object> details();
}
