package dev.prefetch.arrow;

import dev.prefetch.BatchReader;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.arrow.internal.VectorFiller;
import dev.prefetch.batch.RecordBatch;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A whole scan as an Arrow {@link ArrowReader}: each {@link #loadNextBatch()} takes the next batch
 * of a {@link BatchReader} (opened with {@link Readers#open}, so every read option, the prefetching
 * producers and the metadata cache apply), fills the reader's {@link #getVectorSchemaRoot() root}
 * with it and releases the batch.
 *
 * <pre>{@code
 * try (BufferAllocator allocator = new RootAllocator();
 *      PrefetchArrowReader reader = PrefetchArrowReader.open(List.of(DataFile.of(path)),
 *          ReadOptions.builder().columns("id", "price").parallelism(2).build(),
 *          ReadContext.defaults(), allocator)) {
 *   VectorSchemaRoot root = reader.getVectorSchemaRoot();
 *   while (reader.loadNextBatch()) {
 *     ... // root holds the next rows
 *   }
 * }
 * }</pre>
 *
 * <p>Memory: the root's buffers come from the caller's allocator; {@link #close()} closes the root
 * and the scan (its producers and files), so the allocator holds nothing of this reader afterwards,
 * also after a failed read or a close before the end. Read errors surface from {@code
 * loadNextBatch} as the scan's {@code ReadException} (naming the file and range).
 *
 * <p>Bounds checks: the conversion writes whole buffers and makes no per-value Arrow call, so
 * Arrow's {@code arrow.enable_unsafe_memory_access} and {@code arrow.enable_null_check_for_get}
 * system properties do not change its cost; they matter to code that reads the root value by value,
 * and this reader sets neither (the README says what each one trades).
 *
 * <p>Dictionaries: a dictionary-encoded field's vector in the root holds the indices; this reader,
 * as every {@code ArrowReader}, is the {@code DictionaryProvider} of its dictionaries ({@link
 * #lookup}, {@link #getDictionaryVectors()}). Which fields are encoded is fixed at open (see {@link
 * #open(List, ReadOptions, ReadContext, BufferAllocator) open}); the dictionary of a field stays
 * the same while its batches share one (a Parquet column chunk's), and is replaced by the next
 * chunk's or, for a chunk read plain, by the batch's own values, as {@link BatchConverter} says. An
 * IPC writer over this reader must be given it as its provider ({@code new
 * ArrowStreamWriter(reader.getVectorSchemaRoot(), reader, out)}); the stream writer then writes a
 * dictionary batch whenever the dictionary changed.
 *
 * <p>Across the C Data Interface, {@link #exportTo(ArrowArrayStream)} hands the scan to native code
 * (DuckDB, Arrow C++, Python); the stream then owns this reader and closes it when the consumer
 * releases the stream. Each exported array of a dictionary-encoded field carries its dictionary; an
 * unchanged one is exported by reference, not copied.
 */
public final class PrefetchArrowReader extends ArrowReader {

  private final BatchReader scan;
  private final ArrowMapping mapping;
  private final VectorFiller filler;
  private long rows;
  private long batches;

  private PrefetchArrowReader(BatchReader scan, ArrowMapping mapping, BufferAllocator allocator) {
    super(allocator);
    this.scan = scan;
    this.mapping = mapping;
    this.filler = new VectorFiller(allocator);
  }

  /**
   * Opens a scan of {@code files} (their rows in list order) as an Arrow reader. The Arrow schema
   * is the {@link ArrowMapping#of(dev.prefetch.batch.Schema, org.apache.hadoop.fs.Path,
   * org.apache.hadoop.conf.Configuration, ReadOptions) mapping} of the first file with {@code
   * options}: the string and binary columns that {@code parquet.read.dictionary-vectors} (a Parquet
   * file) or {@code orc.read.dictionary-vectors} (an ORC file) selects are dictionary-encoded.
   *
   * @throws IOException when a file cannot be opened or planned (the message names it)
   */
  public static PrefetchArrowReader open(
      List<DataFile> files, ReadOptions options, ReadContext context, BufferAllocator allocator)
      throws IOException {
    Objects.requireNonNull(allocator, "allocator is null");
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no files to read");
    }
    BatchReader scan = Readers.open(files, options, context);
    try {
      ArrowMapping mapping =
          ArrowMapping.of(scan.schema(), files.get(0).path(), context.configuration(), options);
      return new PrefetchArrowReader(scan, mapping, allocator);
    } catch (IOException | RuntimeException e) {
      try {
        scan.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** Opens a scan of one file or split. */
  public static PrefetchArrowReader open(
      DataFile file, ReadOptions options, ReadContext context, BufferAllocator allocator)
      throws IOException {
    return open(List.of(file), options, context, allocator);
  }

  /** The mapping of the scan's columns to Arrow fields. */
  public ArrowMapping mapping() {
    return mapping;
  }

  /** The scan behind this reader (for its metrics). */
  public BatchReader scan() {
    return scan;
  }

  /** Rows loaded so far. */
  public long rows() {
    return rows;
  }

  /** Batches loaded so far. */
  public long batches() {
    return batches;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    RecordBatch batch = scan.next();
    if (batch == null) {
      return false;
    }
    try {
      // This reader is the provider of the dictionaries ArrowReader created from readSchema().
      BatchConverter.fill(getVectorSchemaRoot(), this, mapping, filler, batch);
    } finally {
      batch.release();
    }
    rows += batch.rowCount();
    batches++;
    return true;
  }

  /** Bytes the scan read from storage so far. */
  @Override
  public long bytesRead() {
    return scan.metrics().bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    scan.close();
  }

  @Override
  protected Schema readSchema() {
    return mapping.arrowSchema();
  }

  /**
   * Exports this reader as a C Data Interface stream into {@code stream} (allocated by the caller,
   * for example with {@code ArrowArrayStream.allocateNew(allocator)}). The stream owns this reader
   * from now on: the consumer's release closes it.
   */
  public void exportTo(ArrowArrayStream stream) {
    Data.exportArrayStream(allocator, this, stream);
  }
}
