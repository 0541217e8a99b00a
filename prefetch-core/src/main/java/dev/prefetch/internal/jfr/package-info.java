/**
 * JFR events of the reader: planning, range reads, producer and consumer waits, batch releases and
 * metadata cache lookups. Not an API: the event names and fields are documented in the README, the
 * classes may change.
 *
 * <p>Every event is emitted where the matching metric is counted ({@code ReaderStats}, {@code
 * ScanCounters}, the cache statistics), so that over a read the events add up to the reader's
 * metrics. Each emitting site first asks the event whether it is enabled, so a JVM that records
 * nothing pays one check per site and allocates nothing.
 */
package dev.prefetch.internal.jfr;
