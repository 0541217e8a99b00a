package dev.prefetch.bench.trino.orc;

import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;

import dev.prefetch.bench.trino.TrinoBlocks;
import dev.prefetch.bench.trino.TrinoScan;
import dev.prefetch.bench.trino.TrinoSplits;
import dev.prefetch.testkit.scan.ValueSums;
import dev.prefetch.testkit.baseline.ValueSink;
import io.trino.orc.NameBasedFieldMapper;
import io.trino.orc.OrcColumn;
import io.trino.orc.OrcPredicate;
import io.trino.orc.OrcReader;
import io.trino.orc.OrcReaderOptions;
import io.trino.orc.OrcRecordReader;
import io.trino.orc.metadata.OrcType;
import io.trino.orc.metadata.StripeInformation;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.joda.time.DateTimeZone;

/**
 * One scan of an ORC file by Trino's ORC reader ({@code io.trino:trino-orc}), as Trino's Hive
 * connector drives it: an {@link OrcReader} over the file's tail, then each stripe read as a split
 * of its own by an {@link OrcRecordReader} (the byte range that holds the stripe's start; batches
 * grow from 1 row to 8,192 as the connector's do), every selected column decoded into Trino's
 * blocks, with the reader's default options and UTC as the legacy file time zone.
 *
 * <p>Loaded in a class loader of its own ({@code trino.IsolatedOrc}): Trino's ORC reader reads
 * ORC's protobuf messages with a relocated protobuf, orc-core with the plain one, and both name the
 * messages' class {@code org.apache.orc.OrcProto}.
 *
 * <p>The reader is single-threaded; with more threads the stripes are shared by {@link TrinoSplits}
 * as an engine shares a file's splits, each thread with a data source and an {@link OrcReader} of
 * its own (one tail read per thread). Column types are Trino's for the file's schema: BIGINT,
 * INTEGER, SMALLINT, TINYINT, DATE, DECIMAL, TIMESTAMP(9), REAL, DOUBLE, BOOLEAN, VARCHAR,
 * VARBINARY.
 */
public final class TrinoOrcScan implements TrinoScan {

  private final Path file;
  private final String storage;
  private final List<String> names;
  private final OrcReaderOptions options = new OrcReaderOptions();

  /** The file's top-level columns, once known; -1 before. */
  private int columnCount = -1;

  /**
   * @param columns the columns to read, every column when empty
   */
  public TrinoOrcScan(Path file, String storage, List<String> columns) {
    this.file = file;
    this.storage = storage;
    this.names = List.copyOf(columns);
  }

  /** One thread's reader of the file: its data source, the tail, the selected columns. */
  private final class FileReader implements AutoCloseable {
    final OrcFileSource source;
    final OrcReader reader;
    final List<OrcColumn> columns = new ArrayList<>();
    final List<Type> types = new ArrayList<>();

    FileReader() throws IOException {
      source = OrcFileSource.open(file, storage, options);
      try {
        reader =
            OrcReader.createOrcReader(source, options)
                .orElseThrow(() -> new IOException(file + ": an empty ORC file"));
        List<OrcColumn> all = reader.getRootColumn().getNestedColumns();
        if (names.isEmpty()) {
          columns.addAll(all);
        } else {
          for (String name : names) {
            columns.add(
                all.stream()
                    .filter(c -> c.getColumnName().equals(name))
                    .findFirst()
                    .orElseThrow(
                        () -> new IllegalArgumentException(file + ": no column '" + name + "'")));
          }
        }
        for (OrcColumn column : columns) {
          types.add(trinoType(column.getColumnType()));
        }
      } catch (IOException | RuntimeException e) {
        source.closeFile();
        throw e;
      }
    }

    List<StripeInformation> stripes() {
      return reader.getFooter().getStripes();
    }

    /** A record reader of the stripe that starts at {@code stripe}'s offset. */
    OrcRecordReader split(StripeInformation stripe) throws IOException {
      return reader.createRecordReader(
          columns,
          types,
          Collections.nCopies(columns.size(), OrcReader.fullyProjectedLayout()),
          false,
          OrcPredicate.TRUE,
          stripe.getOffset(),
          1,
          DateTimeZone.UTC,
          newSimpleAggregatedMemoryContext(),
          OrcReader.INITIAL_BATCH_SIZE,
          e ->
              e instanceof RuntimeException r
                  ? r
                  : new UncheckedIOException(file + ": " + e, asIo(e)),
          NameBasedFieldMapper::create);
    }

    @Override
    public void close() throws IOException {
      source.closeFile();
    }
  }

  private static IOException asIo(Exception e) {
    return e instanceof IOException io ? io : new IOException(e);
  }

  /** Trino's type for a flat ORC column, as the Hive connector maps it. */
  static Type trinoType(OrcType type) {
    return switch (type.getOrcTypeKind()) {
      case LONG -> BigintType.BIGINT;
      case INT -> IntegerType.INTEGER;
      case SHORT -> SmallintType.SMALLINT;
      case BYTE -> TinyintType.TINYINT;
      case DATE -> DateType.DATE;
      case DECIMAL ->
          DecimalType.createDecimalType(
              type.getPrecision().orElseThrow(), type.getScale().orElseThrow());
      case TIMESTAMP -> TimestampType.TIMESTAMP_NANOS;
      case FLOAT -> RealType.REAL;
      case DOUBLE -> DoubleType.DOUBLE;
      case BOOLEAN -> BooleanType.BOOLEAN;
      case STRING, VARCHAR -> VarcharType.VARCHAR;
      case BINARY -> VarbinaryType.VARBINARY;
      default ->
          throw new IllegalArgumentException(
              "ORC column of type " + type + " is not part of the benchmark tables");
    };
  }

  @Override
  public ValueSums sums(TrinoSplits splits) throws IOException {
    int columns = names.isEmpty() ? columnCount() : names.size();
    return splits.run(
        columns,
        (next, sums) -> {
          try (FileReader reader = new FileReader()) {
            TrinoBlocks.Scratch scratch = new TrinoBlocks.Scratch(columns);
            List<StripeInformation> stripes = reader.stripes();
            for (int s; (s = next.getAndIncrement()) < stripes.size(); ) {
              try (OrcRecordReader rows = reader.split(stripes.get(s))) {
                for (SourcePage page; (page = rows.nextPage()) != null; ) {
                  for (int c = 0; c < columns; c++) {
                    TrinoBlocks.addSums(page.getBlock(c), reader.types.get(c), c, sums, scratch);
                  }
                  sums.addRows(page.getPositionCount());
                }
              }
            }
          }
        });
  }

  /** The file's top-level columns (when every column is read): from its schema, read once. */
  private int columnCount() throws IOException {
    if (columnCount < 0) {
      try (FileReader reader = new FileReader()) {
        columnCount = reader.columns.size();
      }
    }
    return columnCount;
  }

  @Override
  public long feed(ValueSink sink) throws IOException {
    long rows = 0;
    try (FileReader reader = new FileReader()) {
      for (StripeInformation stripe : reader.stripes()) {
        try (OrcRecordReader records = reader.split(stripe)) {
          for (SourcePage page; (page = records.nextPage()) != null; ) {
            for (int c = 0; c < reader.columns.size(); c++) {
              TrinoBlocks.feed(page.getBlock(c), reader.types.get(c), c, sink);
            }
            rows += page.getPositionCount();
          }
        }
      }
    }
    return rows;
  }
}
