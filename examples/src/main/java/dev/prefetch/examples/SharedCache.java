package dev.prefetch.examples;

import dev.prefetch.cache.Cache;

/** The metadata cache that {@code --cache-bytes} shares across every open of one command. */
final class SharedCache {

  private SharedCache() {
  }

  static Cache create(long maximumBytes) {
    try {
      // Looked up by name while the default cache implementation is being added to the core.
      Class<?> type = Class.forName("dev.prefetch.cache.MemoryCache");
      Object builder = type.getMethod("builder").invoke(null);
      builder = builder.getClass().getMethod("maximumBytes", long.class).invoke(builder, maximumBytes);
      return (Cache) builder.getClass().getMethod("build").invoke(builder);
    } catch (ReflectiveOperationException e) {
      throw new CliException(CliException.USAGE,
          "--cache-bytes: no metadata cache implementation on the class path", e);
    }
  }
}
