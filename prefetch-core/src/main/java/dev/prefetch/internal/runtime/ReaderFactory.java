package dev.prefetch.internal.runtime;

import dev.prefetch.BatchReader;
import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadException;
import dev.prefetch.ReadOptions;
import dev.prefetch.internal.jfr.ReadScope;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FileFormats;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.ScanCounters;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSError;

/**
 * Builds a reader: plans the first file on the caller's thread, decides between the single and the
 * prefetching path, and starts producers only for the latter.
 *
 * <p>Not API: {@link dev.prefetch.Readers} is the entry point (see the package doc).
 */
public final class ReaderFactory {

  private static final AtomicLong READER_IDS = new AtomicLong();

  private ReaderFactory() {}

  /** See {@link dev.prefetch.Readers#checkOptions}. */
  public static void checkOptions(ReadOptions options) {
    for (FileFormat format : FileFormats.all()) {
      format.checkOptions(options);
    }
  }

  /** See {@link dev.prefetch.Readers#open(List, ReadOptions, ReadContext)}. */
  public static BatchReader open(List<DataFile> files, ReadOptions options, ReadContext context)
      throws IOException {
    Objects.requireNonNull(files, "files is null");
    Objects.requireNonNull(options, "options is null");
    Objects.requireNonNull(context, "context is null");
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no file to read");
    }
    if (context.isClosed()) {
      throw new IllegalStateException("the read context is closed");
    }
    checkOptions(options);
    FileSequence sequence =
        new FileSequence(files, options, context, new ScanCounters(ReadScope.LISTENER));
    try {
      FilePlan first = planFirst(sequence, files.get(0));
      PrefetchDecision decision = PrefetchDecision.decide(options, files, first);
      ReaderLog.decided(files.get(0), files.size(), decision);
      if (!decision.prefetch()) {
        return new SequentialBatchReader(sequence, first.schema(), decision, context);
      }
      String name = files.get(0).path().getName() + "-" + READER_IDS.incrementAndGet();
      return new PrefetchingBatchReader(
          sequence,
          first.schema(),
          decision,
          options.queueCapacity(),
          options.maxBufferedBytes(),
          context,
          name);
    } catch (IOException | RuntimeException | Error e) {
      try {
        sequence.close();
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * Plans the first file; an I/O error that does not say which file it hit (a filesystem's own
   * exception) is wrapped into a {@link ReadException} that does, as later files' errors are.
   */
  private static FilePlan planFirst(FileSequence sequence, DataFile file) throws IOException {
    try {
      return sequence.plan(0);
    } catch (CorruptFileException e) {
      throw e.file() != null ? e : new CorruptFileException(file, null, e);
    } catch (ReadException | FileNotFoundException | InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      throw new ReadException(file, "cannot open", e);
    } catch (UncheckedIOException e) {
      if (e.getCause() instanceof CorruptFileException corrupt) {
        throw new CorruptFileException(file, null, corrupt);
      }
      throw new ReadException(file, "cannot open", e);
    } catch (IllegalArgumentException e) {
      // Caller input (an unknown column, a filter of another library): keep the type, name the
      // file.
      String message = String.valueOf(e.getMessage());
      if (message.contains(file.path().toString())) {
        throw e;
      }
      throw new IllegalArgumentException(file + ": " + message, e);
    } catch (RuntimeException | LinkageError | StackOverflowError | FSError e) {
      // A format library failing on bad metadata, a missing class, or the filesystem's FSError
      // (a local disk error, an Error in Hadoop): a read error of this file.
      throw new ReadException(file, "cannot open", e);
    }
  }
}
