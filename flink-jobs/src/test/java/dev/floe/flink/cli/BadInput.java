package dev.floe.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * One row of the bad-input catalogue (docs/reliability.md, section "Bad input"): an input a user
 * may get wrong, the command that reads it, and what the user must see — the exit code and one line
 * on stderr starting with {@code floe: }. {@link BadInputCatalogueTest} runs every row and checks,
 * besides, that no stack trace is printed and that nothing was committed.
 *
 * @param input what is wrong, as the catalogue shows it (Markdown)
 * @param exit the exit code
 * @param says the stderr line the user sees, paths relative to the row's folder; {@code …} stands
 *     for text the catalogue leaves out (a list of accepted keys, Flink's wording)
 * @param command writes the row's files and returns the command line (without {@code --home})
 * @param secret a value that must not appear anywhere in the output, or null
 */
record BadInput(
    String input, int exit, String says, Function<RowFiles, String[]> command, String secret) {

  static BadInput row(String input, int exit, String says, Function<RowFiles, String[]> command) {
    return new BadInput(input, exit, says, command, null);
  }

  /** {@code value} must appear nowhere in stdout or stderr. */
  BadInput hiding(String value) {
    return new BadInput(input, exit, says, command, value);
  }

  /** {@link #says} as a pattern: {@code …} matches any text, the rest literally. */
  Pattern pattern() {
    StringBuilder regex = new StringBuilder();
    String[] parts = says.split("…", -1);
    for (int i = 0; i < parts.length; i++) {
      regex.append(i == 0 ? "" : ".*").append(Pattern.quote(parts[i]));
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  /** A titled group of rows; the catalogue prints one table per group. */
  record Group(String title, String about, List<BadInput> rows) {}

  /** The folder a row writes its files into, and helpers that write the usual ones. */
  static final class RowFiles {
    private final Path dir;
    private final Path examples;
    private Path home;

    RowFiles(Path dir, Path home, Path examples) {
      this.dir = dir;
      this.home = home;
      this.examples = examples;
    }

    Path dir() {
      return dir;
    }

    Path home() {
      return home;
    }

    /** Runs the row with another Floe home (e.g. a file where a folder belongs). */
    void useHome(Path other) {
      home = other;
    }

    Path examples(String relative) {
      return examples.resolve(relative);
    }

    Path write(String name, String text) {
      return write(name, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    Path write(String name, byte[] bytes) {
      try {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.write(file, bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    Path mkdir(String name) {
      try {
        return Files.createDirectories(dir.resolve(name));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    String example(String relative) {
      try {
        return Files.readString(examples(relative));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The example daily job with one edit, as {@code job.yaml}; the edit must change it. */
    Path job(UnaryOperator<String> edit) {
      return edited("job.yaml", "jobs/fact_orders_daily.yaml", edit);
    }

    /** The example merge job with one edit, as {@code job.yaml}. */
    Path mergeJob(UnaryOperator<String> edit) {
      return edited("job.yaml", "jobs/dim_customer_merge.yaml", edit);
    }

    /** The example daily job with its query replaced, as {@code job.yaml}. */
    Path query(String query) {
      String text = example("jobs/fact_orders_daily.yaml");
      int start = text.indexOf("query: |\n");
      int end = text.indexOf("checks:");
      String indented = query.strip().replaceAll("(?m)^", "  ");
      return write(
          "job.yaml",
          text.substring(0, start) + "query: |\n" + indented + "\n" + text.substring(end));
    }

    /** The example merge job with its query replaced, as {@code job.yaml}. */
    Path mergeQuery(String query) {
      String text = example("jobs/dim_customer_merge.yaml");
      int start = text.indexOf("query: |\n");
      int end = text.indexOf("checks:");
      String indented = query.strip().replaceAll("(?m)^", "  ");
      return write(
          "job.yaml",
          text.substring(0, start) + "query: |\n" + indented + "\n" + text.substring(end));
    }

    private Path edited(String name, String example, UnaryOperator<String> edit) {
      String text = example(example);
      String changed = edit.apply(text);
      assertThat(changed).as("the row's edit of %s", example).isNotEqualTo(text);
      return write(name, changed);
    }

    /**
     * A backfill manifest {@code backfills/backfill.yaml} next to a copy of the daily job in {@code
     * jobs/}, as in examples/; {@code body} holds its keys.
     */
    Path backfill(String body) {
      write("jobs/fact_orders_daily.yaml", example("jobs/fact_orders_daily.yaml"));
      return write("backfills/backfill.yaml", body);
    }

    /** {@code floe run MANIFEST --slice 2026-10-03 EXTRA...}. */
    String[] run(Path manifest, String... extra) {
      List<String> args = new ArrayList<>(List.of("run", manifest.toString()));
      args.addAll(List.of("--slice", "2026-10-03"));
      args.addAll(List.of(extra));
      return args.toArray(String[]::new);
    }

    /** {@code floe run MANIFEST EXTRA...}, no --slice. */
    String[] runWithout(Path manifest, String... extra) {
      List<String> args = new ArrayList<>(List.of("run", manifest.toString()));
      args.addAll(List.of(extra));
      return args.toArray(String[]::new);
    }

    String[] args(Object... args) {
      return java.util.Arrays.stream(args).map(String::valueOf).toArray(String[]::new);
    }

    /** Paths as the catalogue shows them: relative to the row's folder, the home as HOME. */
    String normalize(String text) {
      return text.replace(dir + "/", "")
          .replace(dir.toString(), ".")
          .replace(home.toString(), "HOME")
          .replace(examples + "/", "examples/");
    }
  }
}
