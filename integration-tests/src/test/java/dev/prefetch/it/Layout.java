package dev.prefetch.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;

/**
 * Where the parts of a test file lie, read with the format library: the data of each row group or
 * stripe, the footer or tail, the page indexes. Fault and corruption tests aim at these regions.
 *
 * @param length file length in bytes
 * @param blocks byte span of each row group (column chunks) or stripe, in file order
 * @param tail the footer (Parquet: metadata, its length and the magic) or ORC file tail
 * @param columnIndexes spans of Parquet ColumnIndex structures (empty for ORC)
 * @param offsetIndexes spans of Parquet OffsetIndex structures (empty for ORC)
 * @param dictionaryPages spans of Parquet dictionary pages (empty for ORC)
 * @param dataPages Parquet: spans of column chunks' data pages; ORC: stripes' data sections
 * @param indexes ORC: stripes' index sections (row index, bloom filters); empty for Parquet
 * @param stripeFooters ORC: stripe footers (stream lengths and encodings); empty for Parquet
 */
public record Layout(
    long length,
    List<Span> blocks,
    Span tail,
    List<Span> columnIndexes,
    List<Span> offsetIndexes,
    List<Span> dictionaryPages,
    List<Span> dataPages,
    List<Span> indexes,
    List<Span> stripeFooters) {

  /** Bytes {@code [from, to)} of a file. */
  public record Span(long from, long to) {
    public long length() {
      return to - from;
    }

    public long middle() {
      return from + (to - from) / 2;
    }
  }

  /** The layout of a Parquet file. */
  public static Layout parquet(Path file) throws IOException {
    Configuration conf = new Configuration();
    HadoopInputFile input =
        HadoopInputFile.fromPath(
            new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()), conf);
    List<Span> blocks = new ArrayList<>();
    List<Span> columnIndexes = new ArrayList<>();
    List<Span> offsetIndexes = new ArrayList<>();
    List<Span> dictionaries = new ArrayList<>();
    List<Span> data = new ArrayList<>();
    long footerStart;
    try (ParquetFileReader reader = ParquetFileReader.open(input)) {
      ParquetMetadata footer = reader.getFooter();
      for (BlockMetaData block : footer.getBlocks()) {
        long from = Long.MAX_VALUE;
        long to = 0;
        for (ColumnChunkMetaData column : block.getColumns()) {
          long start = column.getStartingPos();
          long end = start + column.getTotalSize();
          from = Math.min(from, start);
          to = Math.max(to, end);
          long dictionary = column.getDictionaryPageOffset();
          long firstData = column.getFirstDataPageOffset();
          if (dictionary > 0 && dictionary < firstData) {
            dictionaries.add(new Span(dictionary, firstData));
          }
          data.add(new Span(firstData, end));
          add(columnIndexes, column.getColumnIndexReference());
          add(offsetIndexes, column.getOffsetIndexReference());
        }
        blocks.add(new Span(from, to));
      }
      footerStart = input.getLength() - 8 - readFooterLength(file);
    }
    return new Layout(
        input.getLength(),
        blocks,
        new Span(footerStart, input.getLength()),
        columnIndexes,
        offsetIndexes,
        dictionaries,
        data,
        List.of(),
        List.of());
  }

  private static void add(List<Span> spans, IndexReference reference) {
    if (reference != null) {
      spans.add(new Span(reference.getOffset(), reference.getOffset() + reference.getLength()));
    }
  }

  private static long readFooterLength(Path file) throws IOException {
    byte[] bytes = java.nio.file.Files.readAllBytes(file);
    int at = bytes.length - 8;
    return (bytes[at] & 0xffL)
        | (bytes[at + 1] & 0xffL) << 8
        | (bytes[at + 2] & 0xffL) << 16
        | (bytes[at + 3] & 0xffL) << 24;
  }

  /** The layout of an ORC file. */
  public static Layout orc(Path file) throws IOException {
    Configuration conf = new Configuration();
    List<Span> blocks = new ArrayList<>();
    List<Span> indexes = new ArrayList<>();
    List<Span> data = new ArrayList<>();
    List<Span> footers = new ArrayList<>();
    long length = java.nio.file.Files.size(file);
    long tailStart = 0;
    try (Reader reader =
        OrcFile.createReader(
            new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()),
            OrcFile.readerOptions(conf))) {
      for (StripeInformation stripe : reader.getStripes()) {
        long offset = stripe.getOffset();
        long indexEnd = offset + stripe.getIndexLength();
        long dataEnd = indexEnd + stripe.getDataLength();
        long end = dataEnd + stripe.getFooterLength();
        blocks.add(new Span(offset, end));
        indexes.add(new Span(offset, indexEnd));
        data.add(new Span(indexEnd, dataEnd));
        footers.add(new Span(dataEnd, end));
        tailStart = Math.max(tailStart, end);
      }
    }
    return new Layout(
        length,
        blocks,
        new Span(tailStart, length),
        List.of(),
        List.of(),
        List.of(),
        data,
        indexes,
        footers);
  }

  /** The middle row group or stripe. */
  public Span middleBlock() {
    return blocks.get(blocks.size() / 2);
  }

  /** The last row group or stripe. */
  public Span lastBlock() {
    return blocks.get(blocks.size() - 1);
  }
}
