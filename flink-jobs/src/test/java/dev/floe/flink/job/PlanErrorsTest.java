package dev.floe.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlanErrorsTest {
  private static String notFound(String query, String name) {
    int column = query.indexOf(name) + 1;
    return String.format(
        "From line 1, column %d to line 1, column %d: Object '%s' not found",
        column, column + name.length() - 1, name.substring(0, name.indexOf('.')));
  }

  @Test
  void aTableFlinkCannotFindIsNamedWholeWithItsPosition() {
    String query = "SELECT * FROM sales.staging_ordrs";

    assertThat(PlanErrors.describe(query, notFound(query, "sales.staging_ordrs")))
        .isEqualTo("table sales.staging_ordrs does not exist (line 1, column 15)");
  }

  @Test
  void aNameOfThreePartsSaysHowToNameATableInANestedNamespace() {
    // Flink read team.sub.events_src as catalog team: "does not exist" of a table that did.
    String query = "SELECT * FROM team.sub.events_src";

    assertThat(PlanErrors.describe(query, notFound(query, "team.sub.events_src")))
        .isEqualTo(
            "table team.sub.events_src does not exist (line 1, column 15); a table in a nested"
                + " namespace is named with the namespace quoted as one name, e.g."
                + " `team.sub`.events");
    String quoted = "SELECT * FROM `team.sub`.events_sr";
    assertThat(PlanErrors.describe(quoted, notFound(quoted, "`team.sub`.events_sr")))
        .doesNotContain("nested");
  }

  @Test
  void anotherPlanningErrorIsKeptAsFlinkWroteIt() {
    assertThat(PlanErrors.describe("SELECT x", "Column 'x' not found in any table"))
        .isEqualTo("Column 'x' not found in any table");
  }
}
