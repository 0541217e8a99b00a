package dev.prefetch.spi;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.Schema;
import java.io.IOException;
import java.util.Set;

/**
 * A file format (Parquet, ORC), found through {@link java.util.ServiceLoader}: a module registers
 * its implementation in {@code META-INF/services/dev.prefetch.spi.FileFormat}. Implementations are
 * stateless and thread-safe.
 */
public interface FileFormat {

  /** Short lower-case name: "parquet", "orc". */
  String name();

  /** Whether a file name's extension (".parquet") says it is of this format. */
  boolean matchesFileName(String fileName);

  /**
   * Whether the first bytes of a file (at most 8, fewer for a shorter file) are this format's
   * magic.
   */
  boolean matchesMagic(byte[] head, int length);

  /**
   * Parses and checks this format's entries of {@link ReadOptions#formatProperties()} (its own
   * keys; keys it hands to its library unchecked are fine). Called before any file is planned, for
   * every format on the class path. The default checks nothing.
   *
   * @throws IllegalArgumentException for a bad value, naming the key and the value
   */
  default void checkOptions(ReadOptions options) {}

  /**
   * The top-level columns of {@code schema} (the schema of a plan of this format) whose batches may
   * come as {@link dev.prefetch.batch.DictionaryVector}s in a read with {@code options}, batch by
   * batch; every other column always comes as plain vectors. An engine whose schema is fixed at
   * open (an Arrow stream) asks this to choose its dictionary-encoded fields. The default: none.
   *
   * @throws IllegalArgumentException for a bad value of this format's options
   */
  default Set<String> dictionaryColumns(Schema schema, ReadOptions options) {
    return Set.of();
  }

  /**
   * The keys of this format's options whose value is a comma-separated list of column names, as the
   * file names them; an engine whose users name columns by its own rules (Spark, which ignores case
   * by default) resolves the names of these values as it resolves a query's. The default: none.
   */
  default Set<String> columnListOptions() {
    return Set.of();
  }

  /**
   * Reads the file's metadata (through {@code context}'s cache when there is one) and plans its
   * read: ranges in row order, each no longer than {@code budget} allows where the format can cut
   * them so (Parquet page slices, ORC strides).
   *
   * @param budget how the runtime will read the ranges ({@link RangeBudget#of(ReadOptions, int)} of
   *     {@code options} and the read's file count)
   * @throws java.io.FileNotFoundException when the file does not exist
   * @throws dev.prefetch.CorruptFileException when the file is not of this format or is corrupt
   * @throws IllegalArgumentException for a projected column the file lacks, or a filter of another
   *     library; the message names the file
   */
  FilePlan plan(
      DataFile file,
      ReadOptions options,
      RangeBudget budget,
      ReadContext context,
      ScanCounters counters)
      throws IOException;
}
