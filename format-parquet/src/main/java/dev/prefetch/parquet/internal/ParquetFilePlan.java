package dev.prefetch.parquet.internal;

import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.Schema;
import dev.prefetch.parquet.ParquetOptions;
import dev.prefetch.parquet.internal.codec.PageCodecs;
import dev.prefetch.parquet.internal.index.PageIndexReader;
import dev.prefetch.parquet.internal.io.CountingInputFile;
import dev.prefetch.parquet.internal.io.ReadCoalescing;
import dev.prefetch.parquet.internal.plan.Projection;
import dev.prefetch.parquet.internal.plan.SliceSpec;
import dev.prefetch.spi.ByteArrayPool;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ReaderContext;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.MessageType;

/**
 * A planned Parquet read: the footer parsed once, the projection, the ranges and how to read each.
 * Immutable after construction except for the shared offset index cache (thread-safe); producers
 * call {@link #openReader(ReaderContext)} concurrently, each getting its own stream and
 * parquet-hadoop reader over the same parsed footer.
 */
public final class ParquetFilePlan implements FilePlan {

  private final DataFile file;
  private final InputFile input;
  private final ParquetMetadata footer;
  private final ParquetReadOptions readOptions;
  private final Configuration conf;
  private final Projection projection;
  private final PageIndexReader indexes;
  private final List<ReadRange> ranges;
  private final List<SliceSpec> specs;
  private final int batchSize;
  private final ReadOptions options;
  private final ParquetOptions.DictionaryVectors dictionaryVectors;
  private final ScanCounters counters;

  ParquetFilePlan(
      DataFile file,
      InputFile input,
      ParquetMetadata footer,
      ParquetReadOptions readOptions,
      Configuration conf,
      Projection projection,
      PageIndexReader indexes,
      List<ReadRange> ranges,
      List<SliceSpec> specs,
      ReadOptions options,
      ParquetOptions.DictionaryVectors dictionaryVectors,
      ScanCounters counters) {
    this.file = file;
    this.input = input;
    this.footer = readFooter(footer, projection);
    this.readOptions = readOptions;
    this.conf = conf;
    this.projection = projection;
    this.indexes = indexes;
    this.ranges = List.copyOf(ranges);
    this.specs = List.copyOf(specs);
    this.batchSize = options.batchSize();
    this.options = options;
    this.dictionaryVectors = dictionaryVectors;
    this.counters = counters;
  }

  /**
   * The footer the readers get: the same blocks, with the schema cut down to the projected columns,
   * since parquet-hadoop's reader set-up walks every column of the schema it is given (thousands on
   * a wide file) while a read needs only the projected ones.
   */
  private static ParquetMetadata readFooter(ParquetMetadata footer, Projection projection) {
    FileMetaData metadata = footer.getFileMetaData();
    MessageType schema = Projection.prune(metadata.getSchema(), projection.leaves());
    if (schema == metadata.getSchema()) {
      return footer;
    }
    return new ParquetMetadata(
        new FileMetaData(
            schema,
            metadata.getKeyValueMetaData(),
            metadata.getCreatedBy(),
            metadata.getEncryptionType(),
            metadata.getFileDecryptor()),
        footer.getBlocks());
  }

  @Override
  public DataFile file() {
    return file;
  }

  @Override
  public String formatName() {
    return "parquet";
  }

  @Override
  public Schema schema() {
    return projection.schema();
  }

  @Override
  public List<ReadRange> ranges() {
    return ranges;
  }

  @Override
  public RangeReader openReader(ReaderContext context) throws IOException {
    return new ParquetRangeReader(this, context);
  }

  /** How to read range {@code index}. */
  SliceSpec spec(int index) {
    return specs.get(index);
  }

  InputFile input() {
    return input;
  }

  /** The footer with the projected schema (see {@link #readFooter}). */
  ParquetMetadata footer() {
    return footer;
  }

  /**
   * Read options for one more parquet-hadoop reader: the plan's, with a codec factory of its own,
   * since a factory pools decompressors without locking and a reader's close releases them; SNAPPY
   * pages go into arrays of the reader's {@code buffers}, column chunks into {@code chunkBuffers}.
   */
  ParquetReadOptions newReaderOptions(ByteArrayPool buffers, ByteBufferAllocator chunkBuffers) {
    return HadoopReadOptions.builder(conf)
        .copy(readOptions)
        .withCodecFactory(PageCodecs.forReader(conf, buffers))
        .withAllocator(chunkBuffers)
        .build();
  }

  Projection projection() {
    return projection;
  }

  PageIndexReader indexes() {
    return indexes;
  }

  /**
   * Off the local filesystem (and for a file not read whole), a reader reads its next row group
   * ahead while it decodes the current one.
   */
  @Override
  public boolean readsAhead() {
    return input instanceof CountingInputFile counted && counted.readsVectored();
  }

  /** How the file's reads are joined into requests: the input's rule, or none. */
  ReadCoalescing coalescing() {
    return input instanceof CountingInputFile counted ? counted.coalescing() : ReadCoalescing.OFF;
  }

  int batchSize() {
    return batchSize;
  }

  /** The most batches a producer's queue holds (what each column's array pool keeps). */

  /** The columns read as dictionary vectors where their chunk allows. */
  ParquetOptions.DictionaryVectors dictionaryVectors() {
    return dictionaryVectors;
  }

  ScanCounters counters() {
    return counters;
  }
}
