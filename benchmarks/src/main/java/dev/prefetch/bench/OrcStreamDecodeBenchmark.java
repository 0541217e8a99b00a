package dev.prefetch.bench;

import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.orc.internal.io.StreamInput;
import dev.prefetch.orc.internal.stream.BooleanDecoder;
import dev.prefetch.orc.internal.stream.DoubleDecoder;
import dev.prefetch.orc.internal.stream.IntegerDecoder;
import dev.prefetch.spi.MemoryLedger;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.orc.CompressionCodec;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.PhysicalWriter;
import org.apache.orc.impl.BitFieldReader;
import org.apache.orc.impl.BitFieldWriter;
import org.apache.orc.impl.BufferChunk;
import org.apache.orc.impl.InStream;
import org.apache.orc.impl.OrcCodecPool;
import org.apache.orc.impl.OutStream;
import org.apache.orc.impl.RunLengthIntegerReaderV2;
import org.apache.orc.impl.RunLengthIntegerWriterV2;
import org.apache.orc.impl.SerializationUtils;
import org.apache.orc.impl.StreamName;
import org.apache.orc.impl.WriterImpl;
import org.apache.orc.impl.writer.StreamOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding one large ORC stream into primitive arrays, 1,024 values a call as a column reader
 * decodes a batch: our stream layer ({@code dev.prefetch.orc.internal.stream}) against orc-core's
 * own decoders ({@code RunLengthIntegerReaderV2}, {@code BitFieldReader}, {@code
 * SerializationUtils.readDouble} as its double reader calls it) over the same bytes, which
 * orc-core's writers wrote. Time per value (ns/op with {@link #VALUES} operations per call).
 *
 * <p>Streams ({@code stream}): {@code ints-random} signed integers of random widths (DIRECT runs),
 * {@code ints-sorted} an increasing sequence with small gaps (DELTA runs), {@code ints-narrow}
 * small values with rare wide ones (PATCHED_BASE and DIRECT runs of few bits), {@code present} a
 * PRESENT stream with one null in ten (booleans), {@code doubles}. {@code codec} is the stream's
 * compression (NONE by default: the decoders alone; {@code -p codec=ZSTD} adds decompression to
 * both sides).
 *
 * <p>Before any timing, the trial's setup checks that both decode the same values (a checksum over
 * every value). Run: {@code java -jar benchmarks/target/benchmarks.jar OrcStreamDecodeBenchmark}
 * (about 3.5 minutes), after {@code mvn -B -q package -DskipTests}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class OrcStreamDecodeBenchmark {

  /** Values decoded per call, as a batch. */
  static final int BATCH = 1024;

  /** Values in the stream: the operations of one benchmark call. */
  public static final int VALUES = 4 << 20;

  @Param({"ints-random", "ints-sorted", "ints-narrow", "present", "doubles"})
  public String stream;

  @Param({"NONE"})
  public String codec;

  /** Values in the stream; a test lowers it. */
  int values = VALUES;

  private static final int BLOCK_SIZE = 256 << 10;

  private byte[] bytes;
  private CompressionKind kind;
  private DecompressionContext context;
  private final long[] longs = new long[BATCH];
  private final double[] doubles = new double[BATCH];
  private final boolean[] nulls = new boolean[BATCH];
  private final LongColumnVector longVector = new LongColumnVector(BATCH);
  private final DoubleColumnVector doubleVector = new DoubleColumnVector(BATCH);

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    kind = CompressionKind.valueOf(codec);
    bytes = write();
    context = new DecompressionContext(kind, BLOCK_SIZE, MemoryLedger.NONE, 16L << 20);
    long ours = ours();
    long orcCore = orcCore();
    if (ours != orcCore) {
      throw new IllegalStateException(
          stream + ": our checksum " + ours + " differs from orc-core's " + orcCore);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    context.close();
  }

  private byte[] write() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StreamOptions options = new StreamOptions(BLOCK_SIZE);
    if (kind != CompressionKind.NONE) {
      CompressionCodec c = WriterImpl.createCodec(kind);
      options.withCodec(c, c.getDefaultOptions());
    }
    OutStream stream =
        new OutStream(
            "bench",
            options,
            new PhysicalWriter.OutputReceiver() {
              @Override
              public void output(ByteBuffer buffer) {
                out.write(
                    buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
              }

              @Override
              public void suppress() {}
            });
    Random random = new Random(42);
    switch (this.stream) {
      case "present" -> {
        BitFieldWriter writer = new BitFieldWriter(stream, 1);
        for (int i = 0; i < values; i++) {
          writer.write(random.nextInt(10) == 0 ? 0 : 1);
        }
        writer.flush();
      }
      case "doubles" -> {
        SerializationUtils utils = new SerializationUtils();
        for (int i = 0; i < values; i++) {
          utils.writeDouble(stream, random.nextInt(1_000_000) / 100.0);
        }
        stream.flush();
      }
      default -> {
        RunLengthIntegerWriterV2 writer = new RunLengthIntegerWriterV2(stream, true, false);
        long v = 0;
        for (int i = 0; i < values; i++) {
          switch (this.stream) {
            case "ints-random" -> v = random.nextLong() >> random.nextInt(64);
            case "ints-sorted" -> v += 1 + random.nextInt(100);
            case "ints-narrow" ->
                v = random.nextInt(200) == 0 ? random.nextLong() >> 20 : random.nextInt(16);
            default -> throw new IllegalArgumentException("unknown stream " + this.stream);
          }
          writer.write(v);
        }
        writer.flush();
      }
    }
    return out.toByteArray();
  }

  /** Our decoders over the whole stream; returns a checksum of every value. */
  @Benchmark
  @org.openjdk.jmh.annotations.OperationsPerInvocation(VALUES)
  public long ours() throws IOException {
    long sum = 0;
    try (StreamInput in = context.open("bench", bytes, 0, bytes.length)) {
      switch (stream) {
        case "present" -> {
          BooleanDecoder decoder = new BooleanDecoder(in);
          for (int done = 0; done < values; done += BATCH) {
            int n = Math.min(BATCH, values - done);
            sum = sum * 31 + decoder.decodeNulls(nulls, 0, n);
            sum += nulls[n - 1] ? 1 : 0;
          }
        }
        case "doubles" -> {
          DoubleDecoder decoder = new DoubleDecoder(in);
          for (int done = 0; done < values; done += BATCH) {
            int n = Math.min(BATCH, values - done);
            decoder.decode(doubles, 0, n);
            for (int i = 0; i < n; i++) {
              sum += Double.doubleToRawLongBits(doubles[i]);
            }
          }
        }
        default -> {
          IntegerDecoder decoder = IntegerDecoder.create(in, true, true);
          for (int done = 0; done < values; done += BATCH) {
            int n = Math.min(BATCH, values - done);
            decoder.decode(longs, 0, n);
            for (int i = 0; i < n; i++) {
              sum += longs[i];
            }
          }
        }
      }
    }
    return sum;
  }

  /** orc-core's decoders over the same stream; the same checksum. */
  @Benchmark
  @org.openjdk.jmh.annotations.OperationsPerInvocation(VALUES)
  public long orcCore() throws IOException {
    StreamName name = new StreamName(1, OrcProto.Stream.Kind.DATA);
    BufferChunk chunk = new BufferChunk(ByteBuffer.wrap(bytes), 0);
    InStream in;
    CompressionCodec c = null;
    if (kind == CompressionKind.NONE) {
      in = InStream.create(name, chunk, 0, bytes.length);
    } else {
      c = OrcCodecPool.getCodec(kind);
      in =
          InStream.create(
              name,
              chunk,
              0,
              bytes.length,
              InStream.options().withCodec(c).withBufferSize(BLOCK_SIZE));
    }
    long sum = 0;
    try {
      switch (stream) {
        case "present" -> {
          BitFieldReader reader = new BitFieldReader(in);
          for (int done = 0; done < values; done += BATCH) {
            int n = Math.min(BATCH, values - done);
            reader.nextVector(longVector, n);
            int present = 0;
            for (int i = 0; i < n; i++) {
              present += (int) longVector.vector[i];
            }
            sum = sum * 31 + present;
            sum += longVector.vector[n - 1] == 0 ? 1 : 0;
          }
        }
        case "doubles" -> {
          SerializationUtils utils = new SerializationUtils();
          for (int done = 0; done < values; done += BATCH) {
            int n = Math.min(BATCH, values - done);
            // as orc-core's DoubleTreeReader reads a batch without nulls
            for (int i = 0; i < n; i++) {
              doubleVector.vector[i] = utils.readDouble(in);
            }
            for (int i = 0; i < n; i++) {
              sum += Double.doubleToRawLongBits(doubleVector.vector[i]);
            }
          }
        }
        default -> {
          RunLengthIntegerReaderV2 reader = new RunLengthIntegerReaderV2(in, true, false);
          for (int done = 0; done < values; done += BATCH) {
            int n = Math.min(BATCH, values - done);
            reader.nextVector(longVector, longVector.vector, n);
            for (int i = 0; i < n; i++) {
              sum += longVector.vector[i];
            }
          }
        }
      }
    } finally {
      in.close();
      if (c != null) {
        OrcCodecPool.returnCodec(kind, c);
      }
    }
    return sum;
  }
}
