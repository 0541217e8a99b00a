package dev.prefetch.examples;

import dev.prefetch.examples.gen.GenSpec;

/**
 * Generator specs for the tests' small files: default columns, dictionaries, statistics, page
 * indexes.
 */
final class SmallSpecs {

  private SmallSpecs() {}

  static GenSpec of(
      String format,
      GenSpec.Kind kind,
      long rows,
      int rowGroups,
      int pageBytes,
      String codec,
      long seed) {
    return new GenSpec(
        format,
        kind,
        rows,
        0,
        rowGroups,
        GenSpec.DEFAULT_ROW_GROUP_BYTES,
        pageBytes,
        codec,
        true,
        true,
        true,
        seed);
  }
}
