package dev.prefetch.bench.trino;

import static io.trino.memory.context.AggregatedMemoryContext.newSimpleAggregatedMemoryContext;

import dev.prefetch.testkit.scan.ValueSums;
import dev.prefetch.testkit.baseline.ValueSink;
import io.trino.parquet.Column;
import io.trino.parquet.Field;
import io.trino.parquet.ParquetDataSource;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.ParquetTypeUtils;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.predicate.PredicateUtils;
import io.trino.parquet.predicate.TupleDomainParquetPredicate;
import io.trino.parquet.reader.MetadataReader;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.joda.time.DateTimeZone;

/**
 * One scan of a Parquet file by Trino's Parquet reader ({@code io.trino:trino-parquet}), as Trino's
 * Hive connector drives it: the footer read and its row groups planned once per scan ({@link
 * MetadataReader}, {@link PredicateUtils#getFilteredRowGroups} with no predicate), then each row
 * group read as a split of its own by a {@link ParquetReader} over a data source of its own, every
 * selected column decoded into Trino's blocks with the reader's default options (vectorized
 * decoding on where the CPU has it, 8 MiB reads, ranges within 1 MiB joined).
 *
 * <p>The reader is single-threaded; with more threads the row groups are shared by {@link
 * TrinoSplits} as an engine shares a file's splits. Column types are Trino's for the file's schema:
 * BIGINT, INTEGER, DATE, DECIMAL, TIMESTAMP(6), REAL, DOUBLE, BOOLEAN, VARCHAR, VARBINARY.
 */
final class TrinoParquetScan implements TrinoScan {

  private final Path file;
  private final String storage;
  private final List<String> names;
  private final ParquetReaderOptions options = ParquetReaderOptions.defaultOptions();

  /**
   * @param columns the columns to read, every column when empty
   */
  TrinoParquetScan(Path file, String storage, List<String> columns) {
    this.file = file;
    this.storage = storage;
    this.names = List.copyOf(columns);
  }

  /** What every split reader of one scan shares: the parsed footer and the planned row groups. */
  private record Plan(
      Optional<String> createdBy,
      List<Column> columns,
      List<Type> types,
      List<RowGroupInfo> rowGroups) {}

  private Plan plan() throws IOException {
    try (ParquetDataSource source = TrinoStorage.parquet(file, storage, options)) {
      ParquetMetadata metadata = MetadataReader.readFooter(source, Optional.empty());
      MessageType schema = metadata.getFileMetaData().getSchema();
      MessageColumnIO io = ParquetTypeUtils.getColumnIO(schema, schema);
      List<String> selected = new ArrayList<>(names);
      if (selected.isEmpty()) {
        schema.getFields().forEach(f -> selected.add(f.getName()));
      }
      List<Column> columns = new ArrayList<>();
      List<Type> types = new ArrayList<>();
      for (String name : selected) {
        if (!schema.containsField(name) || !schema.getType(name).isPrimitive()) {
          throw new IllegalArgumentException(file + ": no flat column '" + name + "'");
        }
        Type type = trinoType(schema.getType(name).asPrimitiveType());
        Field field =
            ParquetTypeUtils.constructField(type, ParquetTypeUtils.lookupColumnByName(io, name))
                .orElseThrow();
        columns.add(new Column(name, field));
        types.add(type);
      }
      Map<List<String>, ColumnDescriptor> descriptors =
          ParquetTypeUtils.getDescriptors(schema, schema);
      TupleDomain<ColumnDescriptor> all = TupleDomain.all();
      TupleDomainParquetPredicate predicate =
          PredicateUtils.buildPredicate(schema, all, descriptors, DateTimeZone.UTC);
      List<RowGroupInfo> rowGroups =
          PredicateUtils.getFilteredRowGroups(
              0,
              source.getEstimatedSize(),
              source,
              metadata,
              List.of(all),
              List.of(predicate),
              descriptors,
              DateTimeZone.UTC,
              1000,
              options);
      return new Plan(
          Optional.ofNullable(metadata.getFileMetaData().getCreatedBy()),
          columns,
          types,
          rowGroups);
    }
  }

  /** Trino's type for a flat Parquet column, as the Hive connector maps it. */
  static Type trinoType(PrimitiveType type) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
      return DecimalType.createDecimalType(d.getPrecision(), d.getScale());
    }
    return switch (type.getPrimitiveTypeName()) {
      case INT64 ->
          logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation
              ? TimestampType.TIMESTAMP_MICROS
              : BigintType.BIGINT;
      case INT32 ->
          logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
              ? DateType.DATE
              : IntegerType.INTEGER;
      case DOUBLE -> DoubleType.DOUBLE;
      case FLOAT -> RealType.REAL;
      case BOOLEAN -> BooleanType.BOOLEAN;
      case BINARY ->
          logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
              ? VarcharType.VARCHAR
              : VarbinaryType.VARBINARY;
      default ->
          throw new IllegalArgumentException(
              "Parquet column " + type + " is not part of the benchmark tables");
    };
  }

  private ParquetReader reader(Plan plan, RowGroupInfo rowGroup) throws IOException {
    return new ParquetReader(
        plan.createdBy(),
        plan.columns(),
        false,
        List.of(rowGroup),
        TrinoStorage.parquet(file, storage, options), // closed with the reader
        DateTimeZone.UTC,
        newSimpleAggregatedMemoryContext(),
        options,
        e ->
            e instanceof RuntimeException r
                ? r
                : new UncheckedIOException(file + ": " + e, asIo(e)),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  private static IOException asIo(Exception e) {
    return e instanceof IOException io ? io : new IOException(e);
  }

  @Override
  public ValueSums sums(TrinoSplits splits) throws IOException {
    Plan plan = plan();
    int columns = plan.columns().size();
    return splits.run(
        columns,
        (next, sums) -> {
          TrinoBlocks.Scratch scratch = new TrinoBlocks.Scratch(columns);
          for (int g; (g = next.getAndIncrement()) < plan.rowGroups().size(); ) {
            try (ParquetReader reader = reader(plan, plan.rowGroups().get(g))) {
              for (SourcePage page; (page = reader.nextPage()) != null; ) {
                for (int c = 0; c < columns; c++) {
                  TrinoBlocks.addSums(page.getBlock(c), plan.types().get(c), c, sums, scratch);
                }
                sums.addRows(page.getPositionCount());
              }
            }
          }
        });
  }

  @Override
  public long feed(ValueSink sink) throws IOException {
    Plan plan = plan();
    long rows = 0;
    for (RowGroupInfo rowGroup : plan.rowGroups()) {
      try (ParquetReader reader = reader(plan, rowGroup)) {
        for (SourcePage page; (page = reader.nextPage()) != null; ) {
          for (int c = 0; c < plan.columns().size(); c++) {
            TrinoBlocks.feed(page.getBlock(c), plan.types().get(c), c, sink);
          }
          rows += page.getPositionCount();
        }
      }
    }
    return rows;
  }
}
