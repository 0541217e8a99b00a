package dev.prefetch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.DataFile;
import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.BooleanVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DoubleVector;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.FloatVector;
import dev.prefetch.batch.IntVector;
import dev.prefetch.batch.LongVector;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class ChecksumTest {

  private static final DataFile FILE = DataFile.of(new Path("file:/x.parquet"));
  private static final Schema SCHEMA =
      new Schema(List.of(Field.of("id", DataType.int64()), Field.of("name", DataType.string())));

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
    return new RecordBatch(
        FILE,
        first,
        n,
        SCHEMA,
        List.of(
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

  @Test
  void typedLoopsAgreeWithValueFeedingAtEveryBatchCut() {
    Schema schema =
        new Schema(
            List.of(
                Field.of("l", DataType.int64()),
                Field.of("i", DataType.int32()),
                Field.of("d", DataType.float64()),
                Field.of("f", DataType.float32()),
                Field.of("b", DataType.bool())));
    java.util.Random random = new java.util.Random(7);
    int total = 3_000;
    long[] longs = new long[total];
    int[] ints = new int[total];
    double[] doubles = new double[total];
    float[] floats = new float[total];
    boolean[] flags = new boolean[total];
    boolean[] nulls = new boolean[total];
    Checksum fed = new Checksum(5);
    for (int r = 0; r < total; r++) {
      longs[r] = random.nextLong();
      ints[r] = random.nextInt();
      doubles[r] = r % 97 == 0 ? Double.NaN : random.nextDouble();
      nulls[r] = random.nextInt(5) == 0;
      if (nulls[r]) {
        fed.addNull(0);
      } else {
        fed.addLong(0, longs[r]);
      }
      fed.addLong(1, ints[r]);
      fed.addDouble(2, doubles[r]);
      floats[r] = random.nextFloat();
      flags[r] = random.nextBoolean();
      fed.addDouble(3, floats[r]);
      fed.addLong(4, flags[r] ? 1 : 0);
    }
    Checksum batched = new Checksum(5);
    int at = 0;
    while (at < total) {
      int n = Math.min(total - at, 1 + random.nextInt(1500));
      batched.add(
          new RecordBatch(
              FILE,
              at,
              n,
              schema,
              List.of(
                  new LongVector(
                      DataType.int64(),
                      n,
                      java.util.Arrays.copyOfRange(longs, at, at + n),
                      java.util.Arrays.copyOfRange(nulls, at, at + n)),
                  new IntVector(
                      DataType.int32(), n, java.util.Arrays.copyOfRange(ints, at, at + n), null),
                  new DoubleVector(
                      DataType.float64(),
                      n,
                      java.util.Arrays.copyOfRange(doubles, at, at + n),
                      null),
                  new FloatVector(
                      DataType.float32(),
                      n,
                      java.util.Arrays.copyOfRange(floats, at, at + n),
                      null),
                  new BooleanVector(
                      DataType.bool(), n, java.util.Arrays.copyOfRange(flags, at, at + n), null))));
      at += n;
    }
    assertThat(batched.value()).isEqualTo(fed.value());
    assertThat(batched.rows()).isEqualTo(total);
  }

  @Test
  void aValueHashesTheSameWhereverItSitsInItsArray() {
    byte[] value = "0123456789abc".getBytes();
    String alone = bytesChecksum(value, 0, value.length);
    for (int pad = 0; pad < 12; pad++) {
      byte[] padded = new byte[pad + value.length + pad];
      java.util.Arrays.fill(padded, (byte) 0x5A);
      System.arraycopy(value, 0, padded, pad, value.length);
      for (int length = 0; length <= value.length; length++) {
        assertThat(bytesChecksum(padded, pad, length))
            .as("length %d at %d", length, pad)
            .isEqualTo(bytesChecksum(java.util.Arrays.copyOf(value, length), 0, length));
      }
    }
    assertThat(alone).isNotEqualTo(bytesChecksum(value, 0, value.length - 1));
  }

  private static String bytesChecksum(byte[] data, int offset, int length) {
    Checksum checksum = new Checksum(1);
    checksum.addBytes(0, data, offset, length);
    return checksum.value();
  }

  private static String sum(long[] ids, String[] names) {
    Checksum checksum = new Checksum(2);
    checksum.add(batch(0, ids, names));
    return checksum.value();
  }
}
