package dev.prefetch.cli.inspect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prefetch.orc.OrcStripeFooters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.orc.BinaryColumnStatistics;
import org.apache.orc.BooleanColumnStatistics;
import org.apache.orc.ColumnStatistics;
import org.apache.orc.DateColumnStatistics;
import org.apache.orc.DecimalColumnStatistics;
import org.apache.orc.DoubleColumnStatistics;
import org.apache.orc.IntegerColumnStatistics;
import org.apache.orc.OrcFile;
import org.apache.orc.OrcProto;
import org.apache.orc.Reader;
import org.apache.orc.StringColumnStatistics;
import org.apache.orc.StripeInformation;
import org.apache.orc.StripeStatistics;
import org.apache.orc.TimestampColumnStatistics;
import org.apache.orc.TypeDescription;

/** What an ORC file holds, from its tail and stripe footers (orc-core's public classes). */
public final class OrcInspector {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private OrcInspector() {}

  /** Rows of the file, or of {@code stripes} when given, from the tail only. */
  public static long rows(Path path, Configuration conf, List<Integer> stripes) throws IOException {
    try (Reader reader = OrcFile.createReader(path, OrcFile.readerOptions(conf))) {
      if (stripes == null) {
        return reader.getNumberOfRows();
      }
      long rows = 0;
      for (int s : checked(reader, stripes, path)) {
        rows += reader.getStripes().get(s).getNumberOfRows();
      }
      return rows;
    }
  }

  /** The file's own type of each top-level column, by name. */
  public static Map<String, String> fileTypes(Path path, Configuration conf) throws IOException {
    try (Reader reader = OrcFile.createReader(path, OrcFile.readerOptions(conf))) {
      TypeDescription schema = reader.getSchema();
      Map<String, String> types = new LinkedHashMap<>();
      for (int i = 0; i < schema.getFieldNames().size(); i++) {
        types.put(schema.getFieldNames().get(i), schema.getChildren().get(i).toString());
      }
      return types;
    }
  }

