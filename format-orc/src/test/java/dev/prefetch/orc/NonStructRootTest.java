package dev.prefetch.orc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.ReadOptions;
import dev.prefetch.Readers;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.orc.internal.OrcTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ORC files whose root type is not a struct (the specification allows any type there, and orc-core
 * reads them): one column named {@value OrcTypes#NON_STRUCT_ROOT_COLUMN}.
 */
@Timeout(60)
class NonStructRootTest {

  static final int ROWS = 100;

  @TempDir Path dir;

  private Path writeBigints(String name, CompressionKind codec) throws IOException {
    Path file = dir.resolve(name);
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration())
                .setSchema(TypeDescription.createLong())
                .compress(codec)
                .overwrite(true))) {
      VectorizedRowBatch batch = TypeDescription.createLong().createRowBatch(ROWS);
      LongColumnVector v = (LongColumnVector) batch.cols[0];
      for (int i = 0; i < ROWS; i++) {
        if (i % 9 == 4) {
          v.noNulls = false;
          v.isNull[i] = true;
        } else {
          v.vector[i] = i * 1_000_003L - 17;
        }
      }
      batch.size = ROWS;
      writer.addRowBatch(batch);
    }
    return file;
  }

  private static List<Long> expectedBigints() {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      out.add(i % 9 == 4 ? null : i * 1_000_003L - 17);
    }
    return out;
  }

  private static List<Object> readOurs(Path file, List<Field> fields) throws IOException {
    List<Object> out = new ArrayList<>();
    try (ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file, ReadOptions.defaults(), context)) {
      fields.addAll(reader.schema().fields());
      for (RecordBatch batch; (batch = reader.next()) != null; ) {
        for (int r = 0; r < batch.rowCount(); r++) {
          out.add(batch.column(0).getObject(r));
        }
      }
    }
    return out;
  }

  /** orc-core's own read of a non-struct root: its batch holds the root vector as column 0. */
  private static List<Long> readOrcCore(Path file) throws IOException {
    List<Long> out = new ArrayList<>();
    try (Reader reader =
            OrcFile.createReader(
                new org.apache.hadoop.fs.Path(file.toUri()),
                OrcFile.readerOptions(new Configuration()));
        RecordReader rows = reader.rows()) {
      VectorizedRowBatch batch = reader.getSchema().createRowBatch();
      while (rows.nextBatch(batch)) {
        LongColumnVector v = (LongColumnVector) batch.cols[0];
        for (int r = 0; r < batch.size; r++) {
          int i = v.isRepeating ? 0 : r;
          out.add(!v.noNulls && v.isNull[i] ? null : v.vector[i]);
        }
      }
    }
    return out;
  }

  @Test
  void aBigintRootReadsAsOneColumn() throws IOException {
    Path file = writeBigints("bigint-root.orc", CompressionKind.ZLIB);
    List<Field> fields = new ArrayList<>();
    List<Object> values = readOurs(file, fields);
    assertThat(fields).containsExactly(Field.of(OrcTypes.NON_STRUCT_ROOT_COLUMN, DataType.int64()));
    assertThat(values)
        .isEqualTo(new ArrayList<Object>(expectedBigints()))
        .isEqualTo(new ArrayList<Object>(readOrcCore(file)));
  }

  @Test
  void aTimestampRootReadsAsOneColumn() throws IOException {
    Path file = dir.resolve("timestamp-root.orc");
    TypeDescription schema = TypeDescription.createTimestamp();
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration())
                .setSchema(schema)
                .useUTCTimestamp(true)
                .overwrite(true))) {
      VectorizedRowBatch batch = schema.createRowBatch(ROWS);
      TimestampColumnVector v = (TimestampColumnVector) batch.cols[0];
      for (int i = 0; i < ROWS; i++) {
        Timestamp t = new Timestamp(i * 86_400_000L * 97);
        t.setNanos(i * 1_001);
        v.set(i, t);
      }
      batch.size = ROWS;
      writer.addRowBatch(batch);
    }
    List<Field> fields = new ArrayList<>();
    List<Object> values = readOurs(file, fields);
    assertThat(fields)
        .containsExactly(
            Field.of(
                OrcTypes.NON_STRUCT_ROOT_COLUMN,
                DataType.timestamp(DataType.TimeUnit.NANOS, false)));
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      expected.add(i * 86_400_000_000_000L * 97 + i * 1_001);
    }
    assertThat(values).isEqualTo(expected);
  }

  /**
   * A footer whose row count disagrees with its stripes (one writer left it 0): orc-core reads what
   * the stripes hold, and so do we.
   */
  @Test
  void theStripesRowsWinOverAFootersRowCount() throws IOException {
    Path file = writeBigints("footer-says-zero.orc", CompressionKind.NONE);
    setFooterRowCount(file, 0);
    try (Reader reader =
        OrcFile.createReader(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.readerOptions(new Configuration()))) {
      assertThat(reader.getNumberOfRows()).isZero();
      assertThat(reader.getStripes().get(0).getNumberOfRows()).isEqualTo(ROWS);
    }
    assertThat(readOrcCore(file)).isEqualTo(expectedBigints());
    assertThat(readOurs(file, new ArrayList<>()))
        .isEqualTo(new ArrayList<Object>(expectedBigints()));
  }

  /** Rewrites the footer of an uncompressed ORC file with {@code rows} as its row count. */
  static void setFooterRowCount(Path file, long rows) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int psLength = bytes[bytes.length - 1] & 0xFF;
    int psStart = bytes.length - 1 - psLength;
    OrcProto.PostScript ps =
        OrcProto.PostScript.parseFrom(Arrays.copyOfRange(bytes, psStart, bytes.length - 1));
    assertThat(ps.getCompression()).isEqualTo(OrcProto.CompressionKind.NONE);
    int footerStart = psStart - (int) ps.getFooterLength();
    OrcProto.Footer footer =
        OrcProto.Footer.parseFrom(Arrays.copyOfRange(bytes, footerStart, psStart));
    byte[] newFooter = footer.toBuilder().setNumberOfRows(rows).build().toByteArray();
    byte[] newPs = ps.toBuilder().setFooterLength(newFooter.length).build().toByteArray();
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.write(bytes, 0, footerStart);
    out.write(newFooter);
    out.write(newPs);
    out.write(newPs.length);
    Files.write(file, out.toByteArray());
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }
}
