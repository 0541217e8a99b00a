package dev.prefetch.parquet.internal.footer;

/** The field ids of a {@code RowGroup} struct (parquet.thrift), for the walks that read it. */
final class RowGroupFields {

  static final int COLUMNS = 1;
  static final int TOTAL_BYTE_SIZE = 2;
  static final int NUM_ROWS = 3;
  static final int SORTING_COLUMNS = 4;
  static final int FILE_OFFSET = 5;
  static final int TOTAL_COMPRESSED_SIZE = 6;
  static final int ORDINAL = 7;

  private RowGroupFields() {}
}
