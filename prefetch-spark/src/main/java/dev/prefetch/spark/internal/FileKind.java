package dev.prefetch.spark.internal;

import dev.prefetch.CorruptFileException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** The two formats the source reads, told apart by file name or, failing that, magic bytes. */
public enum FileKind {
  PARQUET,
  ORC;

  /** The format of {@code path}: by extension, else by its first bytes (one small read). */
  public static FileKind of(Path path, Configuration conf) throws IOException {
    String name = path.getName().toLowerCase(Locale.ROOT);
    if (name.endsWith(".parquet") || name.endsWith(".parq")) {
      return PARQUET;
    }
    if (name.endsWith(".orc")) {
      return ORC;
    }
    byte[] head = new byte[4];
    int length = 0;
    try (InputStream in = path.getFileSystem(conf).open(path)) {
      while (length < head.length) {
        int n = in.read(head, length, head.length - length);
        if (n < 0) {
          break;
        }
        length += n;
      }
    } catch (EOFException e) {
      // shorter than a magic: reported below
    }
    if (length == 4 && head[0] == 'P' && head[1] == 'A' && head[2] == 'R' && head[3] == '1') {
      return PARQUET;
    }
    if (length >= 3 && head[0] == 'O' && head[1] == 'R' && head[2] == 'C') {
      return ORC;
    }
    throw new CorruptFileException(
        "Not a Parquet or ORC file: "
            + path
            + (length == 0 ? " (empty)" : " (unknown magic bytes)"));
  }
}
