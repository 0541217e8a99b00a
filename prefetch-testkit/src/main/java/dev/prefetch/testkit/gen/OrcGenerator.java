package dev.prefetch.testkit.gen;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.StructColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/** Writes a generated table as ORC with orc-core's own writer. */
public final class OrcGenerator {

  private static final int BATCH_ROWS = 1024;

  private OrcGenerator() {}

  /** The ORC schema of a generated table. */
  public static TypeDescription schema(GenSpec spec) {
    switch (spec.kind()) {
      case SCAN:
        return TypeDescription.fromString(
            "struct<id:bigint,qty:int,price:double,category:string,"
                + "customer:string,comment:string,day:date,ts:timestamp,amount:decimal("
                + Tables.AMOUNT_PRECISION
                + ","
                + Tables.AMOUNT_SCALE
                + "),active:boolean,ratio:float,"
                + "code:bigint>");
      case WIDE:
        {
          TypeDescription struct = TypeDescription.createStruct();
          for (int c = 0; c < spec.columns(); c++) {
            struct.addField(Tables.wideColumn(c), TypeDescription.createLong());
          }
          return struct;
        }
      case NESTED:
        return TypeDescription.fromString(
            "struct<id:bigint,tags:array<string>,"
                + "attrs:map<string,bigint>,point:struct<x:double,y:double>,"
                + "events:array<struct<kind:int,value:double>>>");
      default:
        throw new IllegalStateException("unknown kind " + spec.kind());
    }
  }

