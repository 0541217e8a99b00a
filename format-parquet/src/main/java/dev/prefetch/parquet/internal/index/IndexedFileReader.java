package dev.prefetch.parquet.internal.index;

import dev.prefetch.parquet.internal.check.PageCheckingStream;
import dev.prefetch.parquet.internal.io.ReadCoalescing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  /**
   * Offset indexes this reader has read, by their position in the file, for the row groups it is
   * reading or reading ahead: parquet-hadoop keeps a row group's indexes for its later slices
   * itself, and a slice read ahead finds them here instead of asking storage again.
   */
  private final Map<Long, OffsetIndex> known = new HashMap<>();

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
    List<ColumnChunkMetaData> missing = new ArrayList<>();
    for (ColumnChunkMetaData chunk : chunks) {
      IndexReference ref = chunk.getOffsetIndexReference();
      if (ref != null && !known.containsKey(ref.getOffset())) {
        missing.add(chunk);
      }
    }
    if (!missing.isEmpty()) {
      offsetIndexRequests.arm(missing);
      try {
        for (ColumnChunkMetaData chunk : missing) {
          OffsetIndex index = indexes.readOffsetIndex(chunk, stream, offsetIndexRequests);
          if (index != null) {
            known.put(chunk.getOffsetIndexReference().getOffset(), index);
          }
        }
      } finally {
        offsetIndexRequests.disarm();
      }
    }
    for (ColumnChunkMetaData chunk : chunks) {
      IndexReference ref = chunk.getOffsetIndexReference();
      read.add(ref == null ? null : known.get(ref.getOffset()));
    }
    return read;
  }

  /**
   * Keeps the offset indexes known for {@code chunks} only (the selected chunks of the row groups
   * being read and read ahead), so that what a reader keeps stays that of two row groups.
   */
  public void retainOffsetIndexes(List<ColumnChunkMetaData> chunks) {
    Set<Long> wanted = new HashSet<>();
    for (ColumnChunkMetaData chunk : chunks) {
      IndexReference ref = chunk.getOffsetIndexReference();
      if (ref != null) {
        wanted.add(ref.getOffset());
      }
    }
    known.keySet().retainAll(wanted);
  }

  @Override
  public OffsetIndex readOffsetIndex(ColumnChunkMetaData column) throws IOException {
    IndexReference ref = column.getOffsetIndexReference();
    OffsetIndex index = ref == null ? null : known.get(ref.getOffset());
    if (index == null) {
      index = indexes.readOffsetIndex(column, stream, offsetIndexRequests);
      if (index != null) {
        known.put(ref.getOffset(), index);
      }
    }
    if (stream instanceof PageCheckingStream checking) {
      checking.addPages(column, index); // the pages a read of selected pages is about to fetch
    }
    return index;
  }
}
