package dev.prefetch.cli.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The JSON lines of the commands' {@code --json} output, written by Jackson: maps (insertion order
 * kept), lists, strings, numbers, booleans and null, as one line without spaces.
 *
 * <p>Floating-point numbers keep the commands' compact form rather than Java's {@code
 * Double.toString}: a whole number below 10^15 without a fraction ({@code 3}, not {@code 3.0}), any
 * other value with six significant digits and no trailing zeros ({@code 0.123457}, {@code
 * 1.5e-05}), and NaN or an infinity as {@code null} (JSON has neither). Scripts and tests read
 * {@code "seconds":0.0421} with a plain number pattern.
 */
public final class Json {

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .registerModule(
              new SimpleModule("compact-numbers")
                  .addSerializer(Double.class, new CompactDouble<>())
                  .addSerializer(Double.TYPE, new CompactDouble<>())
                  .addSerializer(Float.class, new CompactDouble<>())
                  .addSerializer(Float.TYPE, new CompactDouble<>()));

  private Json() {}

  /** The JSON text of {@code value} on one line. */
  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      // Only plain values reach here; a type Jackson cannot write is a bug of the caller.
      throw new UncheckedIOException("cannot write " + value.getClass().getName() + " as JSON", e);
    }
  }

  /** The compact text of a floating-point number (see the class doc), or null for NaN/infinity. */
  static String compact(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return null;
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    String text = String.format(Locale.ROOT, "%.6g", d);
    int e = text.indexOf('e');
    String mantissa = e < 0 ? text : text.substring(0, e);
    // Trailing zeros go from the mantissa only: the exponent of 1e+20 keeps its zero.
    if (mantissa.indexOf('.') >= 0) {
      mantissa = mantissa.replaceAll("\\.?0+$", "");
    }
    return e < 0 ? mantissa : mantissa + text.substring(e);
  }

  /** Writes a Double or Float in the compact form. */
  private static final class CompactDouble<T extends Number> extends JsonSerializer<T> {
    @Override
    public void serialize(T value, JsonGenerator gen, SerializerProvider serializers)
        throws IOException {
      String text = compact(value.doubleValue());
      if (text == null) {
        gen.writeNull();
      } else {
        gen.writeNumber(text);
      }
    }
  }
}
