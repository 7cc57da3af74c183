package dev.floe.flink.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What a command made of subcommands ({@code floe late}, {@code tables}, {@code k8s}) says alone.
 */
final class Subcommands {

  private Subcommands() {}

  /**
   * A usage error (exit 2) naming the subcommands: a script that forgot one must not read the usage
   * text, exit 0, as success.
   */
  static CommandLine.ParameterException missing(CommandSpec spec) {
    return new CommandLine.ParameterException(
        spec.commandLine(),
        String.format(
            "Cannot run floe %s without a subcommand: give one of %s",
            spec.name(),
            String.join(
                ", ",
                spec.subcommands().keySet().stream().filter(n -> !n.equals("help")).toList())));
  }
}
