package dev.prefetch.it.fuzz;

import dev.prefetch.orc.testing.OrcSurgery;
import dev.prefetch.parquet.testing.ParquetSurgery;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.apache.orc.OrcProto;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;

/**
 * Structure-aware corruptions: one field of a decoded Parquet page header or footer, or of an ORC
 * postscript, footer or stripe footer, set to a value chosen to break a size or count (0, -1, the
 * int limits, 2^31, 2^32, 2^50, the original off by one, doubled, halved, or random), and the file
 * written back around its unchanged data ({@link ParquetSurgery}, {@link OrcSurgery}). Each result
 * parses, so the reader gets past the parser to the checks that sizes fit the file.
 */
final class StructureMutations {

  private StructureMutations() {}

  /** A mutated file and what was done to it. */
  record Mutated(byte[] bytes, String description) {}

  /** A value meant to break a size or count that was {@code original}. */
  static long interesting(Random random, long original) {
    switch (random.nextInt(14)) {
      case 0:
        return 0;
      case 1:
        return -1;
      case 2:
        return 1;
      case 3:
        return Integer.MAX_VALUE;
      case 4:
        return Integer.MAX_VALUE - 8;
      case 5:
        return 1L << 31;
      case 6:
        return 1L << 32;
      case 7:
        return 1L << 50;
      case 8:
        return Long.MAX_VALUE;
      case 9:
        return original + 1;
      case 10:
        return original - 1;
      case 11:
        return original * 2;
      case 12:
        return original / 2;
      default:
        return random.nextInt(1 << 20);
    }
  }

  private static int interestingInt(Random random, long original) {
    return (int) interesting(random, original);
  }

  /** One Parquet field mutated: a page header (half the time) or the footer. */
  static Mutated parquet(ParquetSurgery file, Random random) throws IOException {
    if (random.nextBoolean() && file.rowGroups() > 0 && file.columns() > 0) {
      int group = random.nextInt(file.rowGroups());
      int column = random.nextInt(file.columns());
      List<ParquetSurgery.Page> pages = file.pages(group, column);
      int page = random.nextInt(pages.size());
      int field = random.nextInt(9);
      String[] what = new String[1];
      byte[] bytes =
          file.rewrite(
              (g, c, p, header) -> {
                if (g == group && c == column && p == page) {
                  what[0] = mutatePageHeader(header, field, random);
                }
              },
              null);
      return new Mutated(
          bytes, "page header rg " + group + " col " + column + " page " + page + ": " + what[0]);
    }
    String[] what = new String[1];
    byte[] bytes = file.rewrite(null, footer -> what[0] = mutateFooter(footer, random));
    return new Mutated(bytes, "footer: " + what[0]);
  }

  private static String mutatePageHeader(PageHeader header, int field, Random random) {
    switch (field) {
      case 0:
        {
          int value = interestingInt(random, header.getCompressed_page_size());
          header.setCompressed_page_size(value);
          return "compressed_page_size=" + value;
        }
      case 1:
        {
          int value = interestingInt(random, header.getUncompressed_page_size());
          header.setUncompressed_page_size(value);
          return "uncompressed_page_size=" + value;
        }
      case 2:
        if (header.isSetData_page_header()) {
          DataPageHeader v1 = header.getData_page_header();
          int value = interestingInt(random, v1.getNum_values());
          v1.setNum_values(value);
          return "v1 num_values=" + value;
        }
        if (header.isSetDictionary_page_header()) {
          int value = interestingInt(random, header.getDictionary_page_header().getNum_values());
          header.getDictionary_page_header().setNum_values(value);
          return "dictionary num_values=" + value;
        }
        return mutateV2(header, random);
      case 3:
        if (header.isSetCrc()) {
          header.setCrc(random.nextInt());
          return "crc";
        }
        return mutateV2(header, random);
      default:
        return mutateV2(header, random);
    }
  }

  private static String mutateV2(PageHeader header, Random random) {
    if (!header.isSetData_page_header_v2()) {
      int value = interestingInt(random, header.getCompressed_page_size());
      header.setCompressed_page_size(value);
      return "compressed_page_size=" + value;
    }
    DataPageHeaderV2 v2 = header.getData_page_header_v2();
    switch (random.nextInt(5)) {
      case 0:
        {
          int value = interestingInt(random, v2.getNum_values());
          v2.setNum_values(value);
          return "v2 num_values=" + value;
        }
      case 1:
        {
          int value = interestingInt(random, v2.getNum_nulls());
          v2.setNum_nulls(value);
          return "v2 num_nulls=" + value;
        }
      case 2:
        {
          int value = interestingInt(random, v2.getNum_rows());
          v2.setNum_rows(value);
          return "v2 num_rows=" + value;
        }
      case 3:
        {
          int value = interestingInt(random, v2.getDefinition_levels_byte_length());
          v2.setDefinition_levels_byte_length(value);
          return "v2 definition_levels_byte_length=" + value;
        }
      default:
        {
          int value = interestingInt(random, v2.getRepetition_levels_byte_length());
          v2.setRepetition_levels_byte_length(value);
          return "v2 repetition_levels_byte_length=" + value;
        }
    }
  }

