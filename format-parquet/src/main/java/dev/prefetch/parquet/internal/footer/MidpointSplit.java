package dev.prefetch.parquet.internal.footer;

import dev.prefetch.CorruptFileException;

/**
 * The row groups of an input split, by the rule of parquet-hadoop's split planning (which Spark and
 * Hive share): a split reads a row group when the row group's midpoint lies in its byte range. The
 * midpoint is the start (the first column chunk's dictionary page offset when set and lower than
 * its first data page offset, else that data page offset) plus half of {@code
 * total_compressed_size} (the sum of the chunks' sizes when unset). Since the splits of a file
 * cover its bytes without overlap, every row group falls into exactly one split.
 *
 * <p>Only the first column chunk of each candidate row group is decoded, never the whole struct
 * (unless it lacks {@code total_compressed_size}), so a split of a wide file costs little more than
 * the row groups it reads.
 */
final class MidpointSplit {

  private MidpointSplit() {}

  /** The row groups of {@code candidates} (ascending) whose midpoint {@code split} contains. */
  static int[] keep(int[] candidates, RowGroupSelection.Split split, SelectiveFooterDecoder decoder)
      throws CorruptFileException {
    FooterIndex index = decoder.index();
    int[] kept = new int[candidates.length];
    int n = 0;
    for (int rowGroup : candidates) {
      long size = index.rowGroupCompressedSize(rowGroup);
      if (size == FooterIndex.ABSENT) {
        size = decoder.chunkCompressedSizes(rowGroup);
      }
      if (split.contains(decoder.midpointStart(rowGroup) + size / 2)) {
        kept[n++] = rowGroup;
      }
    }
    return java.util.Arrays.copyOf(kept, n);
  }
}
