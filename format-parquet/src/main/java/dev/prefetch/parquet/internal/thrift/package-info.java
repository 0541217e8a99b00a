/**
 * An object-free reader of Thrift compact-protocol bytes: {@link
 * dev.prefetch.parquet.internal.thrift.CompactCursor} reads field headers and scalars and skips
 * whole values with every length checked against the bytes left. The footer index walks {@code
 * FileMetaData} with it, and the page checks read the sizes of page headers with it. Not a public
 * API.
 */
package dev.prefetch.parquet.internal.thrift;