  private static String mutateFooter(FileMetaData footer, Random random) {
    int field = random.nextInt(14);
    if (field == 0) {
      long value = interesting(random, footer.getNum_rows());
      footer.setNum_rows(value);
      return "num_rows=" + value;
    }
    if (field == 1) {
      SchemaElement element = footer.getSchema().get(random.nextInt(footer.getSchema().size()));
      if (element.isSetNum_children()) {
        int value = interestingInt(random, element.getNum_children());
        element.setNum_children(value);
        return "schema " + element.getName() + " num_children=" + value;
      }
      int value = interestingInt(random, element.getType_length());
      element.setType_length(value);
      return "schema " + element.getName() + " type_length=" + value;
    }
    if (footer.getRow_groups().isEmpty()) {
      footer.setNum_rows(interesting(random, footer.getNum_rows()));
      return "num_rows";
    }
    int g = random.nextInt(footer.getRow_groups().size());
    RowGroup group = footer.getRow_groups().get(g);
    if (field == 2) {
      long value = interesting(random, group.getNum_rows());
      group.setNum_rows(value);
      return "rg " + g + " num_rows=" + value;
    }
    int c = random.nextInt(group.getColumns().size());
    ColumnChunk chunk = group.getColumns().get(c);
    ColumnMetaData meta = chunk.getMeta_data();
    String where = "rg " + g + " col " + c + " ";
    switch (field) {
      case 3:
        {
          long value = interesting(random, meta.getNum_values());
          meta.setNum_values(value);
          return where + "num_values=" + value;
        }
      case 4:
        {
          long value = interesting(random, meta.getTotal_compressed_size());
          meta.setTotal_compressed_size(value);
          return where + "total_compressed_size=" + value;
        }
      case 5:
        {
          long value = interesting(random, meta.getTotal_uncompressed_size());
          meta.setTotal_uncompressed_size(value);
          return where + "total_uncompressed_size=" + value;
        }
      case 6:
        {
          long value = interesting(random, meta.getData_page_offset());
          meta.setData_page_offset(value);
          return where + "data_page_offset=" + value;
        }
      case 7:
        {
          long value = interesting(random, meta.getDictionary_page_offset());
          meta.setDictionary_page_offset(value);
          return where + "dictionary_page_offset=" + value;
        }
      case 8:
        {
          CompressionCodec[] codecs = CompressionCodec.values();
          CompressionCodec codec = codecs[random.nextInt(codecs.length)];
          meta.setCodec(codec);
          return where + "codec=" + codec;
        }
      case 9:
        if (chunk.isSetOffset_index_offset()) {
          long value = interesting(random, chunk.getOffset_index_offset());
          chunk.setOffset_index_offset(value);
          return where + "offset_index_offset=" + value;
        }
        return where + "(no offset index)";
      case 10:
        if (chunk.isSetOffset_index_length()) {
          int value = interestingInt(random, chunk.getOffset_index_length());
          chunk.setOffset_index_length(value);
          return where + "offset_index_length=" + value;
        }
        return where + "(no offset index)";
      case 11:
        if (chunk.isSetColumn_index_length()) {
          int value = interestingInt(random, chunk.getColumn_index_length());
          chunk.setColumn_index_length(value);
          return where + "column_index_length=" + value;
        }
        return where + "(no column index)";
      default:
        {
          long value = interesting(random, group.getTotal_byte_size());
          group.setTotal_byte_size(value);
          return "rg " + g + " total_byte_size=" + value;
        }
    }
  }

  /** One ORC field mutated: the postscript, the footer or a stripe footer. */
  static Mutated orc(OrcSurgery file, Random random) throws IOException {
    int part = random.nextInt(10);
    if (part == 0) {
      String[] what = new String[1];
      byte[] bytes =
          file.rewrite(
              null,
              null,
              ps -> {
                switch (random.nextInt(3)) {
                  case 0 -> {
                    long value = interesting(random, ps.getFooterLength());
                    ps.setFooterLength(value);
                    what[0] = "footerLength=" + value;
                  }
                  case 1 -> {
                    long value = interesting(random, ps.getMetadataLength());
                    ps.setMetadataLength(value);
                    what[0] = "metadataLength=" + value;
                  }
                  default -> {
                    long value = interesting(random, ps.getCompressionBlockSize());
                    ps.setCompressionBlockSize(value);
                    what[0] = "compressionBlockSize=" + value;
                  }
                }
              });
      return new Mutated(bytes, "postscript: " + what[0]);
    }
    int stripes = file.footer().getStripesCount();
    if (part < 5 || stripes == 0) {
      String[] what = new String[1];
      byte[] bytes = file.rewrite(null, footer -> what[0] = mutateOrcFooter(footer, random), null);
      return new Mutated(bytes, "footer: " + what[0]);
    }
    int stripe = random.nextInt(stripes);
    String[] what = new String[1];
    byte[] bytes =
        file.rewrite(
            (s, footer) -> {
              if (s == stripe) {
                what[0] = mutateStripeFooter(footer, random);
              }
            },
            null,
            null);
    return new Mutated(bytes, "stripe " + stripe + " footer: " + what[0]);
  }

