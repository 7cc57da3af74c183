package dev.floe.catalog.effects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.catalog.config.SqliteNativeLibrary;
import dev.floe.catalog.error.InvalidInputException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The outbox table, {@value #TABLE}, in plain SQL that SQLite and PostgreSQL both run. Every state
 * change is one statement whose WHERE clause states what must still hold, so two processes never
 * both claim a row: the claim that changes one row wins.
 */
public final class OutboxStore implements AutoCloseable {
  public static final String TABLE = "floe_effect_outbox";

  private static final String CREATE =
      "CREATE TABLE IF NOT EXISTS "
          + TABLE
          + " (run_key VARCHAR(255) NOT NULL, effect VARCHAR(255) NOT NULL,"
          + " run_id VARCHAR(64), job VARCHAR(255), target VARCHAR(1024), slice VARCHAR(1024),"
          + " snapshot_id BIGINT, url VARCHAR(4000) NOT NULL, headers TEXT NOT NULL,"
          + " body TEXT NOT NULL, max_attempts INTEGER NOT NULL, status VARCHAR(16) NOT NULL,"
          + " attempts INTEGER NOT NULL, last_error VARCHAR(1000), http_status INTEGER,"
          + " created_at VARCHAR(40) NOT NULL, updated_at VARCHAR(40) NOT NULL,"
          + " sent_at VARCHAR(40), claimed_by VARCHAR(64), lease_until BIGINT,"
          + " PRIMARY KEY (run_key, effect))";
  private static final String COLUMNS =
      "run_key, effect, run_id, job, target, slice, snapshot_id, url, headers, body,"
          + " max_attempts, status, attempts, last_error, http_status, created_at, updated_at,"
          + " sent_at, claimed_by, lease_until";
  private static final String INSERT =
      "INSERT INTO "
          + TABLE
          + " ("
          + COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String KEY = " WHERE run_key = ? AND effect = ?";
  private static final String NOT_LEASED = "(lease_until IS NULL OR lease_until < ?)";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ERROR_LENGTH = 1000;

  private final Connection connection;
  private final String where;

  private OutboxStore(Connection connection, String where) {
    this.connection = connection;
    this.where = where;
  }

  /** Connects and creates the outbox table when it does not exist yet. */
  public static OutboxStore open(OutboxLocation location) {
    Connection connection;
    SqliteNativeLibrary.prepareFor(location.url());
    try {
      connection = DriverManager.getConnection(location.url(), location.driverProperties());
    } catch (SQLException e) {
      throw InvalidInputException.of(
          "Cannot open the effect outbox at %s: %s", location.describe(), e.getMessage());
    }
    OutboxStore store = new OutboxStore(connection, location.describe());
    try {
      // Looked up first: PostgreSQL checks the schema's CREATE privilege even for CREATE TABLE IF
      // NOT EXISTS, and a user that only reads and writes the table has none.
      if (!exists(connection)) {
        try (Statement statement = connection.createStatement()) {
          statement.execute(CREATE);
        } catch (SQLException e) {
          if (!exists(connection)) { // not another process creating it at the same moment
            throw e;
          }
        }
      }
    } catch (SQLException e) {
      store.close();
      if (refused(e)) {
        throw InvalidInputException.of(
            "Cannot create the table %s in the effect outbox at %s: %s (create it once as a user"
                + " that may, or grant this user CREATE on the schema)",
            TABLE, location.describe(), e.getMessage());
      }
      throw store.failure("create the table " + TABLE, e); // e.g. a connection lost: retry
    }
    return store;
  }

  /**
   * Whether the database refused the outbox table for good: no privilege (SQL state 42501), or a
   * read-only database (SQLite's SQLITE_READONLY, code 8).
   */
  private static boolean refused(SQLException e) {
    return "42501".equals(e.getSQLState())
        || (e.getErrorCode() == 8 && String.valueOf(e.getMessage()).contains("SQLITE_READONLY"));
  }

  /** Whether the outbox table is in the connection's current schema (any letter case). */
  private static boolean exists(Connection connection) throws SQLException {
    DatabaseMetaData metadata = connection.getMetaData();
    String schema = connection.getSchema();
    for (String name : List.of(TABLE, TABLE.toUpperCase(Locale.ROOT))) {
      try (ResultSet tables = metadata.getTables(null, schema, name, null)) {
        while (tables.next()) {
          if (name.equals(tables.getString("TABLE_NAME"))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Records {@code entry} unless its key is in the outbox already; true when it was recorded. */
  public boolean insertIfAbsent(OutboxEntry entry) {
    return update(
            INSERT + " ON CONFLICT (run_key, effect) DO NOTHING",
            "record " + entry.key(),
            values(entry))
        == 1;
  }

  /**
   * Records {@code entry} for a new commit: inserts it, or replaces an unsent row's run, snapshot
   * and body and makes it pending again (a failed or skipped effect of the same run key is owed to
   * the new commit). A sent row, or one another process is sending right now, stays as it is.
   *
   * @return true when the row is now pending with {@code entry}'s content
   */
  public boolean insertOrRearm(OutboxEntry entry, Instant now) {
    List<Object> values = values(entry);
    values.add(now.toEpochMilli());
    return update(
            INSERT
                + " ON CONFLICT (run_key, effect) DO UPDATE SET run_id = excluded.run_id,"
                + " job = excluded.job, target = excluded.target, slice = excluded.slice,"
                + " snapshot_id = excluded.snapshot_id, url = excluded.url,"
                + " headers = excluded.headers, body = excluded.body,"
                + " max_attempts = excluded.max_attempts, status = excluded.status,"
                + " updated_at = excluded.updated_at, claimed_by = NULL, lease_until = NULL"
                + " WHERE "
                + TABLE
                + ".status <> 'sent' AND ("
                + TABLE
                + ".lease_until IS NULL OR "
                + TABLE
                + ".lease_until < ?)",
            "record " + entry.key(),
            values)
        == 1;
  }

  public Optional<OutboxEntry> find(OutboxKey key) {
    List<OutboxEntry> found =
        query("SELECT " + COLUMNS + " FROM " + TABLE + KEY, List.of(key.runKey(), key.effect()));
    return found.stream().findFirst();
  }

  /**
   * Entries in insertion-time order.
   *
   * @param target only this table's, or null for all
   * @param statuses only these, or empty for all
   */
  public List<OutboxEntry> list(String target, Set<EffectStatus> statuses) {
    List<String> conditions = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    if (target != null) {
      conditions.add("target = ?");
      values.add(target);
    }
    if (!statuses.isEmpty()) {
      conditions.add(
          statuses.stream()
              .map(s -> "'" + s.text() + "'")
              .collect(Collectors.joining(", ", "status IN (", ")")));
    }
    String condition = conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    return query(
        "SELECT "
            + COLUMNS
            + " FROM "
            + TABLE
            + condition
            + " ORDER BY created_at, run_key, effect",
        values);
  }

  /**
   * Claims a pending row for {@code claimant} until {@code leaseUntil}: one statement, so of two
   * processes at most one changes the row. A claim whose lease ran out (its process died while
   * sending) can be taken over.
   *
   * @return true when this call claimed the row
   */
  public boolean claim(OutboxKey key, String claimant, Instant now, Instant leaseUntil) {
    return update(
            "UPDATE "
                + TABLE
                + " SET claimed_by = ?, lease_until = ?, updated_at = ?"
                + KEY
                + " AND status = 'pending' AND "
                + NOT_LEASED,
            "claim " + key,
            List.of(
                claimant,
                leaseUntil.toEpochMilli(),
                now.toString(),
                key.runKey(),
                key.effect(),
                now.toEpochMilli()))
        == 1;
  }

  /** One POST failed; the claim is extended to cover the next one. */
  public void recordFailedAttempt(
      OutboxKey key,
      String claimant,
      String error,
      Integer httpStatus,
      Instant now,
      Instant leaseUntil) {
    requireClaimed(
        update(
            "UPDATE "
                + TABLE
                + " SET attempts = attempts + 1, last_error = ?, http_status = ?,"
                + " lease_until = ?, updated_at = ?"
                + KEY
                + " AND claimed_by = ?",
            "record an attempt of " + key,
            list(
                truncate(error),
                httpStatus,
                leaseUntil.toEpochMilli(),
                now.toString(),
                key.runKey(),
                key.effect(),
                claimant)),
        key);
  }

  /** Records why a claimed effect could not be sent before any POST (attempts unchanged). */
  public void recordError(OutboxKey key, String claimant, String error, Instant now) {
    requireClaimed(
        update(
            "UPDATE "
                + TABLE
                + " SET last_error = ?, http_status = NULL, updated_at = ?"
                + KEY
                + " AND claimed_by = ?",
            "record the error of " + key,
            list(truncate(error), now.toString(), key.runKey(), key.effect(), claimant)),
        key);
  }

  /** The POST got a 2xx answer. */
  public void markSent(OutboxKey key, String claimant, int httpStatus, Instant now) {
    requireClaimed(
        update(
            "UPDATE "
                + TABLE
                + " SET status = 'sent', attempts = attempts + 1, last_error = NULL,"
                + " http_status = ?, sent_at = ?, updated_at = ?, lease_until = NULL"
                + KEY
                + " AND claimed_by = ?",
            "mark " + key + " sent",
            List.of(
                httpStatus, now.toString(), now.toString(), key.runKey(), key.effect(), claimant)),
        key);
  }

  /** Every attempt of this delivery failed. */
  public void markFailed(OutboxKey key, String claimant, Instant now) {
    requireClaimed(
        update(
            "UPDATE "
                + TABLE
                + " SET status = 'failed', updated_at = ?, lease_until = NULL"
                + KEY
                + " AND claimed_by = ?",
            "mark " + key + " failed",
            List.of(now.toString(), key.runKey(), key.effect(), claimant)),
        key);
  }

  /** Gives a delivery up without failing it (interrupted): the row can be claimed again at once. */
  public void release(OutboxKey key, String claimant, Instant now) {
    update(
        "UPDATE "
            + TABLE
            + " SET lease_until = NULL, updated_at = ?"
            + KEY
            + " AND claimed_by = ? AND status = 'pending'",
        "release " + key,
        List.of(now.toString(), key.runKey(), key.effect(), claimant));
  }

  /**
   * Makes a failed or skipped effect pending again, for an operator's retry.
   *
   * @return true when the row changed
   */
  public boolean reopen(OutboxKey key, Instant now) {
    return update(
            "UPDATE "
                + TABLE
                + " SET status = 'pending', updated_at = ?, claimed_by = NULL, lease_until = NULL"
                + KEY
                + " AND status IN ('failed', 'skipped')",
            "reopen " + key,
            List.of(now.toString(), key.runKey(), key.effect()))
        == 1;
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw failure("close the connection", e);
    }
  }

  private void requireClaimed(int changed, OutboxKey key) {
    if (changed != 1) {
      throw new IllegalStateException(
          "Cannot update effect " + key + ": this run no longer holds its claim");
    }
  }

  private int update(String sql, String what, List<Object> values) {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(statement, values);
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw failure(what, e);
    }
  }

  private List<OutboxEntry> query(String sql, List<Object> values) {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(statement, values);
      List<OutboxEntry> entries = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          entries.add(read(rows));
        }
      }
      return entries;
    } catch (SQLException e) {
      throw failure("read " + TABLE, e);
    }
  }

  private static void bind(PreparedStatement statement, List<Object> values) throws SQLException {
    for (int i = 0; i < values.size(); i++) {
      Object value = values.get(i);
      if (value == null) {
        // An untyped null: PostgreSQL refuses a VARCHAR null in a BIGINT column.
        statement.setNull(i + 1, Types.NULL);
      } else if (value instanceof Long number) {
        statement.setLong(i + 1, number);
      } else if (value instanceof Integer number) {
        statement.setInt(i + 1, number);
      } else {
        statement.setString(i + 1, value.toString());
      }
    }
  }

  private static List<Object> values(OutboxEntry entry) {
    return list(
        entry.key().runKey(),
        entry.key().effect(),
        entry.runId(),
        entry.job(),
        entry.target(),
        entry.slice(),
        entry.snapshotId(),
        entry.url(),
        writeHeaders(entry.headers()),
        entry.body(),
        entry.maxAttempts(),
        entry.status().text(),
        entry.attempts(),
        truncate(entry.lastError()),
        entry.httpStatus(),
        entry.createdAt().toString(),
        entry.updatedAt().toString(),
        entry.sentAt() == null ? null : entry.sentAt().toString(),
        entry.claimedBy(),
        entry.leaseUntil() == null ? null : entry.leaseUntil().toEpochMilli());
  }

  private static OutboxEntry read(ResultSet row) throws SQLException {
    long snapshot = row.getLong("snapshot_id");
    Long snapshotId = row.wasNull() ? null : snapshot;
    int http = row.getInt("http_status");
    Integer httpStatus = row.wasNull() ? null : http;
    long lease = row.getLong("lease_until");
    Instant leaseUntil = row.wasNull() ? null : Instant.ofEpochMilli(lease);
    return new OutboxEntry(
        new OutboxKey(row.getString("run_key"), row.getString("effect")),
        row.getString("run_id"),
        row.getString("job"),
        row.getString("target"),
        row.getString("slice"),
        snapshotId,
        row.getString("url"),
        readHeaders(row.getString("headers")),
        row.getString("body"),
        row.getInt("max_attempts"),
        EffectStatus.parse(row.getString("status")),
        row.getInt("attempts"),
        row.getString("last_error"),
        httpStatus,
        instant(row.getString("created_at")),
        instant(row.getString("updated_at")),
        instant(row.getString("sent_at")),
        row.getString("claimed_by"),
        leaseUntil);
  }

  /** A list that, unlike List.of, takes nulls. */
  private static List<Object> list(Object... values) {
    List<Object> list = new ArrayList<>(values.length);
    for (Object value : values) {
      list.add(value);
    }
    return list;
  }

  private static Instant instant(String text) {
    return text == null ? null : Instant.parse(text);
  }

  private static String truncate(String error) {
    return error == null || error.length() <= MAX_ERROR_LENGTH
        ? error
        : error.substring(0, MAX_ERROR_LENGTH);
  }

  private static String writeHeaders(Map<String, String> headers) {
    try {
      return JSON.writeValueAsString(headers);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write effect headers as JSON", e);
    }
  }

  private static Map<String, String> readHeaders(String text) {
    try {
      return JSON.readValue(text, new TypeReference<LinkedHashMap<String, String>>() {});
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot read effect headers from the outbox", e);
    }
  }

  private IllegalStateException failure(String what, SQLException e) {
    return new IllegalStateException(
        "Cannot " + what + " in the effect outbox at " + where + ": " + e.getMessage(), e);
  }
}
