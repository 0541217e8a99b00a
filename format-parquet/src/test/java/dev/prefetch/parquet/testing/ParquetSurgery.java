package dev.prefetch.parquet.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * Edits the decoded Thrift structures of a valid Parquet file (its {@code FileMetaData} footer and
 * its page headers) and writes the file back: the way tests and the fuzzer make files whose
 * structure parses but states sizes and counts that are wrong.
 *
 * <p>A footer edit keeps every byte before the footer. A page header edit rewrites every column
 * chunk with its pages' headers re-encoded and recomputes each chunk's offsets and sizes in the
 * footer before the footer edit runs (so a footer edit of those fields stands as written); page
 * indexes are dropped then, since their page offsets would no longer hold.
 */
public final class ParquetSurgery {

  /** One page of a column chunk: where its header starts, the header, its body's length. */
  public record Page(long offset, PageHeader header, int headerLength) {}

  /** An edit of one page's header. */
  public interface PageEdit {
    /** Edits {@code header} of page {@code page} of column {@code column} of {@code rowGroup}. */
    void edit(int rowGroup, int column, int page, PageHeader header);
  }

  private final byte[] file;
  private final FileMetaData footer;
  private final long footerStart;

  /** Pages of each row group's column chunks. */
  private final List<List<List<Page>>> pages = new ArrayList<>();

  /** Decodes the footer and every page header of {@code file}, a valid Parquet file. */
  public ParquetSurgery(byte[] file) throws IOException {
    this.file = file;
    int length = file.length;
    int footerLength =
        (file[length - 8] & 0xFF)
            | (file[length - 7] & 0xFF) << 8
            | (file[length - 6] & 0xFF) << 16
            | (file[length - 5] & 0xFF) << 24;
    this.footerStart = length - 8L - footerLength;
    this.footer =
        Util.readFileMetaData(new ByteArrayInputStream(file, (int) footerStart, footerLength));
    for (RowGroup group : footer.getRow_groups()) {
      List<List<Page>> columns = new ArrayList<>();
      for (ColumnChunk chunk : group.getColumns()) {
        columns.add(pagesOf(chunk.getMeta_data()));
      }
      pages.add(columns);
    }
  }

  private List<Page> pagesOf(ColumnMetaData meta) throws IOException {
    List<Page> list = new ArrayList<>();
    long at = start(meta);
    long end = at + meta.getTotal_compressed_size();
    while (at < end) {
      ByteArrayInputStream in = new ByteArrayInputStream(file, (int) at, (int) (end - at));
      int before = in.available();
      PageHeader header = Util.readPageHeader(in);
      int headerLength = before - in.available();
      list.add(new Page(at, header, headerLength));
      at += headerLength + header.getCompressed_page_size();
    }
    return list;
  }

  private static long start(ColumnMetaData meta) {
    return meta.isSetDictionary_page_offset() && meta.getDictionary_page_offset() > 0
        ? Math.min(meta.getDictionary_page_offset(), meta.getData_page_offset())
        : meta.getData_page_offset();
  }

  /** The decoded footer (a copy: edits go through {@link #rewrite}). */
  public FileMetaData footer() {
    return footer.deepCopy();
  }

  /** The pages of column {@code column} of row group {@code rowGroup}. */
  public List<Page> pages(int rowGroup, int column) {
    return pages.get(rowGroup).get(column);
  }

  /** Row groups in the file. */
  public int rowGroups() {
    return pages.size();
  }

  /** Columns of each row group. */
  public int columns() {
    return pages.isEmpty() ? 0 : pages.get(0).size();
  }

  /** The file with the edits applied (null edits leave a part as it is). */
  public byte[] rewrite(PageEdit pageEdit, Consumer<FileMetaData> footerEdit) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 1024);
    FileMetaData newFooter = footer.deepCopy();
    if (pageEdit == null) {
      out.write(file, 0, (int) footerStart);
    } else {
      out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
      for (int g = 0; g < pages.size(); g++) {
        RowGroup group = newFooter.getRow_groups().get(g);
        long groupBytes = 0;
        for (int c = 0; c < pages.get(g).size(); c++) {
          ColumnChunk chunk = group.getColumns().get(c);
          ColumnMetaData meta = chunk.getMeta_data();
          long chunkStart = out.size();
          long oldStart = start(meta);
          boolean dictionary =
              meta.isSetDictionary_page_offset() && meta.getDictionary_page_offset() > 0;
          List<Page> list = pages.get(g).get(c);
          for (int p = 0; p < list.size(); p++) {
            Page page = list.get(p);
            if (page.offset() == meta.getData_page_offset()) {
              meta.setData_page_offset(out.size());
            }
            if (dictionary && page.offset() == meta.getDictionary_page_offset()) {
              meta.setDictionary_page_offset(out.size());
            }
            PageHeader header = page.header().deepCopy();
            int bodyLength = page.header().getCompressed_page_size();
            pageEdit.edit(g, c, p, header);
            Util.writePageHeader(header, out);
            out.write(file, (int) (page.offset() + page.headerLength()), bodyLength);
          }
          long size = out.size() - chunkStart;
          meta.setTotal_compressed_size(size);
          chunk.setFile_offset(chunk.getFile_offset() - oldStart + chunkStart);
          chunk.unsetColumn_index_offset();
          chunk.unsetColumn_index_length();
          chunk.unsetOffset_index_offset();
          chunk.unsetOffset_index_length();
          if (c == 0) {
            group.setFile_offset(chunkStart);
          }
          groupBytes += size;
        }
        group.setTotal_compressed_size(groupBytes);
      }
    }
    if (footerEdit != null) {
      footerEdit.accept(newFooter);
    }
    ByteArrayOutputStream footerBytes = new ByteArrayOutputStream();
    Util.writeFileMetaData(newFooter, footerBytes);
    footerBytes.writeTo(out);
    int length = footerBytes.size();
    out.write(length & 0xFF);
    out.write((length >> 8) & 0xFF);
    out.write((length >> 16) & 0xFF);
    out.write((length >> 24) & 0xFF);
    out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }
}
