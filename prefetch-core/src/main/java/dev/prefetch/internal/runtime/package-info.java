/**
 * The reader runtime: the prefetch decision, producers, the exchange and the two reader paths.
 *
 * <p>Not API. Users open readers through {@link dev.prefetch.Readers}; this package is public in
 * Java's sense only because {@code Readers} reaches {@link
 * dev.prefetch.internal.runtime.ReaderFactory} from another package. It is not among the exported
 * packages that {@code PublicApiTest} checks (no public signature of an exported package names a
 * type of it), and may change at any release.
 */
package dev.prefetch.internal.runtime;
