package dev.prefetch.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prefetch.batch.BinaryVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.DecimalVector;
import dev.prefetch.batch.DictionaryVector;
import dev.prefetch.batch.LongVector;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VectorArrayPoolTest {

  private final VectorArrayPool arrays = new VectorArrayPool(0);

  @Test
  void aRecycledVectorsArraysServeTheNextRequests() {
    long[] values = new long[8];
    boolean[] nulls = new boolean[8];
    arrays.recycle(new LongVector(DataType.int64(), 8, values, nulls));

    assertThat(arrays.values(long[].class, 8)).isSameAs(values);
    assertThat(arrays.mask(8)).isSameAs(nulls);
    assertThat(arrays.values(long[].class, 8)).isNotSameAs(values);
  }

  @Test
  void aRecycledMaskComesBackCleared() {
    boolean[] nulls = {true, false, true, true};
    arrays.recycle(new LongVector(DataType.int64(), 4, new long[4], nulls));

    boolean[] mask = arrays.mask(3);

    assertThat(mask).isSameAs(nulls);
    assertThat(mask).startsWith(false, false, false);
  }

  @Test
  void anArrayTooShortForTheRequestIsNotHandedOut() {
    long[] values = new long[4];
    arrays.recycle(new LongVector(DataType.int64(), 4, values, null));

    assertThat(arrays.values(long[].class, 5)).isNotSameAs(values).hasSize(5);
  }

  @Test
  void binaryVectorsGiveBackTheirDataAndOffsets() {
    byte[] data = new byte[32];
    int[] offsets = new int[3];
    arrays.recycle(new BinaryVector(DataType.string(), 2, data, offsets, null));

    assertThat(arrays.binaryData(20)).isSameAs(data);
    assertThat(arrays.binaryOffsets(3)).isSameAs(offsets);
  }

  @Test
  void longBackedDecimalsAndDictionaryIdsGiveBackTheirArraysButNotTheDictionary() {
    long[] unscaled = new long[4];
    arrays.recycle(DecimalVector.ofLongs(DataType.decimal(15, 2), 4, unscaled, null));
    assertThat(arrays.values(long[].class, 4)).isSameAs(unscaled);

    byte[] entries = new byte[8];
    int[] entryOffsets = {0, 4, 8};
    BinaryVector dictionary = new BinaryVector(DataType.string(), 2, entries, entryOffsets, null);
    int[] ids = new int[4];
    arrays.recycle(new DictionaryVector(4, ids, dictionary, null));
    assertThat(arrays.values(int[].class, 4)).isSameAs(ids);
    assertThat(arrays.binaryData(1)).isNotSameAs(entries); // shared by the chunk's next batches
    assertThat(arrays.binaryOffsets(1)).isNotSameAs(entryOffsets);
  }

  @Test
  void aPoolKeepsAsManyArraysAsItsQueueHoldsBatches() {
    // A consumer that drains a full queue of 100 batches while the producer waits for room: every
    // one of those arrays serves the producer's next batches, none is allocated again.
    VectorArrayPool sized = new VectorArrayPool(100);
    List<long[]> released = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      long[] values = new long[4];
      released.add(values);
      sized.recycle(new LongVector(DataType.int64(), 4, values, null));
    }

    for (int i = 0; i < 100; i++) {
      assertThat(sized.values(long[].class, 4)).isSameAs(released.get(i));
    }
    long[] next = sized.values(long[].class, 4);
    assertThat(released).noneMatch(values -> values == next); // the 101st was dropped
  }

  @Test
  void aNewBinaryArrayHasRoomForSomewhatLongerValuesWhenItComesBack() {
    byte[] data = arrays.binaryData(800);
    assertThat(data.length).isEqualTo(900);
    arrays.recycle(new BinaryVector(DataType.string(), 1, data, new int[] {0, 800}, null));

    assertThat(arrays.binaryData(880)).isSameAs(data); // a later batch's values are 10% longer
  }

  @Test
  void theNonePoolAlwaysAllocates() {
    VectorArrayPool none = VectorArrayPool.none();

    assertThat(none.values(int[].class, 4)).isNotSameAs(none.values(int[].class, 4));
  }
}
