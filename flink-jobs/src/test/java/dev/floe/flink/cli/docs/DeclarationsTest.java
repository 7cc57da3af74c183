package dev.floe.flink.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.catalog.backfill.BackfillManifestKeys;
import dev.floe.catalog.config.CatalogOptions;
import dev.floe.catalog.config.EnvironmentVariables;
import dev.floe.catalog.config.FloeOption;
import dev.floe.catalog.config.OptionGroup;
import dev.floe.catalog.job.JobManifestKeys;
import dev.floe.catalog.maintain.MaintenanceManifestKeys;
import dev.floe.catalog.spec.FloeTablePropertyKeys;
import dev.floe.catalog.spec.TableSpecKeys;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/** Every declaration the reference is built from says what it does. */
class DeclarationsTest {

  @Test
  void everyFloeOptionHasADescription() {
    List<String> problems = new ArrayList<>();
    for (OptionGroup group : ConfigurationDocs.groups()) {
      if (blank(group.title()) || blank(group.description()) || group.options().isEmpty()) {
        problems.add("group '" + group.title() + "' needs a title, a description and options");
      }
      Set<String> keys = new HashSet<>();
      for (FloeOption option : group.options()) {
        if (blank(option.key()) || blank(option.type()) || blank(option.description())) {
          problems.add(group.title() + ": " + option);
        }
        if (!keys.add(option.key())) {
          problems.add(group.title() + ": duplicate key " + option.key());
        }
      }
    }
    assertThat(problems).as("options without a key, type or description").isEmpty();
  }

  @Test
  void everyDeclaredOptionIsInItsGroup() throws IllegalAccessException {
    List<String> missing = new ArrayList<>();
    for (Class<?> holder :
        List.of(
            CatalogOptions.class,
            EnvironmentVariables.class,
            JobManifestKeys.class,
            TableSpecKeys.class,
            FloeTablePropertyKeys.class,
            BackfillManifestKeys.class,
            MaintenanceManifestKeys.class)) {
      OptionGroup group = (OptionGroup) constant(holder, "GROUP");
      assertThat(ConfigurationDocs.groups()).as("documented groups").contains(group);
      for (Field field : holder.getFields()) {
        if (Modifier.isStatic(field.getModifiers()) && field.getType() == FloeOption.class) {
          if (!group.options().contains((FloeOption) field.get(null))) {
            missing.add(holder.getSimpleName() + "." + field.getName());
          }
        }
      }
    }
    assertThat(missing).as("options left out of their group, so undocumented").isEmpty();
  }

  @Test
  void everyCommandAndArgumentHasADescription() {
    List<String> missing = new ArrayList<>();
    for (CommandLine command : CommandDocs.commands(ConfigurationDocs.commandLine())) {
      CommandSpec spec = command.getCommandSpec();
      if (blank(String.join("", spec.usageMessage().description()))) {
        missing.add(spec.qualifiedName());
      }
      List<ArgSpec> args = new ArrayList<>(spec.options());
      args.addAll(spec.positionalParameters());
      for (ArgSpec arg : args) {
        if (blank(String.join("", arg.description()))) {
          missing.add(spec.qualifiedName() + " " + arg);
        }
      }
    }
    assertThat(missing).as("commands, options and parameters without a description").isEmpty();
  }

  private static Object constant(Class<?> holder, String name) {
    try {
      return holder.getField(name).get(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot read " + holder.getName() + "." + name, e);
    }
  }

  private static boolean blank(String text) {
    return text == null || text.isBlank();
  }
}
