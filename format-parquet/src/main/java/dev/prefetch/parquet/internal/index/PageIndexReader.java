package dev.prefetch.parquet.internal.index;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.cache.Cache;
import dev.prefetch.cache.CacheKey;
import dev.prefetch.cache.CacheValue;
import dev.prefetch.cache.FileIdentity;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Reads ColumnIndex and OffsetIndex structures: their bytes from the metadata cache (keyed by their
 * real position and length) or from the file, then parsed; parsed offset indexes may be kept in an
 * {@link OffsetIndexCache}. Thread-safe: the stream to read from is the caller's.
 */
public final class PageIndexReader {

  private final DataFile file;
  private final long fileLength;
  private final Cache cache;
  private final FileIdentity identity;
  private final OffsetIndexCache offsetIndexes;

  /**
   * @param cache the metadata cache, or null
   * @param identity the file's identity, or null (then the cache is bypassed)
   * @param offsetIndexes parsed offset indexes to reuse, or null
   */
  public PageIndexReader(
      DataFile file,
      long fileLength,
      Cache cache,
      FileIdentity identity,
      OffsetIndexCache offsetIndexes) {
    this.file = file;
    this.fileLength = fileLength;
    this.cache = identity == null ? null : cache;
    this.identity = identity;
    this.offsetIndexes = offsetIndexes;
  }

  /** Bytes of the file fetched ahead, with the request that read them. */
  interface Prefetched {
    /**
     * The bytes {@code [position, position + length)} when a request fetched ahead holds them, else
     * null.
     */
    byte[] bytes(long position, int length) throws IOException;
  }

  /** The offset index of a column chunk, or null when the file has none. */
  public OffsetIndex readOffsetIndex(ColumnChunkMetaData column, SeekableInputStream in)
      throws IOException {
    return readOffsetIndex(column, in, null);
  }

  /**
   * The offset index of a column chunk, or null when the file has none; its bytes from {@code
   * prefetched} when it holds them (and the cache has not).
   */
  OffsetIndex readOffsetIndex(
      ColumnChunkMetaData column, SeekableInputStream in, Prefetched prefetched)
      throws IOException {
    IndexReference ref = column.getOffsetIndexReference();
    if (ref == null) {
      return null;
    }
    if (offsetIndexes != null) {
      OffsetIndex cached = offsetIndexes.get(ref.getOffset());
      if (cached != null) {
        return cached;
      }
    }
    byte[] bytes = bytes(ref, column, "offset index", in, prefetched);
    OffsetIndex index;
    try {
      index =
          ParquetMetadataConverter.fromParquetOffsetIndex(
              Util.readOffsetIndex(new ByteArrayInputStream(bytes)));
    } catch (IOException | RuntimeException e) {
      throw corrupt("offset index", column, e);
    }
    if (offsetIndexes != null) {
      offsetIndexes.put(ref.getOffset(), index);
    }
    return index;
  }

  /** The column index of a column chunk, or null when the file has none. */
  public ColumnIndex readColumnIndex(ColumnChunkMetaData column, SeekableInputStream in)
      throws IOException {
    IndexReference ref = column.getColumnIndexReference();
    if (ref == null) {
      return null;
    }
    byte[] bytes = bytes(ref, column, "column index", in, null);
    try {
      return ParquetMetadataConverter.fromParquetColumnIndex(
          column.getPrimitiveType(), Util.readColumnIndex(new ByteArrayInputStream(bytes)));
    } catch (IOException | RuntimeException e) {
      throw corrupt("column index", column, e);
    }
  }

  private byte[] bytes(
      IndexReference ref,
      ColumnChunkMetaData column,
      String what,
      SeekableInputStream in,
      Prefetched prefetched)
      throws IOException {
    long position = ref.getOffset();
    int length = ref.getLength();
    if (position < 0 || length <= 0 || position > fileLength - length) {
      throw new CorruptFileException(
          "Corrupt Parquet file "
              + file
              + ": the "
              + what
              + " of column "
              + column.getPath().toDotString()
              + " in row group "
              + column.getRowGroupOrdinal()
              + " lies at ["
              + position
              + ", +"
              + length
              + "), outside the file of "
              + fileLength
              + " bytes");
    }
    if (cache == null) {
      return read(in, prefetched, position, length);
    }
    CacheValue value =
        cache.get(
            CacheKey.region(identity, position, length),
            key -> CacheValue.copyOf(read(in, prefetched, position, length)));
    return value.toByteArray();
  }

  private static byte[] read(
      SeekableInputStream in, Prefetched prefetched, long position, int length) throws IOException {
    byte[] ahead = prefetched == null ? null : prefetched.bytes(position, length);
    if (ahead != null) {
      return ahead;
    }
    byte[] bytes = new byte[length];
    in.seek(position);
    in.readFully(bytes);
    return bytes;
  }

  private CorruptFileException corrupt(String what, ColumnChunkMetaData column, Exception e) {
    return new CorruptFileException(
        "Corrupt "
            + what
            + " of column "
            + column.getPath().toDotString()
            + " in row group "
            + column.getRowGroupOrdinal()
            + " of "
            + file
            + ": "
            + e.getMessage(),
        e);
  }
}
