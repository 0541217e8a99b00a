package dev.prefetch.parquet.internal.index;

import dev.prefetch.parquet.internal.check.PageCheckingStream;
import dev.prefetch.parquet.internal.io.ReadCoalescing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * parquet-hadoop's file reader over an already parsed footer, with its page indexes read through a
 * {@link PageIndexReader} (metadata cache, shared parsed offset indexes). parquet-hadoop's filtered
 * row-group read asks for offset indexes through these methods.
 */
public final class IndexedFileReader extends ParquetFileReader {

  private final SeekableInputStream stream;
  private final PageIndexReader indexes;
  private final OffsetIndexRequests offsetIndexRequests;

  public IndexedFileReader(
      InputFile input,
      ParquetMetadata footer,
      ParquetReadOptions options,
      SeekableInputStream stream,
      PageIndexReader indexes)
      throws IOException {
    this(input, footer, options, stream, indexes, ReadCoalescing.OFF);
  }

  /**
   * A reader whose offset indexes of a row group, once {@link #armOffsetIndexes armed}, are read in
   * the requests {@code coalescing} joins.
   */
  public IndexedFileReader(
      InputFile input,
      ParquetMetadata footer,
      ParquetReadOptions options,
      SeekableInputStream stream,
      PageIndexReader indexes,
      ReadCoalescing coalescing)
      throws IOException {
    super(input, footer, options, stream);
    this.stream = stream;
    this.indexes = indexes;
    this.offsetIndexRequests = new OffsetIndexRequests(stream, coalescing, input.getLength());
  }

  /** Offset indexes read ahead for the next slice, by their position in the file. */
  private final Map<Long, OffsetIndex> readAhead = new HashMap<>();

  /**
   * Fetches the offset indexes of {@code chunks} (the selected chunks of the row group about to be
   * read) in joined requests, when parquet-hadoop asks for the first of them.
   */
  public void armOffsetIndexes(List<ColumnChunkMetaData> chunks) {
    offsetIndexRequests.arm(chunks);
  }

  /** Forgets the armed offset index requests. */
  public void disarmOffsetIndexes() {
    offsetIndexRequests.disarm();
  }

  @Override
  public ColumnIndex readColumnIndex(ColumnChunkMetaData column) throws IOException {
    return indexes.readColumnIndex(column, stream);
  }

  /**
   * Reads the offset indexes of {@code chunks} (the selected chunks of the row group a slice read
   * ahead will read) in joined requests now, and keeps them for that slice's own read, which then
   * asks storage for none of them again. Returns them in {@code chunks}' order (null for a chunk
   * without one).
   */
  public List<OffsetIndex> readOffsetIndexesAhead(List<ColumnChunkMetaData> chunks)
      throws IOException {
    List<OffsetIndex> read = new ArrayList<>(chunks.size());
    offsetIndexRequests.arm(chunks);
    try {
      for (ColumnChunkMetaData chunk : chunks) {
        OffsetIndex index = indexes.readOffsetIndex(chunk, stream, offsetIndexRequests);
        if (index != null) {
          readAhead.put(chunk.getOffsetIndexReference().getOffset(), index);
        }
        read.add(index);
      }
    } finally {
      offsetIndexRequests.disarm();
    }
    return read;
  }

  /** Forgets the offset indexes read ahead (the reader starts another range than announced). */
  public void dropOffsetIndexesAhead() {
    readAhead.clear();
  }

  @Override
  public OffsetIndex readOffsetIndex(ColumnChunkMetaData column) throws IOException {
    IndexReference ref = column.getOffsetIndexReference();
    OffsetIndex index = ref == null ? null : readAhead.remove(ref.getOffset());
    if (index == null) {
      index = indexes.readOffsetIndex(column, stream, offsetIndexRequests);
    }
    if (stream instanceof PageCheckingStream checking) {
      checking.addPages(column, index); // the pages a read of selected pages is about to fetch
    }
    return index;
  }
}
