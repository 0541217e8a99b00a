package dev.prefetch.orc.internal.stream;

import dev.prefetch.orc.internal.io.CorruptStreamException;
import dev.prefetch.orc.internal.io.StreamInput;

/**
 * Base-128 varints of 64-bit values (protobuf's: 7 bits a byte, least significant group first, the
 * high bit set on every byte but the last), read from a {@link StreamInput}'s window. Stateless.
 *
 * <p>A varint of a 64-bit value takes at most 10 bytes; a longer one is corrupt. Bits beyond the
 * 64th of a tenth byte are dropped, as orc-core's reader drops them.
 */
final class Varints {

  /** The most bytes a varint of a 64-bit value takes. */
  static final int MAX_BYTES = 10;

  private Varints() {}

  /** The next unsigned varint. */
  static long readUnsigned(StreamInput in) throws CorruptStreamException {
    int available = in.ensureUpTo(MAX_BYTES);
    byte[] a = in.array();
    int p = in.position();
    long value = 0;
    for (int i = 0; i < available; i++) {
      int b = a[p + i];
      value |= (long) (b & 0x7F) << (7 * i);
      if (b >= 0) {
        in.position(p + i + 1);
        return value;
      }
    }
    throw unterminated(in, available);
  }

  /** The next zigzag-encoded signed varint. */
  static long readSigned(StreamInput in) throws CorruptStreamException {
    return zigzag(readUnsigned(in));
  }

  /** Skips the next varint. */
  static void skip(StreamInput in) throws CorruptStreamException {
    int available = in.ensureUpTo(MAX_BYTES);
    byte[] a = in.array();
    int p = in.position();
    for (int i = 0; i < available; i++) {
      if (a[p + i] >= 0) {
        in.position(p + i + 1);
        return;
      }
    }
    throw unterminated(in, available);
  }

  static long zigzag(long value) {
    return (value >>> 1) ^ -(value & 1);
  }

  static CorruptStreamException unterminated(StreamInput in, int available) {
    return new CorruptStreamException(
        in.name(),
        available < MAX_BYTES
            ? "the stream ends inside a varint"
            : "a varint runs past " + MAX_BYTES + " bytes, longer than a 64-bit value takes");
  }
}
