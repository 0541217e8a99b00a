/**
 * Nested columns: the {@code Assembler} tree rebuilds structs, lists and maps from the repetition
 * and definition levels of its leaves, and each leaf fills its values through the {@code
 * ColumnAdapter} a flat column of its type uses. The leaves' levels and values come from
 * parquet-hadoop's column readers. Depends on {@code flat} and {@code page}.
 */
package dev.prefetch.parquet.internal.nested;
