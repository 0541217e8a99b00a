package dev.prefetch.testkit.gen;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** Writes a generated table in the format its spec names. */
public final class Generator {

  private Generator() {}

  /** Writes {@code spec} to {@code out} (replacing it) with the format library's own writer. */
  public static void write(GenSpec spec, Path out, Configuration conf) throws IOException {
    if (spec.format().equals("parquet")) {
      ParquetGenerator.write(spec, out, conf);
    } else {
      OrcGenerator.write(spec, out, conf);
    }
  }

  /** Writes a local file, replacing it. */
  public static void write(GenSpec spec, java.nio.file.Path out) throws IOException {
    Configuration conf = new Configuration();
    java.nio.file.Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      java.nio.file.Files.createDirectories(parent);
    }
    // Written through the raw local filesystem, so that no .crc side files appear.
    conf.set("fs.file.impl", org.apache.hadoop.fs.RawLocalFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    write(spec, new Path(out.toAbsolutePath().toUri()), conf);
  }
}
