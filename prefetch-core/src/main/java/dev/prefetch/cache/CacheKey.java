package dev.prefetch.cache;

import java.util.Objects;

/**
 * The key of a cached byte region of one version of one file.
 *
 * @param kind what the bytes are
 * @param file the file version
 * @param position the region's offset in the file, or -1 for a whole footer or tail
 * @param length the region's length, or -1 for a whole footer or tail
 */
public record CacheKey(CacheKind kind, FileIdentity file, long position, long length) {

  public CacheKey {
    Objects.requireNonNull(kind, "kind is null");
    Objects.requireNonNull(file, "file is null");
    if (position < -1 || length < -1) {
      throw new IllegalArgumentException(
          "position and length must be >= -1: " + position + ", " + length);
    }
  }

  /** The key of a whole footer (Parquet) or file tail (ORC). */
  public static CacheKey footer(FileIdentity file) {
    return new CacheKey(CacheKind.DATA_FILE_FOOTER, file, -1, -1);
  }

  /** The key of the metadata region {@code [position, position + length)} of a file. */
  public static CacheKey region(FileIdentity file, long position, long length) {
    return new CacheKey(CacheKind.DATA_FILE_FOOTER, file, position, length);
  }
}
