package dev.prefetch.cli;

import dev.prefetch.cache.Cache;
import dev.prefetch.cache.MemoryCache;

/** The metadata cache that {@code --cache-bytes} shares across every open of one command. */
final class SharedCache {

  private SharedCache() {}

  static Cache create(long maximumBytes) {
    try {
      return MemoryCache.builder().maximumBytes(maximumBytes).build();
    } catch (IllegalArgumentException e) {
      throw new CliException(CliException.USAGE, "--cache-bytes: " + e.getMessage(), e);
    }
  }
}
