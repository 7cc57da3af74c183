package dev.floe.catalog.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class OptionGroupTest {
  private static final OptionGroup GROUP =
      new OptionGroup(
          "Example",
          "Keys of an example file.",
          List.of(
              FloeOption.of("name", "string", null, "A name."),
              FloeOption.of("items", "list", null, "Some items."),
              FloeOption.of("items[].id", "int", null, "An item's id."),
              FloeOption.of("items[].limits.min", "int", null, "A lower limit."),
              FloeOption.of("items[].limits.max", "int", null, "An upper limit."),
              FloeOption.of("window.size", "duration", null, "A size.")));

  @Test
  void listsTheKeysDirectlyUnderAPathInDeclarationOrder() {
    assertThat(GROUP.keysUnder("")).containsExactly("name", "items", "window");
    assertThat(GROUP.keysUnder("items[]")).containsExactly("id", "limits");
    assertThat(GROUP.keysUnder("items[].limits")).containsExactly("min", "max");
    assertThat(GROUP.keysUnder("window")).containsExactly("size");
  }

  @Test
  void refusesAPathWithoutKeys() {
    // A typo in a parser's path would otherwise accept nothing, and fail on every file.
    assertThatThrownBy(() -> GROUP.keysUnder("windwo"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot list keys: no option of 'Example' lies under 'windwo'");
  }

  @Test
  void floeYamlAcceptsExactlyTheCatalogKeys() {
    assertThat(CatalogOptions.GROUP.keysUnder("")).containsExactly("catalog");
    assertThat(CatalogOptions.GROUP.keysUnder("catalog"))
        .containsExactly("type", "name", "properties");
  }
}
