package dev.floe.catalog.commit;

/**
 * A failure injected at a {@link FailurePoint} (tests and rehearsals). Not a {@link
 * dev.floe.catalog.error.FloeException}: an injected failure behaves like an unexpected crash (exit
 * 1), which is what it stands for.
 */
public final class InjectedFailureException extends RuntimeException {
  private final FailurePoint point;

  public InjectedFailureException(FailurePoint point, String where) {
    super("Injected failure " + where + " [" + point + "]");
    this.point = point;
  }

  public FailurePoint point() {
    return point;
  }
}
