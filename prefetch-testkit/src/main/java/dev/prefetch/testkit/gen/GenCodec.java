package dev.prefetch.testkit.gen;

import java.util.List;
import java.util.Locale;
import org.apache.orc.CompressionKind;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The codecs a generated file may use: the names (and aliases) a spec takes, and each format
 * writer's constant for the codec.
 */
enum GenCodec {
  NONE(CompressionCodecName.UNCOMPRESSED, CompressionKind.NONE, "none", "uncompressed"),
  SNAPPY(CompressionCodecName.SNAPPY, CompressionKind.SNAPPY, "snappy"),
  ZSTD(CompressionCodecName.ZSTD, CompressionKind.ZSTD, "zstd"),
  GZIP(CompressionCodecName.GZIP, CompressionKind.ZLIB, "gzip", "zlib"),
  LZ4(CompressionCodecName.LZ4_RAW, CompressionKind.LZ4, "lz4", "lz4_raw");

  /** The codec of parquet-hadoop's writer. */
  final CompressionCodecName parquet;

  /** The codec of orc-core's writer. */
  final CompressionKind orc;

  private final List<String> names;

  GenCodec(CompressionCodecName parquet, CompressionKind orc, String... names) {
    this.parquet = parquet;
    this.orc = orc;
    this.names = List.of(names);
  }

  /** The codec called {@code name}, in any case. */
  static GenCodec named(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (GenCodec codec : values()) {
      if (codec.names.contains(lower)) {
        return codec;
      }
    }
    throw new IllegalArgumentException(
        "unknown codec '" + lower + "'; expected none, snappy, zstd, gzip or lz4");
  }
}
