package dev.prefetch.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.Test;

class RoutingCacheTest {

  private static final FileIdentity FILE =
      new FileIdentity(URI.create("file:///data/a.parquet"), 1000, 1);

  private final MemoryCache footers = MemoryCache.builder().maximumBytes(1000).build();
  private final MemoryCache others = MemoryCache.builder().maximumBytes(1000).build();
  private final RoutingCache cache =
      RoutingCache.builder()
          .route(CacheKind.DATA_FILE_FOOTER, footers)
          .defaultCache(others)
          .build();

  private static CacheKey footerKey() {
    return CacheKey.footer(FILE);
  }

  private static CacheKey otherKey() {
    return new CacheKey(CacheKind.DEFAULT, FILE, 10, 20);
  }

  private static CacheValue bytes(int length) {
    return CacheValue.copyOf(new byte[length]);
  }

  @Test
  void eachKindGoesToItsOwnBackend() throws IOException {
    cache.get(footerKey(), k -> bytes(100));
    cache.put(otherKey(), bytes(20));

    assertThat(footers.getIfPresent(footerKey())).isNotNull();
    assertThat(others.getIfPresent(footerKey())).isNull();
    assertThat(others.getIfPresent(otherKey())).isNotNull();
    assertThat(footers.getIfPresent(otherKey())).isNull();
    assertThat(cache.backend(CacheKind.DATA_FILE_FOOTER)).isSameAs(footers);
    assertThat(cache.backend(CacheKind.DEFAULT)).isSameAs(others);
  }

  @Test
  void statsAndSizeAreTheSumsOfTheBackends() throws IOException {
    cache.get(footerKey(), k -> bytes(100));
    cache.get(footerKey(), k -> bytes(100));
    cache.get(otherKey(), k -> bytes(20));
    cache.getIfPresent(new CacheKey(CacheKind.DEFAULT, FILE, 99, 1));
    cache.recordBypass();

    CacheStats total = cache.stats();

    assertThat(total).isEqualTo(footers.stats().plus(others.stats()));
    assertThat(total.hits()).isEqualTo(1);
    assertThat(total.misses()).isEqualTo(3);
    assertThat(total.loads()).isEqualTo(2);
    assertThat(total.bypasses()).isEqualTo(1);
    assertThat(others.stats().bypasses()).isEqualTo(1); // bypasses go to the default
    assertThat(footers.stats().bypasses()).isZero();
    assertThat(cache.sizeInBytes()).isEqualTo(120);
  }

  @Test
  void invalidateGoesToTheKeysBackendAndInvalidateAllClearsEvery() {
    cache.put(footerKey(), bytes(100));
    cache.put(otherKey(), bytes(20));

    cache.invalidate(otherKey());
    assertThat(others.sizeInBytes()).isZero();
    assertThat(footers.sizeInBytes()).isEqualTo(100);

    cache.put(otherKey(), bytes(20));
    cache.invalidateAll();
    assertThat(footers.sizeInBytes()).isZero();
    assertThat(others.sizeInBytes()).isZero();
    assertThat(cache.sizeInBytes()).isZero();
  }

  @Test
  void aBackendServingSeveralKindsIsCountedOnce() throws IOException {
    MemoryCache shared = MemoryCache.builder().maximumBytes(1000).build();
    RoutingCache sameEverywhere =
        RoutingCache.builder()
            .route(CacheKind.DATA_FILE_FOOTER, shared)
            .route(CacheKind.DEFAULT, shared)
            .defaultCache(shared)
            .build();

    sameEverywhere.get(footerKey(), k -> bytes(50));

    assertThat(sameEverywhere.stats()).isEqualTo(shared.stats());
    assertThat(sameEverywhere.sizeInBytes()).isEqualTo(50);
  }

  @Test
  void kindsWithoutARouteGoToTheDefault() {
    RoutingCache onlyDefault = RoutingCache.builder().defaultCache(others).build();

    onlyDefault.put(footerKey(), bytes(10));

    assertThat(others.getIfPresent(footerKey())).isNotNull();
  }

  @Test
  void builderRequiresADefaultBackend() {
    assertThatThrownBy(
            () -> RoutingCache.builder().route(CacheKind.DATA_FILE_FOOTER, footers).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("default");
    assertThatThrownBy(() -> RoutingCache.builder().route(CacheKind.DEFAULT, null))
        .isInstanceOf(NullPointerException.class);
  }
}
