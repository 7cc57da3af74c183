package dev.floe.flink.cli.docs;

import dev.floe.catalog.config.FloeOption;
import dev.floe.catalog.config.OptionGroup;

/** Renders one {@link OptionGroup} as a section: heading, description, one table row per option. */
final class OptionGroupDocs {

  private OptionGroupDocs() {}

  /**
   * @param level the heading level, 2 for {@code ##}
   */
  static String render(OptionGroup group, int level) {
    MarkdownTable table = new MarkdownTable("Name", "Type", "Default", "Description");
    for (FloeOption option : group.options()) {
      // Declarations are written in Markdown already; only the table cell needs escaping.
      table.row(
          Markdown.code(option.key()),
          option.type(),
          Markdown.code(option.defaultText().orElse("")),
          option.description());
    }
    return "#".repeat(level)
        + " "
        + group.title()
        + "\n\n"
        + group.description()
        + "\n\n"
        + table.render();
  }
}
