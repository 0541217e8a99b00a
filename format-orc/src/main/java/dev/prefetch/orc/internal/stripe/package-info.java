/**
 * Reading a stripe once for all the producers of a plan: where its streams lie, its row indexes,
 * the row groups a predicate selects, its bytes and its dictionaries.
 *
 * <h2>What is here</h2>
 *
 * <ul>
 *   <li>{@link dev.prefetch.orc.internal.stripe.StripeReads}: one per plan, the stripes' shared
 *       state ({@link dev.prefetch.orc.internal.stripe.StripeEntry}), made by the first producer
 *       that needs a stripe and dropped when the plan's last range of it is read.
 *   <li>{@link dev.prefetch.orc.internal.stripe.StripeLayout}: the footer, parsed once, as each
 *       stream's place in the file and each column's encoding.
 *   <li>{@link dev.prefetch.orc.internal.stripe.RowIndexes}: the row indexes (and the predicate's
 *       bloom filters) of the read's columns, parsed once.
 *   <li>{@link dev.prefetch.orc.internal.stripe.RowGroupFilter}: the row groups a {@code
 *       SearchArgument} selects, by orc-core's own evaluation over those indexes.
 *   <li>{@link dev.prefetch.orc.internal.stripe.StripeBytes}: the byte ranges the plan needs, as
 *       spans read in units, each unit once (on remote storage all together, as one vectored read
 *       that may be issued ahead), counted in the ledger of the reader that read it.
 *   <li>{@link dev.prefetch.orc.internal.stripe.StreamPositions}: which row index positions locate
 *       which stream of a column, to bound the bytes of a read of some row groups.
 * </ul>
 *
 * <h2>What a stripe's read costs</h2>
 *
 * A stripe read whole (every row group, no predicate): its footer, then its read columns' index and
 * data streams as spans (on remote storage one request for the lot). A stripe read in part (row
 * ranges, a predicate): its footer, its index streams, then of each data stream only the bytes from
 * the first row group read to the last (the row index positions bound them, plus the compression
 * blocks a straddling run may reach), its dictionaries whole. Either way each byte is read once,
 * whatever the producers: the first that needs a value computes it, the others wait for it.
 *
 * <p>Thread-safe where shared (the entries and their values say how); a reader lends its own
 * stream, codec and ledger for the reads it makes ({@link
 * dev.prefetch.orc.internal.stripe.StripeIo}).
 */
package dev.prefetch.orc.internal.stripe;
