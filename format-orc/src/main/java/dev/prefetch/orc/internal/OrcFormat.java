package dev.prefetch.orc.internal;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import dev.prefetch.orc.OrcOptions;
import dev.prefetch.orc.internal.metadata.FileTail;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ScanCounters;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;

/**
 * The ORC format: files named {@code *.orc} or starting with the magic {@code ORC}.
 *
 * <p>Planning reads the file tail once (or takes it from the context's cache), parses it with
 * orc-core, and cuts the stripes into ranges of whole row-index strides of about {@code
 * orc.read.natural-read-size} compressed bytes of the selected columns. The range readers decode
 * the stripes themselves ({@link OrcRangeReader}), sharing each stripe's reads. A {@link
 * org.apache.hadoop.hive.ql.io.sarg.SearchArgument} filter prunes stripes (from the tail's stripe
 * statistics) and row groups (from each stripe's row index, by orc-core's evaluation). Other {@code
 * orc.*} properties of the read go to orc-core's configuration. See {@link OrcTypes} for how ORC
 * types map to vectors.
 */
public final class OrcFormat implements FileFormat {

  private static final byte[] MAGIC = {'O', 'R', 'C'};

  @Override
  public String name() {
    return "orc";
  }

  @Override
  public boolean matchesFileName(String fileName) {
    return fileName.toLowerCase(Locale.ROOT).endsWith(".orc");
  }

  @Override
  public boolean matchesMagic(byte[] head, int length) {
    if (length < MAGIC.length) {
      return false;
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (head[i] != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The STRING columns (ORC string, char and varchar) that {@value OrcOptions#DICTIONARY_VECTORS}
   * selects: each of their stripes comes as dictionary vectors where the stripe stores the column
   * dictionary-encoded.
   */
  @Override
  public Set<String> dictionaryColumns(Schema schema, ReadOptions options) {
    OrcOptions.DictionaryVectors selected = OrcOptions.from(options).dictionaryVectors();
    Set<String> names = new HashSet<>();
    for (Field field : schema.fields()) {
      if (field.type().kind() == DataType.Kind.STRING && selected.includes(field.name())) {
        names.add(field.name());
      }
    }
    return Set.copyOf(names);
  }

  @Override
  public Set<String> columnListOptions() {
    return Set.of(OrcOptions.DICTIONARY_VECTORS);
  }

  /** Parses the read's {@code orc.*} entries ({@link OrcOptions}). */
  @Override
  public void checkOptions(ReadOptions options) {
    OrcOptions.from(options);
  }

  /**
   * Checks the filter, loads the file tail (or takes it from the context's cache) and has {@link
   * OrcPlanner} plan over it; what fails there, but for the caller's mistakes and interruptions, is
   * a corrupt file.
   */
  @Override
  public FilePlan plan(
      DataFile file,
      ReadOptions options,
      RangeBudget budget,
      ReadContext context,
      ScanCounters counters)
      throws IOException {
    SearchArgument sarg = null;
    if (options.filter() != null) {
      if (!(options.filter() instanceof SearchArgument s)) {
        throw new IllegalArgumentException(
            "ORC file "
                + file
                + ": the filter must be an ORC "
                + "SearchArgument, not a "
                + options.filter().getClass().getName());
      }
      sarg = s;
    }
    OrcOptions orcOptions = OrcOptions.from(options);
    Configuration conf =
        OrcPlanner.configuration(context.configuration(), orcOptions.libraryProperties());
    FileSystem fs = file.path().getFileSystem(conf);
    FileStatus status = fs.getFileStatus(file.path());
    FileTail tail = FileTail.load(file, fs, conf, status, context.cache(), counters);
    try {
      return OrcPlanner.plan(file, options, orcOptions, budget, fs, conf, tail, sarg, counters);
    } catch (IllegalArgumentException
        | FileNotFoundException
        | InterruptedIOException
        | CorruptFileException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(
          "Cannot plan the read of ORC file " + file + ": " + e.getMessage(), e);
    }
  }
}
