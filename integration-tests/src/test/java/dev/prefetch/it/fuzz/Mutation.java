package dev.prefetch.it.fuzz;

import dev.prefetch.it.Layout;
import dev.prefetch.it.Layout.Span;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * One corruption of a file's bytes: what was done where, so that a failing case can be told and
 * replayed. Targets are the regions of the file's {@link Layout}: the footer or tail, page headers,
 * dictionary pages, data pages, page indexes, ORC stripe footers (stream lengths) and row indexes.
 *
 * @param kind what was done
 * @param region which region of the file it aimed at
 * @param offset first byte changed
 * @param length bytes changed (or, for a truncation, bytes kept is {@code offset})
 * @param detail anything else needed to replay it (a spliced source offset, a bit)
 */
public record Mutation(Kind kind, String region, long offset, int length, long detail) {

  /** The ways a file is corrupted. */
  public enum Kind {
    FLIP_BITS,
    RANDOM_BYTES,
    ZERO,
    SPLICE,
    TRUNCATE,
    DELETE,
    INSERT
  }

  /** Applies this mutation to a copy of {@code original}. */
  public byte[] apply(byte[] original) {
    int at = (int) offset;
    switch (kind) {
      case TRUNCATE:
        return Arrays.copyOf(original, at);
      case DELETE:
        {
          byte[] out = new byte[original.length - length];
          System.arraycopy(original, 0, out, 0, at);
          System.arraycopy(original, at + length, out, at, original.length - at - length);
          return out;
        }
      case INSERT:
        {
          byte[] out = new byte[original.length + length];
          System.arraycopy(original, 0, out, 0, at);
          Random random = new Random(detail);
          for (int i = 0; i < length; i++) {
            out[at + i] = (byte) random.nextInt();
          }
          System.arraycopy(original, at, out, at + length, original.length - at);
          return out;
        }
      default:
        break;
    }
    byte[] out = original.clone();
    switch (kind) {
      case FLIP_BITS:
        {
          Random random = new Random(detail);
          for (int i = 0; i < length; i++) {
            int position = at + random.nextInt(Math.max(1, Math.min(64, out.length - at)));
            out[position] ^= (byte) (1 << random.nextInt(8));
          }
          break;
        }
      case RANDOM_BYTES:
        {
          Random random = new Random(detail);
          for (int i = 0; i < length; i++) {
            out[at + i] = (byte) random.nextInt();
          }
          break;
        }
      case ZERO:
        Arrays.fill(out, at, at + length, (byte) 0);
        break;
      case SPLICE:
        System.arraycopy(original, (int) detail, out, at, length);
        break;
      default:
        throw new IllegalStateException(kind.name());
    }
    return out;
  }

  @Override
  public String toString() {
    return kind
        + " "
        + region
        + " @"
        + offset
        + "+"
        + length
        + (detail != 0 ? " (" + detail + ")" : "");
  }

  /** Draws mutations of a file with a given layout from a seeded random source. */
  public static final class Generator {

    private final Layout layout;
    private final List<String> names = new ArrayList<>();
    private final List<List<Span>> regions = new ArrayList<>();

    public Generator(Layout layout) {
      this.layout = layout;
      add("footer", List.of(layout.tail()));
      add("page-header", headers(layout.dataPages()));
      add("dictionary-page", layout.dictionaryPages());
      add("data-page", layout.dataPages());
      add("column-index", layout.columnIndexes());
      add("offset-index", layout.offsetIndexes());
      add("stripe-footer", layout.stripeFooters());
      add("row-index", layout.indexes());
      add("anywhere", List.of(new Span(0, layout.length())));
    }

    private void add(String name, List<Span> spans) {
      List<Span> nonEmpty = new ArrayList<>();
      for (Span span : spans) {
        if (span.length() > 0) {
          nonEmpty.add(span);
        }
      }
      if (!nonEmpty.isEmpty()) {
        names.add(name);
        regions.add(nonEmpty);
      }
    }

    /** The first bytes of each column chunk's pages, where a page header lies. */
    private static List<Span> headers(List<Span> chunks) {
      List<Span> spans = new ArrayList<>();
      for (Span chunk : chunks) {
        spans.add(new Span(chunk.from(), Math.min(chunk.to(), chunk.from() + 24)));
      }
      return spans;
    }

    /** The next mutation. */
    public Mutation next(Random random) {
      int which = random.nextInt(names.size());
      String name = names.get(which);
      List<Span> spans = regions.get(which);
      Span span = spans.get(random.nextInt(spans.size()));
      long length = layout.length();
      long at = span.from() + (long) (random.nextDouble() * span.length());
      at = Math.min(at, length - 1);
      int room = (int) Math.min(span.to() - at, 256);
      Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
      switch (kind) {
        case FLIP_BITS:
          return new Mutation(kind, name, at, 1 + random.nextInt(4), 1 + random.nextInt(1 << 20));
        case RANDOM_BYTES:
          return new Mutation(
              kind,
              name,
              at,
              Math.max(1, Math.min(room, 1 + random.nextInt(8))),
              1 + random.nextInt(1 << 20));
        case ZERO:
          return new Mutation(
              kind, name, at, Math.max(1, Math.min(room, 1 + random.nextInt(64))), 0);
        case SPLICE:
          {
            int n = Math.max(1, Math.min(room, 1 + random.nextInt(64)));
            long source = (long) (random.nextDouble() * (length - n));
            return new Mutation(
                kind, name, at, (int) Math.min(n, length - at), Math.max(1, source));
          }
        case TRUNCATE:
          return new Mutation(kind, name, at, 0, 0);
        case DELETE:
          return new Mutation(
              kind, name, at, (int) Math.max(1, Math.min(length - at, 1 + random.nextInt(16))), 0);
        case INSERT:
          return new Mutation(kind, name, at, 1 + random.nextInt(16), 1 + random.nextInt(1 << 20));
        default:
          throw new IllegalStateException(kind.name());
      }
    }
  }
}
