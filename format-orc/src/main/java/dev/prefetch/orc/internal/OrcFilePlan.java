package dev.prefetch.orc.internal;

import dev.prefetch.DataFile;
import dev.prefetch.ReadOptions;
import dev.prefetch.batch.Schema;
import dev.prefetch.orc.internal.metadata.CountingFileSystem;
import dev.prefetch.orc.internal.metadata.FileTail;
import dev.prefetch.orc.internal.plan.RangePlanner;
import dev.prefetch.orc.internal.plan.StrideLocator;
import dev.prefetch.orc.internal.reader.ReadSettings;
import dev.prefetch.orc.internal.stripe.RowGroupFilter;
import dev.prefetch.orc.internal.stripe.StripeReads;
import dev.prefetch.spi.CountingInputStream;
import dev.prefetch.spi.FilePlan;
import dev.prefetch.spi.RangeReader;
import dev.prefetch.spi.ReadRange;
import dev.prefetch.spi.ReaderContext;
import dev.prefetch.spi.ScanCounters;
import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;

/**
 * The plan of one ORC file's read: the parsed tail, the projection, the predicate and the ranges.
 * Immutable after construction and shared by every {@link OrcRangeReader} it opens, which each
 * build their own orc-core {@link Reader} from the shared tail (no second tail read).
 */
public final class OrcFilePlan implements FilePlan {

  private final DataFile file;
  private final FileSystem fs;
  private final Configuration conf;
  private final FileTail tail;
  private final Projection projection;
  private final SearchArgument sarg;
  private final List<StripeInformation> stripes;
  private final long[] stripeFirstRows;
  private final List<ReadRange> ranges;

  /** The locator of each range, at its index. */
  private final List<StrideLocator> locators;

  private final int batchSize;
  private final ReadOptions options;

  /** orc.read.enable-prefetch-read-size-threshold, when the read sets it. */
  private final OptionalLong prefetchThresholdBytes;

  private final ScanCounters counters;
  private final SearchArgument alwaysTrue;
  private final long rowIndexStride;
  private final long maxBatchBytes;
  private final StripeBuffers stripeBuffers;
  private final StripeRequests stripeRequests;

  /** The first stride of each stripe's first range (-1 for a stripe without ranges). */
  private final int[] stripeFirstStrides;

  /** The stripes' shared reads of the read path of our own; null for the bare plan. */
  private final StripeReads stripeReads;

  /** How the read decodes values; null for the bare plan. */
  private final ReadSettings readSettings;

  /** Whether each output column comes as dictionary vectors where its stripe allows. */
  private final boolean[] dictionaryVectors;

  /** Whether the read filters rows with its predicate (orc-core's row filter options). */
  private final boolean rowFilter;

  private final FileFacts facts;

  /**
   * What the read path needs of the file beyond its tail's messages, taken from orc-core's reader
   * while planning.
   *
   * @param compression the file's compression
   * @param blockSize its compression block size
   * @param version the file's format version
   * @param writerVersion the writer's version (what its statistics hold)
   * @param writerUsedProlepticGregorian whether its dates and timestamps are proleptic
   * @param convertToProlepticGregorian whether the read keeps them proleptic ({@code
   *     orc.proleptic.gregorian})
   * @param bloomFilters whether its bloom filters can be trusted
   * @param conf the read's configuration
   */
  record FileFacts(
      org.apache.orc.CompressionKind compression,
      int blockSize,
      org.apache.orc.OrcFile.Version version,
      org.apache.orc.OrcFile.WriterVersion writerVersion,
      boolean writerUsedProlepticGregorian,
      boolean convertToProlepticGregorian,
      boolean bloomFilters,
      Configuration conf) {}

