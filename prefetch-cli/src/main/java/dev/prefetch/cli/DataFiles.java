package dev.prefetch.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Checks a command-line file before a read: it exists, is a file, and is Parquet or ORC. */
final class DataFiles {

  private DataFiles() {}

  /** A checked file: its format and size. */
  record Checked(String name, Path path, String format, long length) {}

  static Checked check(String name, Path path, Configuration conf) {
    try {
      FileSystem fs = path.getFileSystem(conf);
      FileStatus status;
      try {
        status = fs.getFileStatus(path);
      } catch (FileNotFoundException e) {
        throw new CliException(CliException.READ_ERROR, name + ": no such file");
      }
      if (status.isDirectory()) {
        throw new CliException(CliException.READ_ERROR, name + ": is a directory, not a file");
      }
      byte[] head = new byte[4];
      int n = 0;
      try (InputStream in = fs.open(path)) {
        while (n < head.length) {
          int r = in.read(head, n, head.length - n);
          if (r < 0) {
            break;
          }
          n += r;
        }
      }
      String format;
      if (n == 4 && head[0] == 'P' && head[1] == 'A' && head[2] == 'R' && head[3] == '1') {
        format = "parquet";
      } else if (n >= 3 && head[0] == 'O' && head[1] == 'R' && head[2] == 'C') {
        format = "orc";
      } else {
        throw new CliException(
            CliException.READ_ERROR,
            name + ": not a Parquet or ORC file (no PAR1 or ORC magic at its start)");
      }
      return new Checked(name, path, format, status.getLen());
    } catch (IOException e) {
      throw new CliException(CliException.READ_ERROR, name + ": cannot read: " + e.getMessage(), e);
    }
  }
}
