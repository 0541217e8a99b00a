package dev.prefetch.orc.internal.io;

/**
 * A compression block that its codec cannot decompress into the room it has: malformed input, or
 * more output than the file's compression block size. {@link StreamInput} reports it as a {@link
 * CorruptStreamException} naming the stream and the block's offset.
 */
final class MalformedBlockException extends Exception {

  private static final long serialVersionUID = 1L;

  MalformedBlockException(String message) {
    super(message);
  }

  MalformedBlockException(String message, Throwable cause) {
    super(message, cause);
  }
}