  OrcFilePlan(
      DataFile file,
      FileSystem fs,
      Configuration conf,
      FileTail tail,
      Projection projection,
      SearchArgument sarg,
      List<StripeInformation> stripes,
      RangePlanner.Planned planned,
      int batchSize,
      ReadOptions options,
      long maxBatchBytes,
      OptionalLong prefetchThresholdBytes,
      ScanCounters counters,
      dev.prefetch.orc.OrcOptions orcOptions,
      FileFacts facts) {
    this.prefetchThresholdBytes = prefetchThresholdBytes;
    this.maxBatchBytes = maxBatchBytes;
    this.file = file;
    this.fs = fs;
    this.conf = conf;
    this.tail = tail;
    this.projection = projection;
    this.sarg = sarg;
    this.stripes = List.copyOf(stripes);
    this.stripeFirstRows = new long[stripes.size()];
    long row = 0;
    for (int i = 0; i < stripes.size(); i++) {
      stripeFirstRows[i] = row;
      row += stripes.get(i).getNumberOfRows();
    }
    this.ranges = planned.ranges();
    this.locators = planned.locators();
    this.batchSize = batchSize;
    this.options = options;
    this.counters = counters;
    this.alwaysTrue = projection == null ? null : alwaysTrue(projection);
    this.rowIndexStride = tail.proto().getFooter().getRowIndexStride();
    this.stripeFirstStrides = new int[stripes.size()];
    java.util.Arrays.fill(stripeFirstStrides, -1);
    for (int i = locators.size() - 1; i >= 0; i--) { // file order: the first one wins
      stripeFirstStrides[locators.get(i).stripe()] = locators.get(i).firstStride();
    }
    int[] whole = sharedRanges(this.stripes, this.ranges, this.locators, sarg);
    this.stripeBuffers =
        projection == null
            ? null
            : new StripeBuffers(
                file, this.stripes, whole, projection.include(), !CountingInputStream.isLocal(fs));
    this.stripeRequests = new StripeRequests(file, keptRanges(this.stripes, this.locators, whole));
    this.facts = facts;
    this.rowFilter =
        projection != null
            && facts != null
            && RowFilter.of(sarg, projection.fileSchema(), facts.version(), facts.conf(), 1)
                != null;
    if (projection == null || facts == null) {
      this.stripeReads = null;
      this.readSettings = null;
      this.dictionaryVectors = null;
    } else {
      this.readSettings =
          new ReadSettings(
              facts.version() == org.apache.orc.OrcFile.Version.UNSTABLE_PRE_2_0,
              facts.writerUsedProlepticGregorian() && !facts.convertToProlepticGregorian(),
              java.util.TimeZone.getDefault(),
              maxBatchBytes);
      this.dictionaryVectors = new boolean[projection.columnCount()];
      for (int c = 0; c < dictionaryVectors.length; c++) {
        dev.prefetch.batch.Field field = projection.schema().field(c);
        dictionaryVectors[c] =
            field.type().kind() == dev.prefetch.batch.DataType.Kind.STRING
                && orcOptions.dictionaryVectors().includes(field.name());
      }
      RowGroupFilter filter =
          sarg == null || rowIndexStride <= 0
              ? null
              : new RowGroupFilter(
                  sarg,
                  rowIndexStride,
                  projection.fileSchema(),
                  facts.writerVersion(),
                  facts.writerUsedProlepticGregorian(),
                  facts.convertToProlepticGregorian(),
                  facts.bloomFilters(),
                  facts.conf());
      this.stripeReads =
          new StripeReads(
              new StripeReads.Settings(
                  file,
                  this.stripes,
                  projection.fileSchema(),
                  rowFilter ? projection.include() : projection.outputInclude(),
                  facts.compression(),
                  facts.blockSize(),
                  rowIndexStride,
                  readSettings.decimal64(),
                  !CountingInputStream.isLocal(fs),
                  filter,
                  rangesPerStripe(this.stripes, this.locators),
                  neededStrides(this.stripes, this.ranges, this.locators, sarg, rowIndexStride)));
    }
  }

  /** The plan's ranges of each stripe. */
  private static int[] rangesPerStripe(
      List<StripeInformation> stripes, List<StrideLocator> locators) {
    int[] count = new int[stripes.size()];
    for (StrideLocator locator : locators) {
      count[locator.stripe()]++;
    }
    return count;
  }

  /**
   * Per stripe, the row groups the plan's ranges of it cover; null for a stripe read whole (every
   * row, no predicate, or no row index) or without ranges.
   */
  private static boolean[][] neededStrides(
      List<StripeInformation> stripes,
      List<ReadRange> ranges,
      List<StrideLocator> locators,
      SearchArgument sarg,
      long rowIndexStride) {
    boolean[][] needed = new boolean[stripes.size()][];
    if (rowIndexStride <= 0) {
      return needed;
    }
    long[] rows = new long[stripes.size()];
    for (int i = 0; i < ranges.size(); i++) {
      StrideLocator locator = locators.get(i);
      int stripe = locator.stripe();
      rows[stripe] += ranges.get(i).rowCount();
      if (needed[stripe] == null) {
        long stripeRows = stripes.get(stripe).getNumberOfRows();
        needed[stripe] =
            new boolean[Math.toIntExact((stripeRows + rowIndexStride - 1) / rowIndexStride)];
      }
      for (int s = Math.max(0, locator.firstStride()); s <= locator.lastStride(); s++) {
        needed[stripe][s] = true;
      }
    }
    for (int s = 0; s < needed.length; s++) {
      if (needed[s] != null && sarg == null && rows[s] == stripes.get(s).getNumberOfRows()) {
        needed[s] = null; // every row of the stripe, no predicate: read whole
      }
    }
    return needed;
  }

