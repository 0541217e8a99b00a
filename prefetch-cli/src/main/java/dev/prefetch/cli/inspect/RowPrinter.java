package dev.prefetch.cli.inspect;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.prefetch.batch.ColumnVector;
import dev.prefetch.batch.DataType;
import dev.prefetch.batch.RecordBatch;
import dev.prefetch.batch.Schema;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints rows of batches: one JSON object per line in the {@link ValueEncoding}, or an aligned
 * {@link TextTable} whose scalar cells use the same text (strings unquoted, nested values as
 * compact JSON, nulls as {@code null}).
 */
public final class RowPrinter {

  private static final JsonFactory JSON = new JsonFactory();

  /** Rows that set the text table's column widths. */
  private static final int TEXT_BLOCK_ROWS = 1000;

  private final PrintWriter out;
  private final Schema schema;
  private final boolean json;
  private TextTable table;

  public RowPrinter(PrintWriter out, Schema schema, boolean json) {
    this.out = out;
    this.schema = schema;
    this.json = json;
  }

  /** Prints rows {@code [from, to)} of {@code batch}. */
  public void print(RecordBatch batch, int from, int to) {
    try {
      if (json) {
        printJson(batch, from, to);
      } else {
        printText(batch, from, to);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Ends the output (the text table's header at least). */
  public void finish() {
    if (!json) {
      table().flush();
    }
    out.flush();
  }

  private void printJson(RecordBatch batch, int from, int to) throws IOException {
    List<ColumnVector> columns = batch.columns();
    StringWriter line = new StringWriter();
    for (int r = from; r < to; r++) {
      line.getBuffer().setLength(0);
      try (JsonGenerator gen = JSON.createGenerator(line)) {
        gen.writeStartObject();
        for (int c = 0; c < columns.size(); c++) {
          gen.writeFieldName(schema.field(c).name());
          ValueEncoding.write(gen, columns.get(c), r);
        }
        gen.writeEndObject();
      }
      out.println(line);
    }
  }

  private void printText(RecordBatch batch, int from, int to) throws IOException {
    List<ColumnVector> columns = batch.columns();
    TextTable t = table();
    for (int r = from; r < to; r++) {
      String[] cells = new String[columns.size()];
      for (int c = 0; c < cells.length; c++) {
        cells[c] = cell(columns.get(c), r);
      }
      t.row(cells);
    }
  }

  private TextTable table() {
    if (table == null) {
      List<String> header = new ArrayList<>();
      boolean[] numeric = new boolean[schema.size()];
      for (int c = 0; c < schema.size(); c++) {
        header.add(schema.field(c).name());
        DataType.Kind kind = schema.field(c).type().kind();
        numeric[c] =
            switch (kind) {
              case INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, DECIMAL -> true;
              default -> false;
            };
      }
      table = new TextTable(out, header, numeric, TEXT_BLOCK_ROWS);
    }
    return table;
  }

  /** The text of one cell. */
  static String cell(ColumnVector vector, int r) throws IOException {
    if (vector.isNull(r)) {
      return "null";
    }
    if (vector.type().kind().isNested()) {
      StringWriter text = new StringWriter();
      try (JsonGenerator gen = JSON.createGenerator(text)) {
        ValueEncoding.write(gen, vector, r);
      }
      return text.toString();
    }
    return ValueEncoding.scalarText(vector, r);
  }
}
