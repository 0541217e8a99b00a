/**
 * The third stage of the ORC read path: column readers, which decode one stripe's streams of a
 * column straight into the batch's vectors ({@code dev.prefetch.batch}), a batch at a time.
 *
 * <h2>The readers</h2>
 *
 * One reader per type family, each a small subclass of {@link
 * dev.prefetch.orc.internal.reader.ColumnReader}, which owns what every type shares: the PRESENT
 * stream's null mask (with the nulls of the struct or union above the column, whose rows have no
 * PRESENT bit), seeking to a row group and skipping rows. {@link
 * dev.prefetch.orc.internal.reader.ColumnReaders} chooses the reader of a column in one place, from
 * its type and the stripe's encoding of it, opens its streams through the stripe's shared reads
 * ({@code internal.stripe}) and names what it cannot read. {@link
 * dev.prefetch.orc.internal.reader.ProjectedColumnReader} is an output column: a top-level column,
 * or a field inside structs read as a column of its own.
 *
 * <ul>
 *   <li>booleans, bytes, shorts, ints and dates, longs, floats, doubles: into the primitive
 *       vectors; integers narrowed as orc-core narrows them;
 *   <li>strings, chars, varchars and binaries, directly encoded: lengths then bytes into a {@link
 *       dev.prefetch.batch.BinaryVector}; chars and varchars cut as orc-core cuts them;
 *   <li>dictionary-encoded strings: ids into the stripe's dictionary, decoded once for all the
 *       stripe's readers, as {@link dev.prefetch.batch.DictionaryVector}s over that one dictionary
 *       or as binary vectors copied from it;
 *   <li>decimals (varints with scales, or Decimal64 integers), rescaled to the column's scale,
 *       long-backed up to 18 digits;
 *   <li>timestamps of both kinds, as nanoseconds, with orc-core's time zone arithmetic under its
 *       UTC option;
 *   <li>lists, maps, structs and unions (the STRUCT of a tag and the alternatives).
 * </ul>
 *
 * <h2>How a batch is decoded</h2>
 *
 * The null mask first, which says how many values the batch's rows hold; those values are decoded
 * densely in one decoder call and spread over the rows that are not null ({@code Spread}). A list
 * or map decodes its lengths, checks their sum, and has its children read that many values at once.
 * Value arrays, masks and binary data come from the output column's {@link
 * dev.prefetch.spi.VectorArrayPool}, so a released batch's arrays are filled again; scratch arrays
 * are the reader's own. No per-value virtual call: a reader calls each decoder once per batch, and
 * the decoders work a run at a time.
 *
 * <h2>Errors</h2>
 *
 * A stream whose bytes do not hold what they say is a {@link
 * dev.prefetch.orc.internal.io.CorruptStreamException} (the range reader names file, stripe and
 * column); what the reader checks itself (an encoding the type does not have, a union tag naming no
 * alternative, a batch's lengths past one array) is a {@link dev.prefetch.CorruptFileException}
 * naming them. A valid file whose values the read cannot hold is refused as such: a batch's values
 * past the read's budget ({@link dev.prefetch.orc.internal.reader.BatchTooLargeException}), a
 * timestamp past what nanoseconds hold ({@link
 * dev.prefetch.orc.internal.reader.ValueRangeException}).
 *
 * <p>Everything here is confined to the thread of the range reader that owns it; the dictionaries
 * it shares are immutable.
 */
package dev.prefetch.orc.internal.reader;
