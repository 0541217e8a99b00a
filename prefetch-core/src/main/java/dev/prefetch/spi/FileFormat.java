package dev.prefetch.spi;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import java.io.IOException;

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
   * Reads the file's metadata (through {@code context}'s cache when there is one) and plans its
   * read.
   *
   * @throws java.io.FileNotFoundException when the file does not exist
   * @throws dev.prefetch.CorruptFileException when the file is not of this format or is corrupt
   * @throws IllegalArgumentException for a projected column the file lacks, or a filter of another
   *     library; the message names the file
   */
  FilePlan plan(DataFile file, ReadOptions options, ReadContext context, ScanCounters counters)
      throws IOException;
}
