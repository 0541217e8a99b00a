package dev.prefetch.parquet;

import dev.prefetch.ReadOptions;
import dev.prefetch.testing.MetadataCacheContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/** The metadata-cache contract on Parquet files: the serialized footer is what is cached. */
class FooterCacheTest extends MetadataCacheContract {

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id; optional binary s (UTF8); required double d; }");

  @Override
  protected Path write(Path file, int rows, int variant) throws IOException {
    Files.deleteIfExists(file);
    long salt = variant * 1_000_000L;
    return ParquetTestFiles.write(
        file,
        SCHEMA,
        rows,
        ParquetTestFiles.WriteSpec.defaults().rowGroupBytes(16 << 10),
        (i, group) -> {
          group.add("id", i + salt);
          if (i % 7 != 0) {
            group.add("s", "row " + (i + salt));
          }
          group.add("d", i * 0.5);
        });
  }

  @Override
  protected String extension() {
    return ".parquet";
  }

  @Override
  protected ReadOptions.Builder formatOptions(ReadOptions.Builder options) {
    return options.property(ParquetOptions.SPLIT_ROW_GROUPS, "false");
  }
}
