/**
 * The second stage of the ORC read path: the decoders of ORC's stream encodings, each over one or
 * two {@link dev.prefetch.orc.internal.io.StreamInput}s, writing values in bulk into primitive
 * arrays with an offset and a count.
 *
 * <h2>The decoders</h2>
 *
 * <ul>
 *   <li>{@link dev.prefetch.orc.internal.stream.ByteRleDecoder}: byte RLE ({@code tinyint} DATA,
 *       union tags).
 *   <li>{@link dev.prefetch.orc.internal.stream.BooleanDecoder}: bits over byte RLE; PRESENT
 *       streams as null masks with their count of values, boolean DATA.
 *   <li>{@link dev.prefetch.orc.internal.stream.IntegerDecoder}: integer RLE v1 and v2, signed and
 *       unsigned, into {@code long[]} or {@code int[]}; lengths with their sum; dictionary ids
 *       checked against the dictionary. Decimal64 is a signed RLE v2 stream.
 *   <li>{@link dev.prefetch.orc.internal.stream.FloatDecoder}, {@link
 *       dev.prefetch.orc.internal.stream.DoubleDecoder}: little-endian IEEE 754.
 *   <li>{@link dev.prefetch.orc.internal.stream.DecimalDecoder}: unbounded varints with their
 *       scales, into 64 or 128 bits.
 *   <li>{@link dev.prefetch.orc.internal.stream.TimestampDecoder}: milliseconds and nanoseconds, in
 *       orc-core's arithmetic.
 *   <li>{@link dev.prefetch.orc.internal.stream.StringDirectDecoder}: lengths and bytes; {@link
 *       dev.prefetch.orc.internal.stream.StringDictionary}: a stripe's dictionary, read whole.
 * </ul>
 *
 * <h2>How a column reader uses them</h2>
 *
 * For a stripe: open each of the column's streams through the range reader's {@link
 * dev.prefetch.orc.internal.io.DecompressionContext}, build the decoders its type and encoding call
 * for (RLE v2 for {@code DIRECT_V2} and {@code DICTIONARY_V2}), and read a dictionary whole. For a
 * stride: wrap the row index entry's positions in an {@link
 * dev.prefetch.orc.internal.io.IndexPositions} and seek each decoder in the specification's order
 * (PRESENT first when the stripe has it). For a batch of {@code n} rows: decode the null mask,
 * which says how many values {@code m} the other streams hold for those rows, decode {@code m}
 * values densely and spread them over the rows that are not null; to skip {@code n} rows, {@link
 * dev.prefetch.orc.internal.stream.BooleanDecoder#skipCounting} the PRESENT stream and skip {@code
 * m} values. At the stripe's end, close the inputs (their buffers go back to the pool).
 *
 * <h2>Why the code looks as it does</h2>
 *
 * Hot loops are counted loops over primitive arrays with one array read through locals, so C2
 * unrolls them; a run's bytes are made contiguous in the window before it is decoded, so the loops
 * check nothing per value; the encoding's code is called once per run (up to 512 values), never per
 * value; and nothing boxes. Each class says where it departs from the plain loop and why.
 *
 * <p>Errors are {@link dev.prefetch.orc.internal.io.CorruptStreamException}s naming the stream: a
 * run or a length past the stream's end, a header the encoding cannot have, a negative or oversized
 * length, an id outside the dictionary. Every size read from a stream is checked against what the
 * stream holds before it is allocated. Each decoder is confined to one thread.
 */
package dev.prefetch.orc.internal.stream;
