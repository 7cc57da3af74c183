package dev.floe.flink.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MarkdownTest {

  @Test
  void escapesPipesAndLineBreaksInCells() {
    String table =
        new MarkdownTable("Name", "Description").row("`a|b`", "one\n  two | three").render();

    assertThat(table)
        .isEqualTo("| Name | Description |\n| --- | --- |\n| `a\\|b` | one two \\| three |\n");
  }

  @Test
  void leavesEmptyCellsBlank() {
    assertThat(new MarkdownTable("A", "B").row("x", "").render()).endsWith("| x | |\n");
  }

  @Test
  void refusesRowsOfTheWrongWidth() {
    assertThatThrownBy(() -> new MarkdownTable("A", "B").row("x"))
        .hasMessageStartingWith("Cannot add a row of 1 cells to a table with columns [A, B]");
  }

  @Test
  void escapesPlainTextThatWouldBecomeMarkup() {
    assertThat(Markdown.text("a folder of *.yaml/*.yml, <KEY> and $FLOE_HOME"))
        .isEqualTo("a folder of \\*.yaml/\\*.yml, \\<KEY\\> and $FLOE\\_HOME");
  }

  @Test
  void writesCodeSpansAndAnchors() {
    assertThat(Markdown.code("--slice")).isEqualTo("`--slice`");
    assertThat(Markdown.code("a`b")).isEqualTo("``a`b``");
    assertThat(Markdown.code(null)).isEmpty();
    assertThat(Markdown.anchor("floe tables apply")).isEqualTo("floe-tables-apply");
    assertThat(Markdown.anchor("Job manifest keys")).isEqualTo("job-manifest-keys");
  }
}
