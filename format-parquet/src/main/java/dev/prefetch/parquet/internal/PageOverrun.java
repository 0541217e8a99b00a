package dev.prefetch.parquet.internal;

/**
 * Recognises the one allocation in parquet-hadoop that a corrupt page header can make huge.
 *
 * <p>When the last page of a column chunk claims more bytes than the chunk holds (old writers
 * undercounted a dictionary page header by a few bytes), parquet-hadoop allocates the missing
 * part as one heap buffer and reads it from the file. A corrupt {@code compressed_page_size}
 * then asks for up to 2 GiB before a byte is read. The request fails whole, so the heap is
 * unharmed, and the failure is the file's fault, not the JVM's: the range reader reports it as a
 * corrupt file. Every other {@link OutOfMemoryError} propagates unchanged.
 */
final class PageOverrun {

  private static final String SITE_CLASS = "org.apache.parquet.hadoop.ParquetFileReader$WorkaroundChunk";
  private static final String SITE_METHOD = "readAsBytesInput";

  private PageOverrun() {
  }

  /** Whether {@code error} was thrown allocating the missing part of a chunk's last page. */
  static boolean causedBy(OutOfMemoryError error) {
    StackTraceElement[] stack = error.getStackTrace();
    // the allocation itself sits a frame or two below the call site (ByteBuffer.allocate, ...)
    for (int i = 0; i < Math.min(stack.length, 4); i++) {
      if (SITE_CLASS.equals(stack[i].getClassName())
          && SITE_METHOD.equals(stack[i].getMethodName())) {
        return true;
      }
    }
    return false;
  }
}
