package dev.prefetch.orc.internal.io;

import java.io.IOException;

/**
 * A stream of a stripe whose bytes do not hold what they say: a compression block header that is
 * cut off, a block longer than the file's block size or than the stream, a block that does not
 * decompress, a run or a length past the stream's end, an impossible run header, a negative length,
 * a seek outside the stream. Thrown by the stream layer ({@link StreamInput} and the decoders of
 * {@code internal.stream}); the column reader that owns the stream knows the file, stripe and
 * column and reports it as a {@link dev.prefetch.CorruptFileException} naming them, with this as
 * its cause.
 *
 * <p>The message starts with the stream's name (as given to {@link
 * DecompressionContext#open(String, byte[], int, int)}) and says what is wrong.
 */
public final class CorruptStreamException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String stream;

  /**
   * @param stream the stream's name, as its opener gave it
   * @param problem what is wrong, with the numbers that show it
   */
  public CorruptStreamException(String stream, String problem) {
    super(stream + ": " + problem);
    this.stream = stream;
  }

  /** The name of the stream that is corrupt. */
  public String stream() {
    return stream;
  }
}
