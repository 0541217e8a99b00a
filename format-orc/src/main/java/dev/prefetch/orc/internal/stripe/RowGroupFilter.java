package dev.prefetch.orc.internal.stripe;

import dev.prefetch.CorruptFileException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.impl.RecordReaderImpl;
import org.apache.orc.impl.SchemaEvolution;

/**
 * Which row groups of a stripe a {@link SearchArgument} may select: orc-core's own evaluation
 * ({@code RecordReaderImpl.SargApplier}, the statistics of each row group's index entry and, where
 * the stripe has them, its bloom filters), over the row indexes a stripe's readers parsed once. So
 * the row groups kept are exactly those orc-core's reader reads.
 *
 * <p>Thread-safe: made once per plan; each stripe's selection is computed by one reader at a time,
 * and the evaluation keeps no state between calls (but for a count of failed evaluations orc-core
 * keeps for its tests).
 */
public final class RowGroupFilter {

  private final RecordReaderImpl.SargApplier applier;
  private final boolean[] columns;
  private final boolean bloomFilters;

  /**
   * @param sarg the predicate
   * @param rowIndexStride the file's rows per row group (not 0)
   * @param schema the file's schema
   * @param writerVersion the file's writer version (what its statistics and bloom filters hold)
   * @param writerUsedProlepticGregorian whether the file's dates and timestamps are proleptic
   * @param convertToProlepticGregorian whether the read converts them to proleptic
   * @param bloomFilters whether the file's bloom filters can be trusted (not those of the C++
   *     writer's releases that wrote them wrong)
   * @param conf the read's configuration (orc-core's schema evolution settings)
   */
  public RowGroupFilter(
      SearchArgument sarg,
      long rowIndexStride,
      TypeDescription schema,
      OrcFile.WriterVersion writerVersion,
      boolean writerUsedProlepticGregorian,
      boolean convertToProlepticGregorian,
      boolean bloomFilters,
      Configuration conf) {
    SchemaEvolution evolution = new SchemaEvolution(schema, null, new Reader.Options(conf));
    this.applier =
        new RecordReaderImpl.SargApplier(
            sarg,
            rowIndexStride,
            evolution,
            writerVersion,
            true, // timestamps as the read's UTC option reads them
            writerUsedProlepticGregorian,
            convertToProlepticGregorian);
    this.columns = new boolean[schema.getMaximumId() + 1];
    applier.setRowIndexCols(columns);
    this.bloomFilters = bloomFilters;
  }

  /**
   * The columns whose row indexes (and bloom filters) the predicate is tested on. Do not modify.
   */
  public boolean[] columns() {
    return columns;
  }

  /** Whether the predicate reads the bloom filters of {@link #columns()}. */
  boolean bloomFilters() {
    return bloomFilters;
  }

  /**
   * The row groups of {@code stripe} the predicate may select: null for all of them, else one flag
   * per row group.
   *
   * @param where the file and stripe, for messages
   * @throws CorruptFileException when the row indexes do not describe the stripe's row groups
   */
  boolean[] select(
      String where,
      StripeInformation stripe,
      RowIndexes indexes,
      List<OrcProto.ColumnEncoding> encodings)
      throws IOException {
    try {
      return applier.pickRowGroups(
          stripe,
          indexes.rowIndexArray(),
          bloomFilters ? indexes.bloomKindArray() : null,
          encodings,
          bloomFilters ? indexes.bloomFilterArray() : null,
          false);
    } catch (RuntimeException e) {
      // an entry missing for a row group, statistics that do not fit the column
      throw new CorruptFileException(
          "Corrupt " + where + ": its row index does not fit its row groups: " + e, e);
    }
  }

  /**
   * Whether the bloom filters of a file whose footer is {@code footer} can be used: not those of
   * the C++ writer releases that wrote them wrong (1.6.0 to 1.6.11 and 1.7.0, and earlier 1.6
   * releases that did not record their version), as orc-core decides.
   */
  public static boolean trustsBloomFilters(OrcProto.Footer footer) {
    if (footer.getWriter() != 1) {
      return true;
    }
    if (!footer.hasSoftwareVersion()) {
      return false;
    }
    String version = footer.getSoftwareVersion();
    int dash = version.indexOf('-');
    if (dash >= 0) {
      version = version.substring(0, dash);
    }
    for (String bad :
        new String[] {
          "1.6.0", "1.6.1", "1.6.2", "1.6.3", "1.6.4", "1.6.5", "1.6.6", "1.6.7", "1.6.8", "1.6.9",
          "1.6.10", "1.6.11", "1.7.0"
        }) {
      if (bad.equals(version)) {
        return false;
      }
    }
    return true;
  }
}
