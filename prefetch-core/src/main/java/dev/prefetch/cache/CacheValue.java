package dev.prefetch.cache;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/** Immutable cached bytes. Its weight in a byte-bounded cache is its length. */
public final class CacheValue {

  private final byte[] bytes;

  private CacheValue(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A value holding a copy of {@code bytes}. */
  public static CacheValue copyOf(byte[] bytes) {
    return new CacheValue(Objects.requireNonNull(bytes, "bytes is null").clone());
  }

  /** A value holding a copy of {@code bytes[offset, offset + length)}. */
  public static CacheValue copyOf(byte[] bytes, int offset, int length) {
    return new CacheValue(Arrays.copyOfRange(bytes, offset, offset + length));
  }

  /** A value holding a copy of the remaining bytes of {@code buffer} (its position is kept). */
  public static CacheValue copyOf(ByteBuffer buffer) {
    byte[] copy = new byte[buffer.remaining()];
    buffer.duplicate().get(copy);
    return new CacheValue(copy);
  }

  public int length() {
    return bytes.length;
  }

  /** The weight a byte-bounded cache counts: the length. */
  public long weight() {
    return bytes.length;
  }

  /** A read-only view of the bytes. */
  public ByteBuffer buffer() {
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  /** A copy of the bytes. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CacheValue other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "CacheValue[" + bytes.length + " bytes]";
  }
}
