package dev.prefetch.orc.internal.reader;

import java.util.Objects;
import java.util.TimeZone;

/**
 * How a read decodes the values of one file, the same for every stripe and column; immutable.
 *
 * @param decimal64 whether decimals of at most 18 digits are stored as integers (orc-core's file
 *     version UNSTABLE_PRE_2_0), not as varints with scales
 * @param toHybridCalendar whether dates and timestamps before the Gregorian switch move from the
 *     proleptic calendar the file was written in to the hybrid Julian-Gregorian one, as orc-core's
 *     reader moves them unless told to read proleptic ({@code orc.proleptic.gregorian})
 * @param defaultZone the time zone of a {@code timestamp} column whose stripe names no writer's
 *     time zone: the JVM's default when the read began, as orc-core assumes
 * @param maxBatchBytes the most bytes one batch's values of a column may take (the read's {@code
 *     prefetch.max-buffered-bytes}): a valid file whose values outgrow it is refused as too large
 */
public record ReadSettings(
    boolean decimal64, boolean toHybridCalendar, TimeZone defaultZone, long maxBatchBytes) {

  /** Bytes an element of a list takes at least in a batch (its offset, null flag and value). */
  static final int MIN_ELEMENT_BYTES = 9;

  /** The largest array the JVM allocates. */
  static final long MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

  public ReadSettings {
    Objects.requireNonNull(defaultZone, "defaultZone is null");
    if (maxBatchBytes <= 0) {
      throw new IllegalArgumentException("maxBatchBytes must be positive: " + maxBatchBytes);
    }
    defaultZone = (TimeZone) defaultZone.clone();
  }

  @Override
  public TimeZone defaultZone() {
    return (TimeZone) defaultZone.clone();
  }
}
