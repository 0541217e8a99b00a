package dev.prefetch.parquet.internal;

import java.io.IOException;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
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

  public IndexedFileReader(
      InputFile input,
      ParquetMetadata footer,
      ParquetReadOptions options,
      SeekableInputStream stream,
      PageIndexReader indexes)
      throws IOException {
    super(input, footer, options, stream);
    this.stream = stream;
    this.indexes = indexes;
  }

  @Override
  public ColumnIndex readColumnIndex(ColumnChunkMetaData column) throws IOException {
    return indexes.readColumnIndex(column, stream);
  }

  @Override
  public OffsetIndex readOffsetIndex(ColumnChunkMetaData column) throws IOException {
    OffsetIndex index = indexes.readOffsetIndex(column, stream);
    if (stream instanceof PageCheckingStream checking) {
      checking.addPages(column, index); // the pages a read of selected pages is about to fetch
    }
    return index;
  }
}
