package dev.prefetch.cache;

/** What a cached value is, so that a {@link RoutingCache} can keep each kind in its own backend. */
public enum CacheKind {
  /** Parquet footers, ORC file tails, Parquet ColumnIndex and OffsetIndex bytes, footer indexes. */
  DATA_FILE_FOOTER,
  /** Anything else. */
  DEFAULT
}
