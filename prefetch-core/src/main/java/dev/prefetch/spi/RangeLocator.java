package dev.prefetch.spi;

/**
 * Where a format finds the rows of one {@link ReadRange}: a Parquet row group and slice, an ORC
 * stripe and strides. Each format has its own immutable record; the runtime only names it in
 * messages. A format's range reader does not read the locator back from the range: it keeps its own
 * typed list beside its plan's ranges and looks it up by {@link ReadRange#index()}.
 */
public interface RangeLocator {

  /** A short description for messages: "row group 3 rows 1000..2000", "stripe 2 strides 4..7". */
  String describe();

  /** A locator that is only its description, for formats with nothing more to locate. */
  static RangeLocator named(String description) {
    return new Named(description);
  }

  /** The locator of {@link #named}. */
  record Named(String describe) implements RangeLocator {
    public Named {
      java.util.Objects.requireNonNull(describe, "description is null");
    }

    @Override
    public String toString() {
      return describe;
    }
  }
}
