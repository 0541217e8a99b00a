package dev.prefetch.parquet.internal.check;

import java.io.IOException;
import java.util.Set;
import java.util.zip.CRC32;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Finds which page failed its checksum after parquet-hadoop reported a mismatch without naming the
 * column or page: walks the page headers of each selected column chunk of the row group and
 * recomputes the CRC32 of every page that carries one. Runs only on that error path.
 */
public final class PageChecksums {

  private PageChecksums() {}

  /**
   * "column x, page 3 at offset 1234", or null when no page of the selected chunks mismatches (or
   * the chunks cannot be walked).
   */
  public static String locateMismatch(
      InputFile input, BlockMetaData block, Set<ColumnPath> columns) {
    try (SeekableInputStream in = input.newStream()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        if (!columns.contains(chunk.getPath())) {
          continue;
        }
        long position = chunk.getStartingPos();
        long end = position + chunk.getTotalSize();
        int page = 0;
        while (position < end) {
          in.seek(position);
          PageHeader header = Util.readPageHeader(in);
          long dataStart = in.getPos();
          int size = header.getCompressed_page_size();
          if (size < 0 || size > end - dataStart) {
            return null;
          }
          if (header.isSetCrc()) {
            byte[] bytes = new byte[size];
            in.readFully(bytes);
            CRC32 crc = new CRC32();
            crc.update(bytes);
            if ((int) crc.getValue() != header.getCrc()) {
              return "column "
                  + chunk.getPath().toDotString()
                  + ", page "
                  + page
                  + " at offset "
                  + position;
            }
          }
          position = dataStart + size;
          page++;
        }
      }
    } catch (IOException | RuntimeException e) {
      return null; // the original error stands on its own
    }
    return null;
  }

  /** Whether a parquet-hadoop failure is a page checksum mismatch. */
  public static boolean isChecksumFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      if (message != null && message.contains("CRC checksum verification failed")) {
        return true;
      }
    }
    return false;
  }
}
