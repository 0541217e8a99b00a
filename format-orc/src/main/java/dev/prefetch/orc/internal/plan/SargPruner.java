package dev.prefetch.orc.internal.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument.TruthValue;
import org.apache.orc.ColumnStatistics;
import org.apache.orc.OrcProto;
import org.apache.orc.StripeStatistics;
import org.apache.orc.TypeDescription;
import org.apache.orc.impl.RecordReaderImpl;
import org.apache.orc.impl.StripeStatisticsImpl;

/**
 * Drops the stripes whose statistics prove a {@link SearchArgument} false for every row, at plan
 * time, from the stripe statistics the tail already holds (no extra read). Row groups inside the
 * kept stripes are pruned later by orc-core from the row index. Whenever a leaf's column or
 * statistics cannot be used, the stripe is kept: pruning may only ever skip rows no reader would
 * return.
 */
public final class SargPruner {

  private SargPruner() {}

  /**
   * The stripes' statistics as orc-core evaluates predicates on them, built from the parsed
   * messages as orc-core's reader builds them, without asking a reader for them (which would
   * decompress them with orc-core's codec).
   *
   * @param writerUsedProlepticGregorian whether the file's dates and timestamps are proleptic
   * @param convertToProlepticGregorian whether the read keeps them proleptic
   */
  public static List<StripeStatistics> statistics(
      TypeDescription schema,
      List<OrcProto.StripeStatistics> stripes,
      boolean writerUsedProlepticGregorian,
      boolean convertToProlepticGregorian) {
    List<StripeStatistics> statistics = new ArrayList<>(stripes.size());
    for (OrcProto.StripeStatistics stripe : stripes) {
      statistics.add(
          new StripeStatisticsImpl(
              schema,
              new ArrayList<>(stripe.getColStatsList()),
              writerUsedProlepticGregorian,
              convertToProlepticGregorian));
    }
    return statistics;
  }

  /** Clears {@code keep[s]} for each stripe the predicate excludes. */
  public static void prune(
      SearchArgument sarg, TypeDescription schema, List<StripeStatistics> stats, boolean[] keep) {
    List<PredicateLeaf> leaves = sarg.getLeaves();
    int[] columnIds = new int[leaves.size()];
    for (int i = 0; i < columnIds.length; i++) {
      columnIds[i] = columnId(schema, leaves.get(i).getColumnName());
    }
    TruthValue[] truth = new TruthValue[leaves.size()];
    for (int s = 0; s < keep.length && s < stats.size(); s++) {
      if (!keep[s]) {
        continue;
      }
      ColumnStatistics[] columns = stats.get(s).getColumnStatistics();
      for (int i = 0; i < truth.length; i++) {
        truth[i] = evaluate(columns, columnIds[i], leaves.get(i));
      }
      keep[s] = sarg.evaluate(truth).isNeeded();
    }
  }

  private static TruthValue evaluate(ColumnStatistics[] columns, int id, PredicateLeaf leaf) {
    if (id < 0 || id >= columns.length || columns[id] == null) {
      return TruthValue.YES_NO_NULL;
    }
    try {
      return RecordReaderImpl.evaluatePredicate(columns[id], leaf, null, true);
    } catch (RuntimeException e) {
      return TruthValue.YES_NO_NULL; // statistics of an unexpected kind: cannot prune on them
    }
  }

  private static int columnId(TypeDescription schema, String name) {
    try {
      return schema.findSubtype(name).getId();
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }
}
