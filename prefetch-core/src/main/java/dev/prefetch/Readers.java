package dev.prefetch;

import dev.prefetch.internal.runtime.ReaderFactory;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Opens readers. The format of each file is chosen by its extension ({@code .parquet}, {@code
 * .orc}) or, failing that, by its magic bytes, among the formats on the class path.
 *
 * <pre>{@code
 * try (ReadContext context = ReadContext.defaults();
 *      BatchReader reader = Readers.open(new Path("file:///data/events.parquet"),
 *          ReadOptions.builder().columns("id", "ts").parallelism(4).build(), context)) {
 *   for (RecordBatch batch; (batch = reader.next()) != null; ) {
 *     LongVector ids = (LongVector) batch.column("id");
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>Metadata is read and the read is planned in {@code open}, on the calling thread, so a missing
 * file, a file of no known format, a corrupt footer or an unknown column fail here, with an
 * exception naming the file. Producer threads start only if prefetching is chosen (see {@link
 * ReadOptions}).
 */
public final class Readers {

  private Readers() {}

  /**
   * Opens {@code path} with default options and context.
   *
   * @throws java.io.FileNotFoundException when the file does not exist
   * @throws CorruptFileException when the file is of no known format or its metadata is corrupt
   * @throws IOException when the file system fails while the metadata is read
   * @see #open(List, ReadOptions, ReadContext)
   */
  public static BatchReader open(Path path) throws IOException {
    return open(DataFile.of(path), ReadOptions.defaults(), ReadContext.defaults());
  }

  /**
   * Opens {@code path}.
   *
   * @throws IOException as {@link #open(List, ReadOptions, ReadContext)}
   */
  public static BatchReader open(Path path, ReadOptions options, ReadContext context)
      throws IOException {
    return open(DataFile.of(path), options, context);
  }

  /**
   * Opens a local file.
   *
   * @throws IOException as {@link #open(List, ReadOptions, ReadContext)}
   */
  public static BatchReader open(java.nio.file.Path path, ReadOptions options, ReadContext context)
      throws IOException {
    return open(DataFile.of(path), options, context);
  }

  /**
   * Opens a file or a split of one.
   *
   * @throws IOException as {@link #open(List, ReadOptions, ReadContext)}
   */
  public static BatchReader open(DataFile file, ReadOptions options, ReadContext context)
      throws IOException {
    return open(List.of(file), options, context);
  }

  /**
   * Checks the format entries of {@code options} ({@link ReadOptions#formatProperties()}) with
   * every format on the class path, as {@code open} does before it reads anything: for callers that
   * take options long before they open a reader (an engine planning a scan, a command line).
   *
   * @throws IllegalArgumentException for a bad value of a format's key, naming the key
   */
  public static void checkOptions(ReadOptions options) {
    ReaderFactory.checkOptions(options);
  }

  /**
   * Opens a reader over several files (or splits) that returns their rows in list order. Producers
   * move on to the next files' metadata and first ranges while the current file drains. The first
   * file is planned here, on the calling thread; a later file's failure comes from {@link
   * BatchReader#next()}.
   *
   * @throws java.io.FileNotFoundException when a file does not exist
   * @throws CorruptFileException when a file is of no known format, or its metadata is truncated or
   *     corrupt (the message names the file)
   * @throws IOException when the file system fails while the metadata is read
   * @throws IllegalArgumentException when a projected column is not in the file, or {@code files}
   *     is empty
   * @throws IllegalStateException when {@code context} is closed
   * @throws NullPointerException when an argument is null
   */
  public static BatchReader open(List<DataFile> files, ReadOptions options, ReadContext context)
      throws IOException {
    return ReaderFactory.open(files, options, context);
  }
}
