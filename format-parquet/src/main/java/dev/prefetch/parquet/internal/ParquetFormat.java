package dev.prefetch.parquet.internal;

import dev.prefetch.DataFile;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import dev.prefetch.parquet.ParquetOptions;
import dev.prefetch.spi.FileFormat;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeBudget;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The Parquet format of the prefetch runtime, on parquet-hadoop: files ending in {@code .parquet}
 * (or {@code .parq}) or starting with {@code PAR1}. Stateless and thread-safe; found through {@link
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
    String name = fileName.toLowerCase(Locale.ROOT);
    return name.endsWith(".parquet") || name.endsWith(".parq");
  }

  @Override
  public boolean matchesMagic(byte[] head, int length) {
    return length >= 4 && head[0] == 'P' && head[1] == 'A' && head[2] == 'R' && head[3] == '1';
  }

  /**
   * The top-level STRING, BINARY and FIXED_BINARY columns that {@value
   * ParquetOptions#DICTIONARY_VECTORS} selects: each of their chunks comes as dictionary vectors
   * when it is wholly dictionary-encoded.
   */
  @Override
  public Set<String> dictionaryColumns(Schema schema, ReadOptions options) {
    ParquetOptions.DictionaryVectors selected = ParquetOptions.from(options).dictionaryVectors();
    Set<String> names = new HashSet<>();
    for (Field field : schema.fields()) {
      DataType.Kind kind = field.type().kind();
      boolean binary =
          kind == DataType.Kind.STRING
              || kind == DataType.Kind.BINARY
              || kind == DataType.Kind.FIXED_BINARY;
      if (binary && selected.includes(field.name())) {
        names.add(field.name());
      }
    }
    return Set.copyOf(names);
  }

  @Override
  public Set<String> columnListOptions() {
    return Set.of(ParquetOptions.DICTIONARY_VECTORS);
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
