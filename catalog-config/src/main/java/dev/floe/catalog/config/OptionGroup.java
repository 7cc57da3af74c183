package dev.floe.catalog.config;

import java.util.List;

/** A titled list of options, one section of docs/configuration.md. */
public record OptionGroup(String title, String description, List<FloeOption> options) {}
