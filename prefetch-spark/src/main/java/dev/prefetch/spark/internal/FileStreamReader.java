package dev.prefetch.spark.internal;

import dev.prefetch.DataFile;
import dev.prefetch.ReadException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;
import org.apache.spark.rdd.InputFileBlockHolder;
import org.apache.spark.sql.catalyst.FileSourceOptions;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.DataSourceUtils;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.v2.FileDataSourceV2;
import org.apache.spark.sql.execution.datasources.v2.FilePartitionReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The files of one task's partition read as one ordered stream: one {@link PrefetchPartitionReader}
 * over all of them, whose producers read the next files' footers and first ranges while the current
 * file drains, instead of a reader per file opened on the task's thread one after another. What
 * Spark's own per-file walker ({@link FilePartitionReader}) does is kept:
 *
 * <ul>
 *   <li>{@code input_file_name()} and its kin: {@link InputFileBlockHolder} is set to a file when
 *       its first batch is handed out (batches know their file).
 *   <li>Failures: the stream raises a file's failure in read order, once every batch before it was
 *       handed out, naming the file ({@link ReadException#file()}); it is handled as the walker
 *       handles a failure of that file. A file none of whose batches was handed out failed to open:
 *       with {@code ignoreMissingFiles} a missing one is skipped, with {@code ignoreCorruptFiles} a
 *       failing one is; a file whose batches were partly handed out has the rest of it skipped with
 *       {@code ignoreCorruptFiles}. Each skip logs a warning naming the file, and a new stream
 *       opens on the files after it. Denied access and missing HDFS blocks are never skipped, as in
 *       Spark. Otherwise the task fails with Spark's error naming the file.
 *   <li>A file the stream cannot serve: one that lacks a column of the read (a table read with
 *       {@code mergeSchema}, a schema the user gave) or refuses the pushed predicate, which fails
 *       with an {@link IllegalArgumentException} before any of its batches. From that file on, the
 *       partition is read by Spark's walker over {@code perFile} (one reader per file, which reads
 *       an absent column as nulls and opens a file without a predicate it refuses).
 * </ul>
 *
 * <p>Lifecycle: only the task's thread calls an instance. A batch handed out by {@link #get()}
 * stays valid until the next {@link #next()} or {@link #close()}, as the stream's own batches do.
 * {@code close()} closes the stream (or the walker) and unsets the task's input file.
 */
final class FileStreamReader implements PartitionReader<ColumnarBatch> {

  private static final Logger LOG = LoggerFactory.getLogger(FileStreamReader.class);

  /** Opens a stream over some of the partition's splits. */
  @FunctionalInterface
  interface StreamOpener {
    /**
     * Opens {@code splits} as one stream.
     *
     * @param partitionValues per split, its partition values
     */
    PrefetchPartitionReader open(List<DataFile> splits, List<InternalRow> partitionValues)
        throws IOException;
  }

  private final List<PartitionedFile> files;

  /** Per file of {@link #files}: the split it stands for. */
  private final List<DataFile> splits;

  private final List<InternalRow> partitionValues;
  private final StreamOpener opener;
  private final Function1<PartitionedFile, PartitionReader<ColumnarBatch>> perFile;
  private final FileSourceOptions options;

  /** The open stream, over {@code files[from..]}; null before it opens and after a failure. */
  private PrefetchPartitionReader stream;

  /** The first file of the next stream to open (or of the open one). */
  private int from;

  /** The index of the file whose batch was handed out last; -1 before the first. */
  private int handedOut = -1;

  /** Spark's walker over the rest of the files, once the stream handed them over; else null. */
  private PartitionReader<ColumnarBatch> rest;

  private ColumnarBatch batch;
  private boolean closed;

  /**
   * @param files the partition's files, at least one
   * @param opener opens a stream over some of them
   * @param perFile opens one of them alone (Spark's walker calls it for the files the stream hands
   *     over)
   * @param options the scan's file options ({@code ignoreCorruptFiles}, {@code ignoreMissingFiles})
   */
  FileStreamReader(
      List<PartitionedFile> files,
      StreamOpener opener,
      Function1<PartitionedFile, PartitionReader<ColumnarBatch>> perFile,
      FileSourceOptions options) {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no file to read");
    }
    this.files = List.copyOf(files);
    List<DataFile> splits = new ArrayList<>(files.size());
    List<InternalRow> values = new ArrayList<>(files.size());
    for (PartitionedFile file : files) {
      splits.add(splitOf(file));
      values.add(file.partitionValues());
    }
    this.splits = List.copyOf(splits);
    this.partitionValues = List.copyOf(values);
    this.opener = opener;
    this.perFile = perFile;
    this.options = options;
  }

  /** The split of its file that {@code file} stands for (Spark gives every file as a split). */
  static DataFile splitOf(PartitionedFile file) {
    return DataFile.split(new Path(file.pathUri()), file.start(), file.length());
  }

  @Override
  public boolean next() throws IOException {
    if (closed) {
      throw new IllegalStateException("reader of " + files.size() + " files is closed");
    }
    batch = null;
    while (rest == null) {
      if (stream == null) {
        if (from >= files.size()) {
          return false;
        }
        try {
          stream =
              opener.open(
                  splits.subList(from, splits.size()),
                  partitionValues.subList(from, partitionValues.size()));
        } catch (IOException | RuntimeException e) {
          failed(from, e); // opening plans the first file only
          continue;
        }
      }
      boolean more;
      try {
        more = stream.next();
      } catch (IOException | RuntimeException e) {
        failed(failedFile(e), e);
        continue;
      }
      if (!more) {
        PrefetchPartitionReader done = stream;
        stream = null;
        from = files.size();
        done.close();
        return false;
      }
      int index = from + stream.fileIndex();
      if (index != handedOut) {
        handedOut = index;
        PartitionedFile file = files.get(index);
        InputFileBlockHolder.set(file.urlEncodedPath(), file.start(), file.length());
      }
      batch = stream.get();
      return true;
    }
    if (rest.next()) {
      batch = rest.get();
      return true;
    }
    return false;
  }

  /** The index of the file {@code e} names, among those not finished yet; -1 if none. */
  private int failedFile(Throwable e) {
    if (e instanceof ReadException read && read.file() != null) {
      for (int i = Math.max(from, handedOut); i < splits.size(); i++) {
        if (splits.get(i).equals(read.file())) {
          return i;
        }
      }
    }
    return -1;
  }

  /**
   * Handles the failure {@code e} of file {@code index} (-1: unknown) as Spark's walker would:
   * returns when the read goes on (the file skipped, or the rest handed to the walker), else
   * throws. The stream is closed either way: it ends at its first failure.
   */
  private void failed(int index, Exception e) throws IOException {
    if (stream != null) {
      try {
        stream.close();
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      stream = null;
    }
    FileNotFoundException missing = PrefetchReaderFactory.missing(e);
    Throwable reported = missing != null ? missing : e;
    if (index < 0 || index < handedOut) {
      // A failure of no file, or of one whose batches all went out (closing its reader): the
      // stream cannot resume where it stopped without repeating rows.
      throw attach(files.get(index < 0 ? Math.max(from, handedOut) : index), reported);
    }
    PartitionedFile file = files.get(index);
    boolean started = index == handedOut;
    if (!started && causedBy(e, IllegalArgumentException.class)) {
      LOG.info(
          "Reading {} and the {} files after it one by one: {}",
          file.urlEncodedPath(),
          files.size() - index - 1,
          e.getMessage());
      rest =
          new FilePartitionReader<>(
              CollectionConverters.asScala(files.subList(index, files.size()).iterator()),
              perFile,
              options);
      from = files.size();
      return;
    }
    if (neverSkipped(e)) {
      throw attach(file, reported);
    }
    if (!started && missing != null && options.ignoreMissingFiles()) {
      LOG.warn("Skipped missing file {}", file.urlEncodedPath(), e);
      from = index + 1;
      return;
    }
    if (options.ignoreCorruptFiles() && DataSourceUtils.shouldIgnoreCorruptFileException(e)) {
      LOG.warn(
          started
              ? "Skipped the rest of the content in the corrupted file {}"
              : "Skipped the corrupted file {}",
          file.urlEncodedPath(),
          e);
      from = index + 1;
      return;
    }
    throw attach(file, reported);
  }

  /** Whether Spark's walker fails on {@code e} even with {@code ignoreCorruptFiles}. */
  private static boolean neverSkipped(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof AccessControlException
          || cause.getClass().getName().equals("org.apache.hadoop.hdfs.BlockMissingException")) {
        return true;
      }
    }
    return false;
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return true;
      }
    }
    return false;
  }

  /** Spark's error for a failure reading {@code file} (Spark's method throws it). */
  private static IOException attach(PartitionedFile file, Throwable e) {
    Throwable attached = FileDataSourceV2.attachFilePath(file::urlEncodedPath, e);
    throw Scala.<RuntimeException>sneaky(attached);
  }

  @Override
  public ColumnarBatch get() {
    if (batch == null) {
      throw new IllegalStateException("no current batch");
    }
    return batch;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    batch = null;
    try {
      if (stream != null) {
        stream.close();
      }
    } finally {
      stream = null;
      try {
        if (rest != null) {
          rest.close();
        }
      } finally {
        InputFileBlockHolder.unset();
      }
    }
  }
}
