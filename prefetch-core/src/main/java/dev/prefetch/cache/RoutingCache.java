package dev.prefetch.cache;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link Cache} that keeps each {@link CacheKind} in its own backend, so that, say, footers
 * cannot be evicted by a flood of other metadata.
 *
 * <pre>{@code
 * Cache cache = RoutingCache.builder()
 *     .route(CacheKind.DATA_FILE_FOOTER, MemoryCache.builder().maximumBytes(256L << 20).build())
 *     .defaultCache(MemoryCache.builder().maximumBytes(64L << 20).build())
 *     .build();
 * }</pre>
 *
 * <p>Kinds without a route go to the default backend. Key operations ({@code get}, {@code
 * getIfPresent}, {@code put}, {@code invalidate}) go to the key's backend and are as atomic and
 * single-flight as that backend. The whole-cache operations visit every distinct backend once (one
 * backend may serve several kinds): {@link #stats()} and {@link #sizeInBytes()} are their sums,
 * {@link #invalidateAll()} clears each. {@link #recordBypass()} has no key, hence no kind: it is
 * counted by the default backend.
 *
 * <p>Immutable after {@link Builder#build()}; thread-safe when its backends are.
 */
public final class RoutingCache implements Cache {

  private final EnumMap<CacheKind, Cache> routes;
  private final Cache defaultCache;

  /** Every distinct backend once, the default first. */
  private final List<Cache> backends;

  private RoutingCache(Builder b) {
    this.routes = new EnumMap<>(b.routes);
    this.defaultCache = b.defaultCache;
    Set<Cache> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Cache> distinct = new ArrayList<>();
    seen.add(defaultCache);
    distinct.add(defaultCache);
    for (Cache backend : routes.values()) {
      if (seen.add(backend)) {
        distinct.add(backend);
      }
    }
    this.backends = List.copyOf(distinct);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The backend that holds keys of {@code kind}. */
  public Cache backend(CacheKind kind) {
    Cache routed = routes.get(Objects.requireNonNull(kind, "kind is null"));
    return routed != null ? routed : defaultCache;
  }

  private Cache backendOf(CacheKey key) {
    return backend(Objects.requireNonNull(key, "key is null").kind());
  }

  @Override
  public CacheValue get(CacheKey key, Loader loader) throws IOException {
    return backendOf(key).get(key, loader);
  }

  @Override
  public CacheValue getIfPresent(CacheKey key) {
    return backendOf(key).getIfPresent(key);
  }

  @Override
  public void put(CacheKey key, CacheValue value) {
    backendOf(key).put(key, value);
  }

  @Override
  public void invalidate(CacheKey key) {
    backendOf(key).invalidate(key);
  }

  @Override
  public void invalidateAll() {
    for (Cache backend : backends) {
      backend.invalidateAll();
    }
  }

  @Override
  public long sizeInBytes() {
    long total = 0;
    for (Cache backend : backends) {
      total += backend.sizeInBytes();
    }
    return total;
  }

  /** Counted by the default backend (a bypass has no key to route by). */
  @Override
  public void recordBypass() {
    defaultCache.recordBypass();
  }

  @Override
  public CacheStats stats() {
    CacheStats total = CacheStats.EMPTY;
    for (Cache backend : backends) {
      total = total.plus(backend.stats());
    }
    return total;
  }

  @Override
  public String toString() {
    return "RoutingCache[routes=" + routes + ", default=" + defaultCache + "]";
  }

  /** Builds a {@link RoutingCache}; a default backend is required. */
  public static final class Builder {
    private final Map<CacheKind, Cache> routes = new EnumMap<>(CacheKind.class);
    private Cache defaultCache;

    private Builder() {}

    /**
     * Sends keys of {@code kind} to {@code backend}; a later route of the same kind replaces it.
     */
    public Builder route(CacheKind kind, Cache backend) {
      Objects.requireNonNull(kind, "kind is null");
      Objects.requireNonNull(backend, "backend is null");
      routes.put(kind, backend);
      return this;
    }

    /** The backend for kinds without a route, and for {@link Cache#recordBypass()}. */
    public Builder defaultCache(Cache backend) {
      this.defaultCache = Objects.requireNonNull(backend, "backend is null");
      return this;
    }

    public RoutingCache build() {
      if (defaultCache == null) {
        throw new IllegalStateException("defaultCache is not set");
      }
      return new RoutingCache(this);
    }
  }
}
