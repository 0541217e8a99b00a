/**
 * The metadata cache: Parquet footers and page indexes, ORC file tails, kept as immutable bytes per
 * version of a file.
 *
 * <p>A {@link dev.prefetch.cache.Cache} is a shared runtime resource: build one per engine or
 * process and hand it to every read through the {@link dev.prefetch.ReadContext}, so that the
 * second reader of a file (on any thread) finds its footer instead of reading it again. Without a
 * cache on the context nothing is cached.
 *
 * <pre>{@code
 * Cache cache = MemoryCache.builder().maximumBytes(128L << 20).build();
 * try (ReadContext context = ReadContext.builder().cache(cache).build()) {
 *   for (DataFile file : files) {            // possibly on many threads at once
 *     try (BatchReader reader = Readers.open(file, options, context)) {
 *       for (RecordBatch batch = reader.next(); batch != null; batch = reader.next()) {
 *         consume(batch);
 *       }
 *     }
 *   }
 * }
 * CacheStats stats = cache.stats();        // hits, misses, loads, bypasses, evictions
 * }</pre>
 *
 * <p>Keys ({@link dev.prefetch.cache.CacheKey}) name a {@link dev.prefetch.cache.FileIdentity}: the
 * file's URI with its length and modification time, so a file rewritten in place never meets its
 * old footer. A file whose filesystem reports no modification time has no identity; its reads
 * bypass the cache and count a bypass.
 *
 * <p>Implementations: {@link dev.prefetch.cache.MemoryCache} (byte-bounded, single-flight loading)
 * and {@link dev.prefetch.cache.RoutingCache} (one backend per {@link
 * dev.prefetch.cache.CacheKind}).
 */
package dev.prefetch.cache;
