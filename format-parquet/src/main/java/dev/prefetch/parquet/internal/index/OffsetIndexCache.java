package dev.prefetch.parquet.internal.index;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;

/**
 * Parsed {@link OffsetIndex} objects of one file, kept for the life of one reader so that the
 * indexes parsed while planning page-aligned slices are reused by the producers that read them
 * ({@code parquet.read.enable-offset-index-cache}).
 *
 * <p>Bounded to {@value #MAX_ENTRIES} column chunks, least recently used first out: an offset index
 * holds about 20 bytes per page, so the bound keeps a reader's cache to a few MiB even for wide
 * files with many pages. Thread-safe: producers share it; every method holds the monitor.
 */
public final class OffsetIndexCache {

  /** Column chunks whose offset index is kept. */
  public static final int MAX_ENTRIES = 4096;

  @GuardedBy("this")
  private final Map<Long, OffsetIndex> entries =
      new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, OffsetIndex> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  /** The index stored at file offset {@code position}, or null. */
  public synchronized OffsetIndex get(long position) {
    return entries.get(position);
  }

  public synchronized void put(long position, OffsetIndex index) {
    entries.put(position, index);
  }

  public synchronized int size() {
    return entries.size();
  }
}