  /**
   * The stripes of the file (all, or {@code stripes}): rows, offsets, sizes, and per column its
   * encoding, stream bytes, statistics and whether it has a row index and bloom filters.
   */
  public static ObjectNode meta(String name, Path path, Configuration conf, List<Integer> stripes)
      throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    try (Reader reader = OrcFile.createReader(path, OrcFile.readerOptions(conf).filesystem(fs))) {
      List<Integer> chosen = checked(reader, stripes, path);
      TypeDescription schema = reader.getSchema();
      ObjectNode root = NODES.objectNode();
      root.put("file", name);
      root.put("format", "orc");
      root.put("rows", reader.getNumberOfRows());
      root.put("stripes", reader.getStripes().size());
      root.put("fileVersion", reader.getFileVersion().getName());
      root.put("writer", reader.getSoftwareVersion());
      root.put("compression", reader.getCompressionKind().name());
      root.put("compressionBlockBytes", reader.getCompressionSize());
      root.put("rowIndexStride", reader.getRowIndexStride());
      root.put("crc", false); // ORC streams carry no checksums
      List<StripeStatistics> stripeStats = reader.getStripeStatistics();
      List<OrcProto.StripeFooter> footers = OrcStripeFooters.read(fs, path, reader, chosen);
      ArrayNode details = root.putArray("stripeDetails");
      for (int i = 0; i < chosen.size(); i++) {
        int s = chosen.get(i);
        details.add(
            stripe(
                s,
                reader.getStripes().get(s),
                footers.get(i),
                s < stripeStats.size() ? stripeStats.get(s).getColumnStatistics() : null,
                schema));
      }
      return root;
    }
  }

  private static ObjectNode stripe(
      int index,
      StripeInformation info,
      OrcProto.StripeFooter footer,
      ColumnStatistics[] stats,
      TypeDescription schema) {
    ObjectNode stripe = NODES.objectNode();
    stripe.put("stripe", index);
    stripe.put("rows", info.getNumberOfRows());
    stripe.put("offset", info.getOffset());
    stripe.put("compressedBytes", info.getLength());
    stripe.put("indexBytes", info.getIndexLength());
    stripe.put("dataBytes", info.getDataLength());
    stripe.put("footerBytes", info.getFooterLength());
    // Per column: the bytes and kinds of its streams.
    Map<Integer, Long> bytes = new TreeMap<>();
    Map<Integer, List<String>> kinds = new TreeMap<>();
    for (OrcProto.Stream stream : footer.getStreamsList()) {
      if (!stream.hasColumn()) {
        continue;
      }
      bytes.merge(stream.getColumn(), stream.getLength(), Long::sum);
      kinds
          .computeIfAbsent(stream.getColumn(), k -> new ArrayList<>())
          .add(stream.getKind().name());
    }
    ArrayNode columns = stripe.putArray("columns");
    for (int id = 0; id <= schema.getMaximumId(); id++) {
      TypeDescription type = schema.findSubtype(id);
      ObjectNode column = NODES.objectNode();
      column.put("column", id == 0 ? "(root)" : path(schema, id));
      column.put("id", id);
      column.put("type", type.getCategory().getName());
      if (id < footer.getColumnsCount()) {
        OrcProto.ColumnEncoding encoding = footer.getColumns(id);
        column.put(
            "encoding",
            encoding.getKind().name()
                + (encoding.hasDictionarySize() && encoding.getDictionarySize() > 0
                    ? "[" + encoding.getDictionarySize() + "]"
                    : ""));
      } else {
        column.putNull("encoding");
      }
      List<String> streamKinds = kinds.getOrDefault(id, List.of());
      column.put("streams", String.join(",", streamKinds));
      column.put("compressedBytes", bytes.getOrDefault(id, 0L));
      ColumnStatistics s = stats != null && id < stats.length ? stats[id] : null;
      if (s != null) {
        column.put("values", s.getNumberOfValues());
        column.put("hasNull", s.hasNull());
        String[] range = minMax(s);
        if (range == null) {
          column.putNull("min");
          column.putNull("max");
        } else {
          column.put("min", range[0]);
          column.put("max", range[1]);
        }
      }
      column.put("rowIndex", streamKinds.contains("ROW_INDEX"));
      column.put(
          "bloomFilter",
          streamKinds.contains("BLOOM_FILTER") || streamKinds.contains("BLOOM_FILTER_UTF8"));
      columns.add(column);
    }
    return stripe;
  }

  /**
   * The dotted path of column {@code id}: list elements as {@code _elem}, map parts as {@code _key}
   * and {@code _value}.
   */
  private static String path(TypeDescription root, int id) {
    List<String> parts = new ArrayList<>();
    TypeDescription type = root.findSubtype(id);
    while (type.getParent() != null) {
      TypeDescription parent = type.getParent();
      int at = 0;
      while (parent.getChildren().get(at).getId() != type.getId()) {
        at++; // by id: TypeDescription.equals compares structure, and two columns may be alike
      }
      String part =
          switch (parent.getCategory()) {
            case STRUCT -> parent.getFieldNames().get(at);
            case LIST -> "_elem";
            case MAP -> at == 0 ? "_key" : "_value";
            default -> "_" + at;
          };
      parts.add(0, part);
      type = parent;
    }
    return String.join(".", parts);
  }

  private static String[] minMax(ColumnStatistics s) {
    if (s.getNumberOfValues() == 0) {
      return null;
    }
    if (s instanceof IntegerColumnStatistics i) {
      return new String[] {Long.toString(i.getMinimum()), Long.toString(i.getMaximum())};
    }
    if (s instanceof DoubleColumnStatistics d) {
      return new String[] {Double.toString(d.getMinimum()), Double.toString(d.getMaximum())};
    }
    if (s instanceof StringColumnStatistics t) {
      return t.getMinimum() == null ? null : new String[] {t.getMinimum(), t.getMaximum()};
    }
    if (s instanceof DecimalColumnStatistics d) {
      return d.getMinimum() == null
          ? null
          : new String[] {d.getMinimum().toString(), d.getMaximum().toString()};
    }
    if (s instanceof DateColumnStatistics d) {
      return new String[] {
        java.time.LocalDate.ofEpochDay(d.getMinimumDayOfEpoch()).toString(),
        java.time.LocalDate.ofEpochDay(d.getMaximumDayOfEpoch()).toString()
      };
    }
    if (s instanceof TimestampColumnStatistics t) {
      return t.getMinimumUTC() == null
          ? null
          : new String[] {
            t.getMinimumUTC().toInstant().toString(), t.getMaximumUTC().toInstant().toString()
          };
    }
    if (s instanceof BooleanColumnStatistics b) {
      return new String[] {
        b.getFalseCount() > 0 ? "false" : "true", b.getTrueCount() > 0 ? "true" : "false"
      };
    }
    if (s instanceof BinaryColumnStatistics) {
      return null; // ORC keeps only the total length of binary values
    }
    return null;
  }

  private static List<Integer> checked(Reader reader, List<Integer> stripes, Path path) {
    int count = reader.getStripes().size();
    if (stripes == null) {
      List<Integer> all = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        all.add(i);
      }
      return all;
    }
    List<Integer> chosen = new ArrayList<>(new java.util.TreeSet<>(stripes));
    for (int s : chosen) {
      if (s < 0 || s >= count) {
        throw new IllegalArgumentException(
            path
                + ": stripe "
                + s
                + " does not exist; the file has "
                + count
                + " stripes"
                + (count == 0 ? "" : " (0.." + (count - 1) + ")"));
      }
    }
    return chosen;
  }
}
