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
 * <p>Across the C Data Interface, {@link #exportTo(ArrowArrayStream)} hands the scan to native code
 * (DuckDB, Arrow C++, Python); the stream then owns this reader and closes it when the consumer
 * releases the stream.
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
   * is the {@link ArrowMapping} of the first file.
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
          ArrowMapping.of(scan.schema(), files.get(0).path(), context.configuration());
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
      BatchConverter.fill(getVectorSchemaRoot(), mapping, filler, batch);
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
