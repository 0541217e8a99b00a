package dev.prefetch.parquet.internal.bulk;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Arrays that decompressed pages are written into, recycled once the page's reader is done with
 * them, so that a scan does not allocate (and zero) a fresh array for every page.
 *
 * <p>Ownership: the pool lends an array to the decompressor ({@link #take}); the array then
 * belongs to the page. The bulk reader that consumed the page gives it back ({@link #give}) when
 * it moves to the next page: by then no value refers to the page's bytes, because every decoder
 * copies values into the batch's own arrays. Only arrays the pool lent are taken back, so the
 * slices of a column chunk's buffer that uncompressed pages point into are never reused. A page
 * that is never given back (a nested column's page, a range closed mid-page) is left to the
 * garbage collector: the pool remembers what it lent only weakly.
 *
 * <p>Confined to one range reader's thread.
 */
public final class PageBuffers {

  /** Free arrays kept at most: about two pages of each of a few dozen columns. */
  private static final int MAX_FREE = 64;

  private final ArrayDeque<byte[]> free = new ArrayDeque<>();
  /**
   * Arrays lent and not yet given back; weak, since pages of nested columns are never given back
   * (arrays compare by identity, so a weak hash map keyed by them is an identity set).
   */
  private final Set<byte[]> lent = Collections.newSetFromMap(new WeakHashMap<>());

  /** An array of at least {@code size} bytes, with unspecified contents. */
  public byte[] take(int size) {
    byte[] found = null;
    for (int i = free.size(); i > 0; i--) {
      byte[] candidate = free.pollFirst();
      if (found == null && candidate.length >= size) {
        found = candidate;
      } else {
        free.addLast(candidate);
      }
    }
    if (found == null) {
      found = new byte[size];
    }
    lent.add(found);
    return found;
  }

  /** Takes back {@code array} if this pool lent it; ignores any other array. */
  public void give(byte[] array) {
    if (array != null && lent.remove(array) && free.size() < MAX_FREE) {
      free.addLast(array);
    }
  }
}