  /**
   * The plan's ranges per stripe, for the stripes whose bytes its range readers share: those read
   * whole. A stripe read in part (row ranges) or under a predicate (which may skip row groups) is
   * read by each record reader for itself, only the row groups it needs (0 here).
   */
  private static int[] sharedRanges(
      List<StripeInformation> stripes,
      List<ReadRange> ranges,
      List<StrideLocator> locators,
      SearchArgument sarg) {
    int[] count = new int[stripes.size()];
    if (sarg != null) {
      return count;
    }
    long[] rows = new long[stripes.size()];
    for (int i = 0; i < ranges.size(); i++) {
      int stripe = locators.get(i).stripe();
      count[stripe]++;
      rows[stripe] += ranges.get(i).rowCount();
    }
    for (int s = 0; s < count.length; s++) {
      if (rows[s] != stripes.get(s).getNumberOfRows()) {
        count[s] = 0;
      }
    }
    return count;
  }

  /**
   * The plan's ranges per stripe, for the stripes it reads but not whole: their range readers keep
   * what they read for each other ({@link StripeRequests}); with one range, orc-core's second read
   * of the row index (when it picks row groups) is then taken from the first.
   */
  private static int[] keptRanges(
      List<StripeInformation> stripes, List<StrideLocator> locators, int[] whole) {
    int[] count = new int[stripes.size()];
    for (StrideLocator locator : locators) {
      count[locator.stripe()]++;
    }
    for (int s = 0; s < count.length; s++) {
      if (whole[s] > 0) {
        count[s] = 0;
      }
    }
    return count;
  }

  /**
   * A predicate that holds for every row, given to orc-core when the read has none. With a
   * predicate orc-core reads each stripe's row index, which partial reads of a stride window need;
   * and its {@code seekToRow} without one reads the row index through a path that fails with a
   * NullPointerException on files with bloom filters (it passes no bloom filter column mask). "c IS
   * NULL OR NOT c IS NULL" on a column the read includes keeps every row group, and is never turned
   * into a row filter. Without a read column of a plain name there is none, and stripes are then
   * read whole (and a file with bloom filters could meet that orc-core failure when a range starts
   * inside a stripe).
   */
  private static SearchArgument alwaysTrue(Projection projection) {
    if (!projection.structRoot()) {
      return null; // no named column to test
    }
    List<String> names = projection.fileSchema().getFieldNames();
    for (int i = 0; i < names.size(); i++) {
      // orc-core resolves predicate columns by parsing the name; plain names only.
      if (projection.isTopLevelRead(i) && names.get(i).matches("[A-Za-z_][A-Za-z0-9_]*")) {
        return org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory.newBuilder()
            .startOr()
            .isNull(names.get(i), org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf.Type.LONG)
            .startNot()
            .isNull(names.get(i), org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf.Type.LONG)
            .end()
            .end()
            .build();
      }
    }
    return null;
  }

  @Override
  public DataFile file() {
    return file;
  }

  @Override
  public String formatName() {
    return "orc";
  }

  @Override
  public Schema schema() {
    return projection.schema();
  }

  @Override
  public List<ReadRange> ranges() {
    return ranges;
  }

  @Override
  public long minReadBytes(ReadOptions options) {
    return prefetchThresholdBytes.orElse(options.minReadBytes());
  }

  /** Where range {@code index} lies. */
  StrideLocator locator(int index) {
    return locators.get(index);
  }

  @Override
  public RangeReader openReader(ReaderContext context) throws IOException {
    return new OrcRangeReader(this, context);
  }

  /**
   * Off the local filesystem: a range reader then issues the next range's stripe reads while it
   * decodes the current one ({@link OrcRangeReader#prefetch}).
   */
  @Override
  public boolean readsAhead() {
    return stripeReads != null && stripeReads.settings().together();
  }

  /** A reader of the previous read path, on orc-core's record readers (compared in tests). */
  RangeReader openCoreReader(ReaderContext context) throws IOException {
    return new CoreRangeReader(this, context);
  }

  /** A row filter for one range reader, when the read asks for one; else null. */
  RowFilter newRowFilter() {
    return rowFilter
        ? RowFilter.of(sarg, projection.fileSchema(), facts.version(), facts.conf(), batchSize)
        : null;
  }

