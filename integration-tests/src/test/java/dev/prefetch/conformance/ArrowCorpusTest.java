package dev.prefetch.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.BatchReader;
import dev.prefetch.ReadContext;
import dev.prefetch.Readers;
import dev.prefetch.arrow.ArrowBatches;
import dev.prefetch.arrow.ArrowMapping;
import dev.prefetch.arrow.BatchConverter;
import dev.prefetch.arrow.TypeWalk;
import dev.prefetch.arrow.ValueWalk;
import dev.prefetch.batch.RecordBatch;
import java.util.HashSet;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file of the conformance corpus through the Arrow mapping: each batch of our read, converted
 * into a new root ({@link ArrowBatches#toArrow}) and into the reusable root of one converter per
 * file, holds every value of every column (nulls, nested lists, maps and structs, unions, decimals,
 * unsigned integers, half floats, timestamps) as Arrow's own getters read it, with the Arrow types
 * of the table in docs/arrow.md; after the file, the allocator holds nothing.
 *
 * <p>This module runs on the Arrow Java libraries of arrow-dataset's release (18.3.0, pinned in the
 * pom for the JNI reference reader), while prefetch-arrow is compiled against 19.0.0. The converter
 * uses only API that both releases share (vector creation, {@code loadFieldBuffers}, {@code
 * ArrowBuf} copies, {@code Float16}), so the same classes run here unchanged; this test is what
 * shows it, and it fails with a linkage error the day they stop to.
 */
@Timeout(300)
class ArrowCorpusTest extends CorpusFilesTest {

  private static ArrowMapping mapping(BatchReader reader, CorpusFile file) throws Exception {
    return ArrowMapping.of(reader.schema());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void everyValueOfEveryFileArrivesInArrow(CorpusFile file) throws Exception {
    long rows = 0;
    long values = 0;
    try (BufferAllocator allocator = new RootAllocator();
        ReadContext context = ReadContext.defaults();
        BatchReader reader = Readers.open(file.path(), smallBatches(), context)) {
      ArrowMapping mapping = mapping(reader, file);
      TypeWalk.assertMapped(reader.schema(), mapping.arrowSchema());
      try (BatchConverter reused = ArrowBatches.converter(mapping, allocator)) {
        for (RecordBatch batch; (batch = reader.next()) != null; ) {
          try (VectorSchemaRoot fresh = ArrowBatches.toArrow(batch, mapping, allocator)) {
            values += ValueWalk.assertSameValues(batch, fresh, mapping);
          }
          ValueWalk.assertSameValues(batch, reused.convert(batch), mapping);
          rows += batch.rowCount();
          batch.release();
        }
      }
      assertThat(allocator.getAllocatedMemory()).as("%s: Arrow memory after close", file).isZero();
    }
    assertThat(rows).as("%s rows", file).isPositive();
    assertThat(values).as("%s values", file).isPositive();
  }

  /**
   * The corpus reaches the Arrow types the mapping makes, so the walk above covers them. Two are
   * absent (no corpus writer emits them): 32-bit times (TIME(MILLIS)) and 256-bit decimals (more
   * than 38 digits); prefetch-arrow's own all-types files walk those.
   */
  @Test
  void theCorpusMapsToEveryArrowType() throws Exception {
    Set<String> seen = new HashSet<>();
    for (CorpusFile file : corpus) {
      try (ReadContext context = ReadContext.defaults();
          BatchReader reader = Readers.open(file.path(), smallBatches(), context)) {
        for (Field field : mapping(reader, file).arrowSchema().getFields()) {
          collect(field, seen);
        }
      }
    }
    assertThat(seen)
        .contains(
            "Bool",
            "Int8",
            "Int16",
            "Int32",
            "Int64",
            "UInt8",
            "UInt16",
            "UInt32",
            "UInt64",
            "HALF",
            "SINGLE",
            "DOUBLE",
            "Decimal128",
            "Date",
            "Time64",
            "Timestamp(MILLISECOND, null)",
            "Timestamp(MICROSECOND, UTC)",
            "Timestamp(NANOSECOND, UTC)",
            "Timestamp(NANOSECOND, null)",
            "Utf8",
            "Binary",
            "FixedSizeBinary",
            "List",
            "Map",
            "Struct",
            "Union(Dense)");
  }

  private static void collect(Field field, Set<String> seen) {
    ArrowType t = field.getType();
    if (t instanceof ArrowType.Int i) {
      seen.add((i.getIsSigned() ? "Int" : "UInt") + i.getBitWidth());
    } else if (t instanceof ArrowType.FloatingPoint f) {
      seen.add(f.getPrecision().name());
    } else if (t instanceof ArrowType.Decimal d) {
      seen.add("Decimal" + d.getBitWidth());
    } else if (t instanceof ArrowType.Time time) {
      seen.add("Time" + time.getBitWidth());
    } else if (t instanceof ArrowType.Timestamp ts) {
      seen.add("Timestamp(" + ts.getUnit() + ", " + ts.getTimezone() + ")");
    } else if (t instanceof ArrowType.Union u) {
      seen.add("Union(" + u.getMode() + ")");
    } else {
      seen.add(t.getTypeID().name());
    }
    for (Field child : field.getChildren()) {
      collect(child, seen);
    }
  }
}
