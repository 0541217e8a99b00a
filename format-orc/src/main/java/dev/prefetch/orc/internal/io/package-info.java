/**
 * The first stage of the ORC read path: a stripe's stored stream bytes as decompressed bytes.
 *
 * <h2>What is here</h2>
 *
 * {@link dev.prefetch.orc.internal.io.DecompressionContext} holds what a range reader needs for one
 * file (its codec instance, its compression block size, the {@link
 * dev.prefetch.orc.internal.io.BlockBuffers} pool) and opens each stream of a stripe as a {@link
 * dev.prefetch.orc.internal.io.StreamInput}: a window over the stream's decompressed bytes that the
 * decoders of {@code internal.stream} read in place. {@code BlockCodec} and its implementations
 * decompress one block, heap array to heap array.
 *
 * <h2>Who owns the buffers</h2>
 *
 * <ul>
 *   <li>The stored bytes (the stripe's arrays, as the stripe reader loaded them) belong to the
 *       caller; a stream only reads them, and reads an uncompressed stream, or an original
 *       (uncompressed) block of a compressed one, in place.
 *   <li>A compressed stream borrows one buffer from its context's pool at its first compressed
 *       block and keeps it until {@link dev.prefetch.orc.internal.io.StreamInput#close()}; each
 *       block is decompressed into it, over the previous one. The buffer is the file's block size
 *       plus {@link dev.prefetch.orc.internal.io.StreamInput#MAX_CONTIGUOUS_BYTES}, where a value
 *       that straddles two blocks is joined. The pool counts its buffers in the range reader's
 *       {@link dev.prefetch.spi.MemoryLedger}, lent or free, and keeps a bounded number free.
 *   <li>A decoder's output arrays are its caller's.
 * </ul>
 *
 * <h2>What positions mean</h2>
 *
 * A row index entry lists, for each stream of its column in the specification's order, the stream's
 * position and then the decoder's: for a compressed stream the offset of a compression block's
 * header from the stream's start and the number of that block's decompressed bytes to skip; for an
 * uncompressed stream the byte offset alone; then the values of the run there to skip (and for a
 * boolean stream, the bits of the byte there). {@link dev.prefetch.orc.internal.io.IndexPositions}
 * hands them out in order as each stream and decoder seeks. A PRESENT stream's positions are in the
 * entry only when the stripe has that stream (the writer drops both when the column has no nulls in
 * the stripe).
 *
 * <h2>What is checked where</h2>
 *
 * Here: block headers against the stream's end and the file's block size, decompression against the
 * block size (never past the buffer), seeks against the stream and the block, every read against
 * the stream's end. In the decoders: run headers and run lengths against the stream's bytes,
 * lengths and their sums against what the stream can still hold ({@link
 * dev.prefetch.orc.internal.io.StreamInput#maxRemainingBytes()}) before anything is allocated from
 * them, dictionary ids against the dictionary. Every failure is a {@link
 * dev.prefetch.orc.internal.io.CorruptStreamException} naming the stream; the column reader adds
 * the file, stripe and column. The file-level sizes (block size, stream lengths within the stripe)
 * are checked earlier, when the file and the stripe footer are read ({@code OrcChecks}).
 *
 * <p>Everything here is confined to the thread of the range reader that owns it.
 */
package dev.prefetch.orc.internal.io;