  /** The stripes' shared reads. */
  StripeReads stripeReads() {
    return stripeReads;
  }

  /** How the read decodes values. */
  ReadSettings readSettings() {
    return readSettings;
  }

  /** Whether output column {@code column} comes as dictionary vectors where it can. */
  boolean dictionaryVectors(int column) {
    return dictionaryVectors[column];
  }

  /** The file's filesystem (not counting). */
  FileSystem fileSystem() {
    return fs;
  }

  /** Rows per row group; 0 without a row index. */
  long rowIndexStride() {
    return rowIndexStride;
  }

  /** The file's stripes. */
  List<StripeInformation> stripes() {
    return stripes;
  }

  /** The memory bound for one batch's values (the read's prefetch.max-buffered-bytes). */
  long maxBatchBytes() {
    return maxBatchBytes;
  }

  /** The read's format counters. */
  ScanCounters counters() {
    return counters;
  }

  /** A counting view of the file's filesystem, for one range reader's streams. */
  CountingFileSystem newCountingFileSystem() {
    return new CountingFileSystem(fs, counters, null);
  }

  /** Opens an orc-core reader over the shared tail, reading through a counting filesystem. */
  Reader openOrcReader() throws IOException {
    return openOrcReader(newCountingFileSystem());
  }

  /** Opens an orc-core reader over the shared tail, reading through {@code counting}. */
  Reader openOrcReader(CountingFileSystem counting) throws IOException {
    OrcFile.ReaderOptions options =
        OrcFile.readerOptions(conf)
            .filesystem(counting)
            .orcTail(tail.newOrcTail())
            .maxLength(tail.proto().getFileLength())
            .useUTCTimestamp(true);
    return OrcFile.createReader(file.path(), options);
  }

  /** orc-core read options for one stripe: the projection, the predicate, the stripe. */
  Reader.Options stripeOptions(Reader reader, int stripe) {
    Reader.Options options =
        reader
            .options()
            .include(projection.include().clone()) // each reader its own: orc-core keeps it
            .range(stripes.get(stripe).getOffset(), 1);
    String[] columnNames =
        projection.structRoot()
            ? projection.fileSchema().getFieldNames().toArray(new String[0])
            : new String[0];
    if (sarg != null) {
      options.searchArgument(sarg, columnNames);
    } else if (alwaysTrue != null) {
      options.searchArgument(alwaysTrue, columnNames).allowSARGToFilter(false);
    }
    return options;
  }

  /** The columns the predicate reads (orc-core's row filter evaluates them first). */
  String[] predicateColumns() {
    if (sarg == null) {
      return new String[0];
    }
    java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
    for (org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf leaf : sarg.getLeaves()) {
      names.add(leaf.getColumnName());
    }
    return names.toArray(new String[0]);
  }

  /** The stripe bytes shared by this plan's range readers. */
  StripeBuffers stripeBuffers() {
    return stripeBuffers;
  }

  /**
   * The stride at which a range reader opens its record reader for {@code locator}: the plan's
   * first stride of the stripe when the stripe's reads are kept for each other, so that every
   * reader asks for the same bytes ({@link StripeRequests}); else the range's own.
   */
  int windowStart(StrideLocator locator) {
    if (!stripeRequests.shares(locator.stripe())) {
      return locator.firstStride();
    }
    return stripeFirstStrides[locator.stripe()];
  }

  /** The reads of stripes not shared whole, kept for this plan's other range readers. */
  StripeRequests stripeRequests() {
    return stripeRequests;
  }

  Projection projection() {
    return projection;
  }

  int batchSize() {
    return batchSize;
  }

  /** The most batches a producer's queue holds (what each column's array pool keeps). */
  long stripeFirstRow(int stripe) {
    return stripeFirstRows[stripe];
  }

  /** Row-index strides (row groups) of stripe {@code stripe}; 0 without a row index. */
  int strideCount(int stripe) {
    if (rowIndexStride <= 0) {
      return 0;
    }
    long rows = stripes.get(stripe).getNumberOfRows();
    return Math.toIntExact((rows + rowIndexStride - 1) / rowIndexStride);
  }

  @Override
  public void close() {
    if (stripeBuffers != null) {
      stripeBuffers.clear();
    }
    stripeRequests.clear();
    if (stripeReads != null) {
      stripeReads.clear();
    }
  }

  @Override
  public String toString() {
    return "OrcFilePlan[" + file + ", " + ranges.size() + " ranges]";
  }
}
