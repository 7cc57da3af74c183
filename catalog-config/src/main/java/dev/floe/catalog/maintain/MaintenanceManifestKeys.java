package dev.floe.catalog.maintain;

import dev.floe.catalog.config.FloeOption;
import dev.floe.catalog.config.OptionGroup;
import java.util.List;

/**
 * The keys of a maintenance manifest ({@code floe maintain --apply --notify FILE}), declared once.
 * {@link MaintenanceManifest} accepts exactly these keys.
 */
public final class MaintenanceManifestKeys {
  public static final FloeOption ON_MAINTENANCE_DONE =
      FloeOption.of(
          "on_maintenance_done",
          "list",
          null,
          "Webhooks sent once when `floe maintain --apply` finishes, whatever its exit code, with"
              + " its summary. Items take the keys of a job manifest's `effects[]`; a body may use"
              + " `${apply_id}`, `${as_of}`, `${tables}` (tables read), `${tables_done}`,"
              + " `${tables_failed}`, `${tables_left}` (tables with work outside the budget or"
              + " the timeout), `${items_done}`, `${items_failed}`, `${items_left}`,"
              + " `${bytes_rewritten}` (as planned, of the items done) and `${exit_code}`."
              + " Recorded in the effect outbox under `maintenance:<apply id>` before it is sent,"
              + " so `floe effects` lists it and `floe effects --pending --retry` resends it. A"
              + " failed delivery is a warning: it never changes what maintenance did or its exit"
              + " code. `--apply --dry-run` sends nothing.");

  public static final OptionGroup GROUP =
      new OptionGroup(
          "Maintenance manifest keys",
          "A maintenance manifest (YAML), given to `floe maintain --apply --notify FILE`, declares"
              + " what to tell when maintenance finishes. An unknown key is an error that names"
              + " the key and the file.",
          List.of(ON_MAINTENANCE_DONE));

  private MaintenanceManifestKeys() {}
}