  private static String mutateOrcFooter(OrcProto.Footer.Builder footer, Random random) {
    int field = random.nextInt(5);
    if (field == 0 || footer.getStripesCount() == 0) {
      long value = interesting(random, footer.getNumberOfRows());
      footer.setNumberOfRows(value);
      return "numberOfRows=" + value;
    }
    if (field == 1) {
      int value = interestingInt(random, footer.getRowIndexStride());
      footer.setRowIndexStride(value);
      return "rowIndexStride=" + value;
    }
    if (field == 2) {
      long value = interesting(random, footer.getContentLength());
      footer.setContentLength(value);
      return "contentLength=" + value;
    }
    int s = random.nextInt(footer.getStripesCount());
    OrcProto.StripeInformation.Builder stripe = footer.getStripes(s).toBuilder();
    String what;
    switch (random.nextInt(5)) {
      case 0 -> {
        long value = interesting(random, stripe.getNumberOfRows());
        stripe.setNumberOfRows(value);
        if (field == 4) {
          footer.setNumberOfRows(
              footer.getNumberOfRows()
                  - footer.getStripes(s).getNumberOfRows()
                  + value); // consistent with the file's count, so only the stripe checks see it
        }
        what = "numberOfRows=" + value + (field == 4 ? " (and the file's)" : "");
      }
      case 1 -> {
        long value = interesting(random, stripe.getOffset());
        stripe.setOffset(value);
        what = "offset=" + value;
      }
      case 2 -> {
        long value = interesting(random, stripe.getIndexLength());
        stripe.setIndexLength(value);
        what = "indexLength=" + value;
      }
      case 3 -> {
        long value = interesting(random, stripe.getDataLength());
        stripe.setDataLength(value);
        what = "dataLength=" + value;
      }
      default -> {
        long value = interesting(random, stripe.getFooterLength());
        stripe.setFooterLength(value);
        what = "footerLength=" + value;
      }
    }
    footer.setStripes(s, stripe);
    return "stripe " + s + " " + what;
  }

  private static String mutateStripeFooter(OrcProto.StripeFooter.Builder footer, Random random) {
    if (random.nextBoolean() && footer.getStreamsCount() > 0) {
      int i = random.nextInt(footer.getStreamsCount());
      OrcProto.Stream.Builder stream = footer.getStreams(i).toBuilder();
      String what;
      switch (random.nextInt(3)) {
        case 0 -> {
          long value = interesting(random, stream.getLength());
          stream.setLength(value);
          what = "length=" + value;
        }
        case 1 -> {
          int value = interestingInt(random, stream.getColumn());
          stream.setColumn(value);
          what = "column=" + value;
        }
        default -> {
          OrcProto.Stream.Kind[] kinds = OrcProto.Stream.Kind.values();
          OrcProto.Stream.Kind kind = kinds[random.nextInt(kinds.length)];
          stream.setKind(kind);
          what = "kind=" + kind;
        }
      }
      footer.setStreams(i, stream);
      return "stream "
          + i
          + " ("
          + footer.getStreams(i).getKind()
          + " of column "
          + footer.getStreams(i).getColumn()
          + ") "
          + what;
    }
    if (footer.getColumnsCount() == 0) {
      return "(no columns)";
    }
    int c = random.nextInt(footer.getColumnsCount());
    OrcProto.ColumnEncoding.Builder encoding = footer.getColumns(c).toBuilder();
    String what;
    if (random.nextBoolean()) {
      int value = interestingInt(random, encoding.getDictionarySize());
      encoding.setDictionarySize(value);
      what = "dictionarySize=" + value;
    } else {
      OrcProto.ColumnEncoding.Kind[] kinds = OrcProto.ColumnEncoding.Kind.values();
      OrcProto.ColumnEncoding.Kind kind = kinds[random.nextInt(kinds.length)];
      encoding.setKind(kind);
      what = "kind=" + kind;
    }
    footer.setColumns(c, encoding);
    return "column " + c + " encoding " + what;
  }
}
