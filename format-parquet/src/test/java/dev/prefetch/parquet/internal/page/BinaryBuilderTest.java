package dev.prefetch.parquet.internal.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BinaryBuilderTest {

  @Test
  void lengthPrefixedValuesOfEveryLengthAreCopiedWhole() {
    List<String> values = new ArrayList<>();
    for (int length = 0; length <= 70; length++) {
      values.add("x".repeat(length).replace('x', (char) ('a' + length % 26)));
    }
    byte[] page = plain(values);
    BinaryBuilder builder = new BinaryBuilder(4, 16); // must grow

    int end = builder.appendLengthPrefixed(page, 0, page.length, values.size());

    assertThat(end).isEqualTo(page.length);
    assertThat(strings(builder)).containsExactlyElementsOf(values);
  }

  @Test
  void aLengthPastTheEndOfThePageIsRejected() {
    byte[] page = plain(List.of("abc", "defgh"));
    BinaryBuilder builder = new BinaryBuilder(2, 16);

    assertThatThrownBy(() -> builder.appendLengthPrefixed(page, 0, page.length - 1, 2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PLAIN byte array of 5 bytes with 4 left");
  }

  @Test
  void dictionaryEntriesAreAppendedById() {
    byte[] bytes = "oneseventeen-characters-long-entry!".getBytes(StandardCharsets.UTF_8);
    int[] offsets = {0, 3, 35, 35}; // "one", a 32-byte entry, ""
    BinaryBuilder builder = new BinaryBuilder(1, 16);

    builder.appendEntries(bytes, offsets, new int[] {1, 0, 2, 0, 1}, 5);

    String long32 = "seventeen-characters-long-entry!";
    assertThat(strings(builder)).containsExactly(long32, "one", "", "one", long32);
  }

  @Test
  void spreadPlacesDenseValuesAtTheRowsThatAreNotNull() {
    BinaryBuilder builder = new BinaryBuilder(8, 64);
    byte[] head = plain(List.of("before"));
    builder.appendLengthPrefixed(head, 0, head.length, 1);
    byte[] dense = plain(List.of("a", "bb", "ccc"));
    builder.appendLengthPrefixed(dense, 0, dense.length, 3);
    boolean[] nulls = new boolean[8];
    nulls[1] = true;
    nulls[2] = true;
    nulls[4] = true;

    builder.spread(6, 3, nulls, 1); // rows 1..6: null, null, a, null, bb, ccc

    assertThat(strings(builder)).containsExactly("before", "", "", "a", "", "bb", "ccc");
    assertThat(builder.size()).isEqualTo(7);
    assertThat(Arrays.copyOf(builder.offsets(), 8)).containsExactly(0, 6, 6, 6, 7, 7, 9, 12);
  }

  private static byte[] plain(List<String> values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String value : values) {
      byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      out.write(bytes.length);
      out.write(bytes.length >>> 8);
      out.write(bytes.length >>> 16);
      out.write(bytes.length >>> 24);
      out.writeBytes(bytes);
    }
    return out.toByteArray();
  }

  private static List<String> strings(BinaryBuilder builder) {
    List<String> strings = new ArrayList<>();
    int[] offsets = builder.offsets();
    for (int i = 0; i < builder.size(); i++) {
      strings.add(
          new String(
              builder.data(), offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8));
    }
    return strings;
  }
}
