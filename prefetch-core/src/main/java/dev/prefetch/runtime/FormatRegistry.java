package dev.prefetch.runtime;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import dev.prefetch.spi.FileFormat;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/** The formats on the class path, and which one reads a given file. */
final class FormatRegistry {

  private static final int MAGIC_BYTES = 8;

  private static volatile List<FileFormat> formats;

  private FormatRegistry() {}

  static List<FileFormat> formats() {
    List<FileFormat> loaded = formats;
    if (loaded == null) {
      List<FileFormat> found = new ArrayList<>();
      for (FileFormat format :
          ServiceLoader.load(FileFormat.class, FormatRegistry.class.getClassLoader())) {
        found.add(format);
      }
      loaded = List.copyOf(found);
      formats = loaded;
    }
    return loaded;
  }

  /** The format of {@code file}: by extension, else by magic bytes (one small read). */
  static FileFormat formatOf(DataFile file, Configuration conf) throws IOException {
    List<FileFormat> all = formats();
    if (all.isEmpty()) {
      throw new IllegalStateException(
          "no file format on the class path: add format-parquet " + "or format-orc");
    }
    String name = file.path().getName();
    for (FileFormat format : all) {
      if (format.matchesFileName(name)) {
        return format;
      }
    }
    byte[] head = new byte[MAGIC_BYTES];
    int length = 0;
    FileSystem fs = file.path().getFileSystem(conf);
    try (InputStream in = fs.open(file.path())) {
      while (length < head.length) {
        int n = in.read(head, length, head.length - length);
        if (n < 0) {
          break;
        }
        length += n;
      }
    } catch (EOFException e) {
      // fewer bytes than the magic: fall through to the error below
    }
    for (FileFormat format : all) {
      if (format.matchesMagic(head, length)) {
        return format;
      }
    }
    List<String> names = new ArrayList<>();
    for (FileFormat format : all) {
      names.add(format.name());
    }
    throw new CorruptFileException(
        "Not a "
            + String.join(" or ", names)
            + " file: "
            + file
            + (length == 0 ? " (empty)" : " (unknown magic bytes)"));
  }
}
