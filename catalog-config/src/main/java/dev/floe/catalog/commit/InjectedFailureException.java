package dev.floe.catalog.commit;

/**
 * A failure injected at a {@link FailurePoint} (tests and rehearsals). Not a {@link
 * dev.floe.catalog.error.FloeException}: an injected failure behaves like an unexpected crash (exit
 * 1), which is what it stands for, except where the commit core reads it as the commit call's
 * failure: {@link FailurePoint#LOST_REQUEST} ends as an unknown outcome (exit 5) and {@link
 * FailurePoint#LOST_RESPONSE} as found committed (exit 0).
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
