package dev.prefetch.parquet.internal.page;

import java.util.Arrays;

/**
 * Levels (or ids) as runs: an RLE run repeats one value; a bit-packed run lists its values. Taking
 * whole runs is what lets definition levels turn into null-mask blocks without a step per value.
 */
public interface LevelRuns {

  /** Makes a run current and returns how many of its values are left (at least 1). */
  int nextRun();

  /** Whether the current run repeats {@link #rleValue()}. */
  boolean isRle();

  int rleValue();

  /** Value {@code i} of the current bit-packed run's remaining values. */
  int packedValue(int i);

  /** Consumes {@code count} values of the current run. */
  void consume(int count);

  /** How many of the current run's next {@code count} values are {@code level}. */
  default int countOf(int level, int count) {
    if (isRle()) {
      return rleValue() == level ? count : 0;
    }
    int found = 0;
    for (int j = 0; j < count; j++) {
      found += packedValue(j) == level ? 1 : 0;
    }
    return found;
  }

  /**
   * Sets {@code marks[at + j]} to whether value {@code j} of the current run's next {@code count}
   * values is not {@code level} (a null, for definition levels).
   */
  default void markOthers(int level, boolean[] marks, int at, int count) {
    if (isRle()) {
      Arrays.fill(marks, at, at + count, rleValue() != level);
      return;
    }
    for (int j = 0; j < count; j++) {
      marks[at + j] = packedValue(j) != level;
    }
  }

  /** Levels already decoded into an array (old BIT_PACKED pages): one bit-packed run. */
  final class OfArray implements LevelRuns {
    private final int[] levels;
    private int next;

    OfArray(int[] levels) {
      this.levels = levels;
    }

    @Override
    public int nextRun() {
      if (next >= levels.length) {
        throw new IllegalStateException("definition levels ended early");
      }
      return levels.length - next;
    }

    @Override
    public boolean isRle() {
      return false;
    }

    @Override
    public int rleValue() {
      throw new IllegalStateException("not an RLE run");
    }

    @Override
    public int packedValue(int i) {
      return levels[next + i];
    }

    @Override
    public void consume(int count) {
      next += count;
    }
  }
}
