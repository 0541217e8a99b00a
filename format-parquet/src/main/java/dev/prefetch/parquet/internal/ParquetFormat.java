package dev.prefetch.parquet.internal;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.parquet.ParquetOptions;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.Locale;

/**
 * The Parquet format of the prefetch runtime, on parquet-hadoop: files ending in {@code .parquet}
 * or starting with {@code PAR1}. Stateless and thread-safe; found through {@link
 * java.util.ServiceLoader}.
 */
public final class ParquetFormat implements FileFormat {

  /** The format's name. */
  public static final String NAME = "parquet";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean matchesFileName(String fileName) {
    return fileName.toLowerCase(Locale.ROOT).endsWith(".parquet");
  }

  @Override
  public boolean matchesMagic(byte[] head, int length) {
    return length >= 4 && head[0] == 'P' && head[1] == 'A' && head[2] == 'R' && head[3] == '1';
  }

  /** Parses the read's {@code parquet.*} entries ({@link ParquetOptions}). */
  @Override
  public void checkOptions(ReadOptions options) {
    ParquetOptions.from(options);
  }

  @Override
  public FilePlan plan(
      DataFile file,
      ReadOptions options,
      RangeBudget budget,
      ReadContext context,
      ScanCounters counters)
      throws IOException {
    return new ParquetPlanner(file, options, budget, context, counters).plan();
  }
}
