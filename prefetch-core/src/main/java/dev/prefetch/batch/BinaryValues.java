package dev.prefetch.batch;

/**
 * Row-by-row access to a string or binary column, whichever vector holds it: a {@link BinaryVector}
 * of the values' bytes, or a {@link DictionaryVector} of ids into a dictionary. A consumer that
 * wants the values without caring how the batch stores them casts the column to this; one that
 * wants the layout tests for the concrete class.
 */
public sealed interface BinaryValues permits BinaryVector, DictionaryVector {

  /** Number of values. */
  int size();

  boolean isNull(int index);

  /** A copy of value {@code index}'s bytes. */
  byte[] getBytes(int index);

  /** Value {@code index} decoded as UTF-8. */
  String getString(int index);
}
