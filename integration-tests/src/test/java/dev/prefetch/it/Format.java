package dev.prefetch.it;

import java.io.IOException;
import java.nio.file.Path;

/** The two formats under test, with their standard test file and its layout. */
public enum Format {
  PARQUET {
    @Override
    public Path write(Path dir, int rows) throws IOException {
      return TestFiles.parquet(
          dir.resolve("data.parquet"),
          TestFiles.ParquetVariant.FLAT_SNAPPY_DICTIONARY_V1,
          rows,
          false);
    }

    @Override
    public Layout layout(Path file) throws IOException {
      return Layout.parquet(file);
    }
  },
  ORC {
    @Override
    public Path write(Path dir, int rows) throws IOException {
      return TestFiles.orc(dir.resolve("data.orc"), TestFiles.OrcVariant.FLAT_ZLIB, rows);
    }

    @Override
    public Layout layout(Path file) throws IOException {
      return Layout.orc(file);
    }
  };

  /** Writes this format's standard test file (every flat type, several blocks) in {@code dir}. */
  public abstract Path write(Path dir, int rows) throws IOException;

  public abstract Layout layout(Path file) throws IOException;
}