  /** Writes {@code spec} to {@code out}, replacing it. */
  public static void write(GenSpec spec, Path out, Configuration conf) throws IOException {
    TypeDescription schema = schema(spec);
    Configuration writerConf = new Configuration(conf);
    if (spec.rowGroups() > 0) {
      OrcConf.STRIPE_ROW_COUNT.setLong(writerConf, spec.rowsPerGroup());
    }
    if (!spec.dictionary()) {
      OrcConf.DICTIONARY_KEY_SIZE_THRESHOLD.setDouble(writerConf, 0.0);
    }
    out.getFileSystem(writerConf).delete(out, false);
    OrcFile.WriterOptions options =
        OrcFile.writerOptions(writerConf)
            .setSchema(schema)
            .compress(GenCodec.named(spec.codec()).orc)
            .bufferSize(Math.max(4096, Math.min(spec.pageBytes(), 1 << 20)))
            .stripeSize(spec.rowGroups() > 0 ? Long.MAX_VALUE / 4 : spec.rowGroupBytes())
            .blockPadding(false)
            .useUTCTimestamp(true);
    try (Writer writer = OrcFile.createWriter(out, options)) {
      writer.addUserMetadata(
          "prefetch.gen",
          java.nio.ByteBuffer.wrap(
              spec.fingerprint().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      VectorizedRowBatch batch = schema.createRowBatch(BATCH_ROWS);
      long row = 0;
      while (row < spec.rows()) {
        int n = (int) Math.min(BATCH_ROWS, spec.rows() - row);
        batch.reset();
        switch (spec.kind()) {
          case SCAN -> fillScan(spec.seed(), row, n, batch);
          case WIDE -> fillWide(spec.seed(), row, n, batch);
          case NESTED -> fillNested(spec.seed(), row, n, batch);
          default -> throw new IllegalStateException("unknown kind " + spec.kind());
        }
        batch.size = n;
        writer.addRowBatch(batch);
        row += n;
      }
    }
  }

  private static void fillScan(long seed, long first, int n, VectorizedRowBatch batch) {
    LongColumnVector id = (LongColumnVector) batch.cols[0];
    LongColumnVector qty = (LongColumnVector) batch.cols[1];
    DoubleColumnVector price = (DoubleColumnVector) batch.cols[2];
    BytesColumnVector category = (BytesColumnVector) batch.cols[3];
    BytesColumnVector customer = (BytesColumnVector) batch.cols[4];
    BytesColumnVector comment = (BytesColumnVector) batch.cols[5];
    LongColumnVector day = (LongColumnVector) batch.cols[6];
    TimestampColumnVector ts = (TimestampColumnVector) batch.cols[7];
    DecimalColumnVector amount = (DecimalColumnVector) batch.cols[8];
    LongColumnVector active = (LongColumnVector) batch.cols[9];
    DoubleColumnVector ratio = (DoubleColumnVector) batch.cols[10];
    LongColumnVector code = (LongColumnVector) batch.cols[11];
    for (int i = 0; i < n; i++) {
      long row = first + i;
      id.vector[i] = row;
      qty.vector[i] = Tables.qty(seed, row);
      price.vector[i] = Tables.price(seed, row);
      byte[] cat = Tables.category(seed, row);
      category.setRef(i, cat, 0, cat.length);
      byte[] cust = Tables.customer(seed, row);
      customer.setRef(i, cust, 0, cust.length);
      byte[] note = Tables.comment(seed, row);
      if (note == null) {
        comment.noNulls = false;
        comment.isNull[i] = true;
      } else {
        comment.setRef(i, note, 0, note.length);
      }
      day.vector[i] = Tables.day(seed, row);
      long micros = Tables.tsMicros(seed, row);
      ts.time[i] = Math.floorDiv(micros, 1000);
      ts.nanos[i] = (int) Math.floorMod(micros, 1_000_000) * 1000;
      amount.vector[i].setFromLongAndScale(Tables.amountUnscaled(seed, row), Tables.AMOUNT_SCALE);
      active.vector[i] = Tables.active(seed, row) ? 1 : 0;
      ratio.vector[i] = Tables.ratio(seed, row);
      if (Tables.codeIsNull(seed, row)) {
        code.noNulls = false;
        code.isNull[i] = true;
      } else {
        code.vector[i] = Tables.code(seed, row);
      }
    }
  }

  private static void fillWide(long seed, long first, int n, VectorizedRowBatch batch) {
    for (int c = 0; c < batch.cols.length; c++) {
      long[] values = ((LongColumnVector) batch.cols[c]).vector;
      for (int i = 0; i < n; i++) {
        values[i] = Tables.wide(seed, first + i, c);
      }
    }
  }

  private static void fillNested(long seed, long first, int n, VectorizedRowBatch batch) {
    LongColumnVector id = (LongColumnVector) batch.cols[0];
    ListColumnVector tags = (ListColumnVector) batch.cols[1];
    MapColumnVector attrs = (MapColumnVector) batch.cols[2];
    StructColumnVector point = (StructColumnVector) batch.cols[3];
    ListColumnVector events = (ListColumnVector) batch.cols[4];
    BytesColumnVector tagValues = (BytesColumnVector) tags.child;
    BytesColumnVector attrKeys = (BytesColumnVector) attrs.keys;
    LongColumnVector attrValues = (LongColumnVector) attrs.values;
    DoubleColumnVector x = (DoubleColumnVector) point.fields[0];
    DoubleColumnVector y = (DoubleColumnVector) point.fields[1];
    StructColumnVector eventValues = (StructColumnVector) events.child;
    int tagCount = 0;
    int attrCount = 0;
    int eventCount = 0;
    for (int i = 0; i < n; i++) {
      long row = first + i;
      id.vector[i] = row;

      int t = Tables.tagsLength(seed, row);
      if (t < 0) {
        tags.noNulls = false;
        tags.isNull[i] = true;
      } else {
        tags.offsets[i] = tagCount;
        tags.lengths[i] = t;
        tagValues.ensureSize(tagCount + t, true);
        for (int e = 0; e < t; e++) {
          byte[] tag = Tables.tag(seed, row, e);
          if (tag == null) {
            tagValues.noNulls = false;
            tagValues.isNull[tagCount + e] = true;
          } else {
            tagValues.setRef(tagCount + e, tag, 0, tag.length);
          }
        }
        tagCount += t;
      }

      int a = Tables.attrsLength(seed, row);
      if (a < 0) {
        attrs.noNulls = false;
        attrs.isNull[i] = true;
      } else {
        attrs.offsets[i] = attrCount;
        attrs.lengths[i] = a;
        attrKeys.ensureSize(attrCount + a, true);
        attrValues.ensureSize(attrCount + a, true);
        for (int e = 0; e < a; e++) {
          byte[] key = Tables.attrKey(e);
          attrKeys.setRef(attrCount + e, key, 0, key.length);
          if (Tables.attrValueIsNull(seed, row, e)) {
            attrValues.noNulls = false;
            attrValues.isNull[attrCount + e] = true;
          } else {
            attrValues.vector[attrCount + e] = Tables.attrValue(seed, row, e);
          }
        }
        attrCount += a;
      }

      if (Tables.pointIsNull(seed, row)) {
        point.noNulls = false;
        point.isNull[i] = true;
      } else {
        x.vector[i] = Tables.pointX(seed, row);
        y.vector[i] = Tables.pointY(seed, row);
      }

      int ev = Tables.eventsLength(seed, row);
      if (ev < 0) {
        events.noNulls = false;
        events.isNull[i] = true;
      } else {
        events.offsets[i] = eventCount;
        events.lengths[i] = ev;
        eventValues.ensureSize(eventCount + ev, true);
        LongColumnVector kinds = (LongColumnVector) eventValues.fields[0];
        DoubleColumnVector values = (DoubleColumnVector) eventValues.fields[1];
        for (int e = 0; e < ev; e++) {
          int at = eventCount + e;
          if (Tables.eventIsNull(seed, row, e)) {
            eventValues.noNulls = false;
            eventValues.isNull[at] = true;
          } else {
            kinds.vector[at] = Tables.eventKind(seed, row, e);
            values.vector[at] = Tables.eventValue(seed, row, e);
          }
        }
        eventCount += ev;
      }
    }
    tags.childCount = tagCount;
    attrs.childCount = attrCount;
    events.childCount = eventCount;
  }
}
