package dev.prefetch.parquet.internal.footer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.prefetch.CorruptFileException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutates a real footer thousands of times (fixed seed) and requires every mutation to give an
 * index or a {@link CorruptFileException}, quickly: never a hang, an OutOfMemoryError or another
 * exception type.
 */
class FooterIndexFuzzTest {

  private static final long SEED = 20261130L;
  private static final int CASES = 4000;
  private static final long MAX_CASE_NANOS = TimeUnit.SECONDS.toNanos(2);

  @TempDir static Path dir;
  private static byte[] footer;

  @BeforeAll
  static void writeFile() throws Exception {
    org.apache.hadoop.fs.Path file =
        new org.apache.hadoop.fs.Path(dir.resolve("fuzz.parquet").toUri());
    WideFiles.write(file, new WideFiles.Spec(12, 6, 40, true, true));
    footer = WideFiles.footerArray(file);
  }

  private enum Mutation {
    FLIP_BIT,
    RANDOM_BYTE,
    TRUNCATE,
    INSERT_BYTES,
    HUGE_VARINT,
    DUPLICATE_SPAN
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void everyMutatedFooterGivesAnIndexOrACorruptFileError() throws Exception {
    assertThat(FooterIndex.build(ByteBuffer.wrap(footer), "fuzz").rowGroupCount()).isEqualTo(6);
    Random random = new Random(SEED);
    Mutation[] mutations = Mutation.values();
    int[] indexed = new int[mutations.length];
    int[] corrupt = new int[mutations.length];
    int[] decoded = new int[mutations.length];
    long slowest = 0;
    long loopStarted = System.nanoTime();
    for (int i = 0; i < CASES; i++) {
      Mutation mutation = mutations[i % mutations.length];
      byte[] bytes = mutate(mutation, random);
      long started = System.nanoTime();
      try {
        FooterIndex index = FooterIndex.build(ByteBuffer.wrap(bytes), "fuzz-" + i);
        assertSpansInside(index, bytes.length);
        indexed[mutation.ordinal()]++;
        // decoding costs more than indexing: every other indexed case keeps the test quick
        if ((i / mutations.length) % 2 == 0 && decodesEveryRowGroup(index, bytes, "fuzz-" + i)) {
          decoded[mutation.ordinal()]++;
        }
      } catch (CorruptFileException e) {
        if (!e.getMessage().startsWith("fuzz-" + i + ": corrupt Parquet footer")) {
          fail("case " + i + ": message does not name the file: " + e.getMessage());
        }
        corrupt[mutation.ordinal()]++;
      } catch (Throwable t) {
        fail("case " + i + " (" + mutation + ") threw " + t, t);
      }
      long took = System.nanoTime() - started;
      slowest = Math.max(slowest, took);
      if (took > MAX_CASE_NANOS) {
        fail("case " + i + " (" + mutation + ") took " + took / 1_000_000 + " ms");
      }
    }
    StringBuilder report =
        new StringBuilder(
            "footer index fuzz: "
                + CASES
                + " cases on a "
                + footer.length
                + "-byte footer in "
                + (System.nanoTime() - loopStarted) / 1_000_000
                + " ms, slowest case "
                + slowest / 1000
                + " us\n");
    for (Mutation m : mutations) {
      report.append(
          String.format(
              "  %-15s indexed %4d (decoded %4d of half)  corrupt %4d%n",
              m, indexed[m.ordinal()], decoded[m.ordinal()], corrupt[m.ordinal()]));
    }
    System.out.print(report);
    int totalCorrupt = Arrays.stream(corrupt).sum();
    assertThat(totalCorrupt).as("mutations must be detected").isGreaterThan(CASES / 4);
  }

  /**
   * Decodes every row group of a mutated footer that still indexed: true when all decode, false on
   * a {@link CorruptFileException}; any other exception fails the test (through the caller).
   */
  private static boolean decodesEveryRowGroup(FooterIndex index, byte[] bytes, String name)
      throws Exception {
    if (index.hasEncryption()) {
      return false; // such footers go to parquet-hadoop's full parse
    }
    int[] all = new int[index.rowGroupCount()];
    for (int g = 0; g < all.length; g++) {
      all[g] = g;
    }
    try {
      new SelectiveFooterDecoder(ByteBuffer.wrap(bytes), index, name).decode(all, null);
      return true;
    } catch (CorruptFileException e) {
      if (!e.getMessage().startsWith(name + ":")) {
        fail("decoding " + name + ": message does not name the file: " + e.getMessage());
      }
      return false;
    }
  }

  /** Plain checks rather than AssertJ: this runs thousands of times. */
  private static void assertSpansInside(FooterIndex index, int length) {
    boolean ok = index.footerLength() == length;
    for (int g = 0; g < index.rowGroupCount(); g++) {
      ok &=
          index.rowGroupStart(g) >= 0
              && index.rowGroupStart(g) <= index.rowGroupEnd(g)
              && index.rowGroupEnd(g) <= length
              && index.rowGroupRowCount(g) >= 0;
    }
    for (int id = 1; id <= FooterIndex.MAX_FIELD; id++) {
      ok &= index.fieldEnd(id) <= length && index.fieldStart(id) <= index.fieldEnd(id);
    }
    if (!ok) {
      fail("an index with spans outside its footer: " + index);
    }
  }

  private static byte[] mutate(Mutation mutation, Random random) {
    byte[] bytes = footer.clone();
    int at = random.nextInt(bytes.length);
    switch (mutation) {
      case FLIP_BIT:
        bytes[at] ^= (byte) (1 << random.nextInt(8));
        return bytes;
      case RANDOM_BYTE:
        bytes[at] = (byte) random.nextInt(256);
        if (random.nextBoolean()) {
          bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        return bytes;
      case TRUNCATE:
        return Arrays.copyOf(bytes, at);
      case INSERT_BYTES:
        {
          byte[] inserted = new byte[1 + random.nextInt(8)];
          random.nextBytes(inserted);
          return insert(bytes, at, inserted);
        }
      case HUGE_VARINT:
        {
          byte[] varint = new byte[5 + random.nextInt(8)];
          Arrays.fill(varint, (byte) 0xff);
          varint[varint.length - 1] = (byte) random.nextInt(128);
          return insert(bytes, at, varint);
        }
      case DUPLICATE_SPAN:
        {
          int length = Math.min(bytes.length - at, 1 + random.nextInt(64));
          return insert(
              bytes, random.nextInt(bytes.length), Arrays.copyOfRange(bytes, at, at + length));
        }
      default:
        throw new AssertionError(mutation);
    }
  }

  private static byte[] insert(byte[] bytes, int at, byte[] inserted) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + inserted.length);
    out.write(bytes, 0, at);
    out.write(inserted, 0, inserted.length);
    out.write(bytes, at, bytes.length - at);
    return out.toByteArray();
  }
}
