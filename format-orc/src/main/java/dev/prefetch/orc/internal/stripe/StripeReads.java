package dev.prefetch.orc.internal.stripe;

import dev.prefetch.DataFile;
import java.util.List;
import java.util.Objects;
import org.apache.orc.CompressionKind;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;

/**
 * The reads of one plan's stripes, shared by all its range readers: for each stripe that has
 * ranges, one {@link StripeEntry} holding its footer, row indexes, row group selection, bytes and
 * dictionaries, each read and parsed once whatever the producers, and dropped when the plan's last
 * range of the stripe is read ({@link #rangeDone}).
 *
 * <p>Thread-safe: producers call in concurrently; {@link StripeEntries} guards the entries, each
 * entry its own state.
 */
public final class StripeReads {

  /**
   * What the entries need to know about the file and the read; immutable.
   *
   * @param file the file, for messages
   * @param stripes the file's stripes
   * @param schema the file's schema
   * @param include the columns the read decodes (orc-core's include flags, by column id)
   * @param compression the file's compression
   * @param blockSize the file's compression block size
   * @param rowIndexStride rows per row group, 0 without a row index
   * @param decimal64 whether decimals of at most 18 digits are stored as integers (orc-core's
   *     version UNSTABLE_PRE_2_0)
   * @param together whether a stripe's bytes are read in one vectored read (remote storage)
   * @param filter the predicate's row group filter, or null
   * @param rangesPerStripe the plan's ranges of each stripe
   * @param neededStrides per stripe, the row groups its ranges cover; null for a stripe read whole
   *     (every row group, no predicate), or one without ranges
   */
  public record Settings(
      DataFile file,
      List<StripeInformation> stripes,
      TypeDescription schema,
      boolean[] include,
      CompressionKind compression,
      int blockSize,
      long rowIndexStride,
      boolean decimal64,
      boolean together,
      RowGroupFilter filter,
      int[] rangesPerStripe,
      boolean[][] neededStrides) {

    public Settings {
      Objects.requireNonNull(file, "file is null");
      stripes = List.copyOf(stripes);
      Objects.requireNonNull(schema, "schema is null");
      include = include.clone();
      Objects.requireNonNull(compression, "compression is null");
      rangesPerStripe = rangesPerStripe.clone();
      neededStrides = neededStrides.clone();
      if (rangesPerStripe.length != stripes.size() || neededStrides.length != stripes.size()) {
        throw new IllegalArgumentException(
            stripes.size()
                + " stripes but "
                + rangesPerStripe.length
                + " range counts and "
                + neededStrides.length
                + " stride selections");
      }
    }

    /** "ORC file f, stripe 2", for messages. */
    String where(int stripe) {
      return "ORC file " + file + ", stripe " + stripe;
    }

    /** The row groups of stripe {@code stripe}; 0 without a row index. */
    int strides(int stripe) {
      if (rowIndexStride <= 0) {
        return 0;
      }
      long rows = stripes.get(stripe).getNumberOfRows();
      return Math.toIntExact((rows + rowIndexStride - 1) / rowIndexStride);
    }
  }

  private final Settings settings;
  private final StripeEntries<StripeEntry> entries;

  public StripeReads(Settings settings) {
    this.settings = Objects.requireNonNull(settings, "settings is null");
    this.entries = new StripeEntries<>(settings.rangesPerStripe());
  }

  /** The shared state of stripe {@code stripe}, one of the plan's. */
  public StripeEntry stripe(int stripe) {
    return entries.get(
        stripe, () -> new StripeEntry(settings, stripe), "has no ranges in this plan");
  }

  /** Notes that one of the plan's ranges of {@code stripe} is read; the last one drops it. */
  public void rangeDone(int stripe) {
    entries.rangeDone(stripe);
  }

  /** Drops every stripe held (the plan's close). */
  public void clear() {
    entries.clear();
  }

  /** The settings. */
  public Settings settings() {
    return settings;
  }
}
