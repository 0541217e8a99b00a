/**
 * Nested columns: the {@code Assembler} tree rebuilds structs, lists and maps from the repetition
 * and definition levels of its leaves. Each {@code LeafAssembler} walks its leaf's pages (read by
 * {@code page.ChunkPages}, decoded by the same decoders as a flat column's) and fills its values
 * through the {@code ColumnAdapter} a flat column of its type uses. Depends on {@code flat} and
 * {@code page}.
 */
package dev.prefetch.parquet.internal.nested;
