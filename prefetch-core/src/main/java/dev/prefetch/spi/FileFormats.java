package dev.prefetch.spi;

import dev.prefetch.CorruptFileException;
import dev.prefetch.DataFile;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The formats on the class path ({@link java.util.ServiceLoader} of {@link FileFormat}), and which
 * one reads a given file: the one way the runtime and the engine modules tell a file's format, so
 * that a file is read by the same format whoever asks.
 */
public final class FileFormats {

  private static final int MAGIC_BYTES = 8;

  private static volatile List<FileFormat> formats;

  private FileFormats() {}

  /** Every format on the class path, in the order the service loader found them. */
  public static List<FileFormat> all() {
    List<FileFormat> loaded = formats;
    if (loaded == null) {
      List<FileFormat> found = new ArrayList<>();
      for (FileFormat format :
          ServiceLoader.load(FileFormat.class, FileFormats.class.getClassLoader())) {
        found.add(format);
      }
      loaded = List.copyOf(found);
      formats = loaded;
    }
    return loaded;
  }

  /** The format named {@code name} ({@link FileFormat#name()}, any case), if one is on the path. */
  public static Optional<FileFormat> named(String name) {
    for (FileFormat format : all()) {
      if (format.name().equalsIgnoreCase(name)) {
        return Optional.of(format);
      }
    }
    return Optional.empty();
  }

  /** The format of {@code file}; see {@link #of(Path, Configuration)}. */
  public static FileFormat of(DataFile file, Configuration conf) throws IOException {
    return of(file.path(), conf);
  }

  /**
   * The format of the file at {@code path}: the one whose {@link FileFormat#matchesFileName}
   * accepts its name, else the one whose {@link FileFormat#matchesMagic} accepts its first bytes
   * (one small read).
   *
   * @throws CorruptFileException when no format on the class path reads the file (naming it)
   * @throws IllegalStateException when there is no format on the class path at all
   */
  public static FileFormat of(Path path, Configuration conf) throws IOException {
    List<FileFormat> all = all();
    if (all.isEmpty()) {
      throw new IllegalStateException(
          "no file format on the class path: add format-parquet " + "or format-orc");
    }
    String name = path.getName();
    for (FileFormat format : all) {
      if (format.matchesFileName(name)) {
        return format;
      }
    }
    byte[] head = new byte[MAGIC_BYTES];
    int length = 0;
    FileSystem fs = path.getFileSystem(conf);
    try (InputStream in = fs.open(path)) {
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
            + path
            + (length == 0 ? " (empty)" : " (unknown magic bytes)"));
  }
}
