package dev.prefetch.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.DataFile;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class ChecksumTest {

  private static final DataFile FILE = DataFile.of(new Path("file:/x.parquet"));
  private static final Schema SCHEMA = new Schema(List.of(
      Field.of("id", DataType.int64()), Field.of("name", DataType.string())));

  private static RecordBatch batch(long first, long[] ids, String[] names) {
    int n = ids.length;
    StringBuilder all = new StringBuilder();
    int[] offsets = new int[n + 1];
    boolean[] nulls = new boolean[n];
    for (int i = 0; i < n; i++) {
      if (names[i] == null) {
        nulls[i] = true;
      } else {
        all.append(names[i]);
      }
      offsets[i + 1] = all.length();
    }
    return new RecordBatch(FILE, first, n, SCHEMA, List.of(
        new LongVector(DataType.int64(), n, ids, null),
        new BinaryVector(DataType.string(), n, all.toString().getBytes(), offsets, nulls)));
  }

  @Test
  void theChecksumDoesNotDependOnHowRowsAreCutIntoBatches() {
    Checksum whole = new Checksum(2);
    whole.add(batch(0, new long[] {1, 2, 3}, new String[] {"a", null, "ccc"}));
    Checksum pieces = new Checksum(2);
    pieces.add(batch(0, new long[] {1}, new String[] {"a"}));
    pieces.add(batch(1, new long[] {2, 3}, new String[] {null, "ccc"}));
    assertThat(pieces.value()).isEqualTo(whole.value());
    assertThat(pieces.rows()).isEqualTo(3);
  }

  @Test
  void theChecksumChangesWithOrderNullsAndValues() {
    String base = sum(new long[] {1, 2}, new String[] {"a", "b"});
    assertThat(sum(new long[] {2, 1}, new String[] {"a", "b"})).isNotEqualTo(base);
    assertThat(sum(new long[] {1, 2}, new String[] {"a", null})).isNotEqualTo(base);
    assertThat(sum(new long[] {1, 2}, new String[] {"a", ""})).isNotEqualTo(base);
    assertThat(sum(new long[] {0, 0}, new String[] {"", ""}))
        .isNotEqualTo(sum(new long[] {0, 0, 0}, new String[] {"", "", ""}));
  }

  @Test
  void canonicalFeedingMatchesBatchFeeding() {
    Checksum fromBatch = new Checksum(2);
    fromBatch.add(batch(0, new long[] {7, 8}, new String[] {"x", null}));
    Checksum fed = new Checksum(2);
    fed.addLong(0, 7);
    fed.addLong(0, 8);
    fed.addBytes(1, "x".getBytes(), 0, 1);
    fed.addNull(1);
    assertThat(fed.value()).isEqualTo(fromBatch.value());
  }

  private static String sum(long[] ids, String[] names) {
    Checksum checksum = new Checksum(2);
    checksum.add(batch(0, ids, names));
    return checksum.value();
  }
}
