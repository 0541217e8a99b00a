package dev.prefetch.parquet.internal.page;

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
