/**
 * Storage input shared by the formats, not a public API: {@link
 * dev.prefetch.internal.io.CountingInputStream} counts what a reader reads and keeps each call to a
 * local file bounded.
 */
package dev.prefetch.internal.io;
