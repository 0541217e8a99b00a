package dev.prefetch.arrow.internal;

import dev.prefetch.batch.DataType;
import dev.prefetch.batch.Field;
import dev.prefetch.batch.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads what a file declared for the columns of a batch schema where the batch type is wider (see
 * {@link SourceType}), from the file's own schema: the Parquet footer or the ORC tail.
 *
 * <p>Parquet: every Parquet primitive column becomes exactly one leaf of the batch type tree, in
 * the same depth-first order (lists, maps and legacy layouts only add groups), so the leaves of a
 * column are matched in order; a column whose leaf counts differ keeps its plain types. ORC: the
 * batch type mirrors the ORC type node for node (a union is a STRUCT of a tag and its
 * alternatives), so the two trees are walked together.
 */
public final class SourceTypes {

  private static final byte[] PARQUET_MAGIC = {'P', 'A', 'R', '1'};
  private static final byte[] ORC_MAGIC = {'O', 'R', 'C'};

  private SourceTypes() {}

  /** The format of a file, as the scan's {@code Readers.open} tells it. */
  public enum Format {
    PARQUET,
    ORC,
    /** Neither: its source types are all PLAIN. */
    OTHER
  }

  /**
   * What a file declared for a batch schema's fields.
   *
   * @param format the file's format
   * @param types one source type per field of the schema
   */
  public record FileTypes(Format format, List<SourceType> types) {
    public FileTypes {
      java.util.Objects.requireNonNull(format, "format is null");
      types = List.copyOf(types);
    }
  }

  /** One source type per field of {@code schema}; see {@link #read}. */
  public static List<SourceType> of(Path file, Schema schema, Configuration conf)
      throws IOException {
    return read(file, schema, conf).types();
  }

  /**
   * The file's format and one source type per field of {@code schema}; PLAIN for a file of neither
   * format. The format is told by the extension or, failing that, the magic bytes; the footer or
   * tail is read once more (not through the scan's metadata cache), for Parquet without its row
   * groups.
   */
  public static FileTypes read(Path file, Schema schema, Configuration conf) throws IOException {
    String name = file.getName().toLowerCase(java.util.Locale.ROOT);
    boolean parquet = name.endsWith(".parquet");
    boolean orc = name.endsWith(".orc");
    if (!parquet && !orc) {
      // As Readers.open does: by the magic bytes when the name does not tell.
      byte[] head = new byte[4];
      FileSystem fs = file.getFileSystem(conf);
      int read;
      try (InputStream in = fs.open(file)) {
        read = in.readNBytes(head, 0, head.length);
      }
      parquet = startsWith(head, read, PARQUET_MAGIC);
      orc = !parquet && startsWith(head, read, ORC_MAGIC);
    }
    if (parquet) {
      // The schema alone, with the caller's configuration: through parquet-java's default
      // options (which set up a Hadoop configuration of their own) and with every row group's
      // metadata parsed, this cost 13 to 20 ms per open of the 1,000,000-row scan table, on the
      // consumer's thread; this way, under 1 ms.
      ParquetReadOptions schemaOnly =
          HadoopReadOptions.builder(conf, file)
              .withMetadataFilter(ParquetMetadataConverter.SKIP_ROW_GROUPS)
              .build();
      InputFile input = HadoopInputFile.fromPath(file, conf);
      MessageType type;
      try (SeekableInputStream in = input.newStream()) {
        type = ParquetFileReader.readFooter(input, schemaOnly, in).getFileMetaData().getSchema();
      }
      return new FileTypes(Format.PARQUET, ofParquet(type, schema));
    }
    if (orc) {
      TypeDescription type;
      try (Reader reader = OrcFile.createReader(file, OrcFile.readerOptions(conf))) {
        type = reader.getSchema();
      }
      return new FileTypes(Format.ORC, ofOrc(type, schema));
    }
    return new FileTypes(Format.OTHER, plain(schema));
  }

  /** Every field PLAIN. */
  public static List<SourceType> plain(Schema schema) {
    List<SourceType> out = new ArrayList<>(schema.size());
    for (int i = 0; i < schema.size(); i++) {
      out.add(SourceType.PLAIN);
    }
    return out;
  }

  private static boolean startsWith(byte[] head, int read, byte[] magic) {
    if (read < magic.length) {
      return false;
    }
    for (int i = 0; i < magic.length; i++) {
      if (head[i] != magic[i]) {
        return false;
      }
    }
    return true;
  }

  // ---- Parquet

  static List<SourceType> ofParquet(MessageType parquet, Schema schema) {
    List<SourceType> out = new ArrayList<>(schema.size());
    for (Field field : schema.fields()) {
      Type column = parquetField(parquet, field.name());
      if (column == null) {
        out.add(SourceType.PLAIN);
        continue;
      }
      List<Type> leaves = new ArrayList<>();
      parquetLeaves(column, leaves);
      int[] next = {0};
      int ours = countLeaves(field.type());
      out.add(ours == leaves.size() ? parquetTree(field.type(), leaves, next) : SourceType.PLAIN);
    }
    return out;
  }

  /** The top-level field {@code name}, or the field at a dotted path through groups. */
  private static Type parquetField(GroupType root, String name) {
    if (root.containsField(name)) {
      return root.getType(name);
    }
    String[] path = name.split("\\.");
    Type at = root;
    for (String part : path) {
      if (at.isPrimitive() || !at.asGroupType().containsField(part)) {
        return null;
      }
      at = at.asGroupType().getType(part);
    }
    return at;
  }

  private static void parquetLeaves(Type type, List<Type> out) {
    if (type.isPrimitive()) {
      out.add(type);
      return;
    }
    for (Type child : type.asGroupType().getFields()) {
      parquetLeaves(child, out);
    }
  }

  private static int countLeaves(DataType type) {
    if (!type.kind().isNested()) {
      return 1;
    }
    int n = 0;
    for (Field child : type.children()) {
      n += countLeaves(child.type());
    }
    return n;
  }

  private static SourceType parquetTree(DataType type, List<Type> leaves, int[] next) {
    if (!type.kind().isNested()) {
      return parquetLeaf(leaves.get(next[0]++));
    }
    List<SourceType> children = new ArrayList<>(type.children().size());
    boolean any = false;
    for (Field child : type.children()) {
      SourceType c = parquetTree(child.type(), leaves, next);
      any |= c != SourceType.PLAIN;
      children.add(c);
    }
    return any ? SourceType.nested(children) : SourceType.PLAIN;
  }

  private static SourceType parquetLeaf(Type leaf) {
    LogicalTypeAnnotation logical = leaf.getLogicalTypeAnnotation();
    if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer
        && !integer.isSigned()) {
      return SourceType.unsigned(integer.getBitWidth());
    }
    if (logical instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation) {
      return new SourceType(SourceType.Kind.FLOAT16, 0, List.of());
    }
    return SourceType.PLAIN;
  }

  // ---- ORC

  static List<SourceType> ofOrc(TypeDescription orc, Schema schema) {
    List<SourceType> out = new ArrayList<>(schema.size());
    List<String> names =
        orc.getCategory() == TypeDescription.Category.STRUCT ? orc.getFieldNames() : List.of();
    for (Field field : schema.fields()) {
      int index = names.indexOf(field.name());
      out.add(index < 0 ? SourceType.PLAIN : orcTree(orc.getChildren().get(index), field.type()));
    }
    return out;
  }

  private static SourceType orcTree(TypeDescription orc, DataType type) {
    List<TypeDescription> orcChildren = orc.getChildren();
    switch (orc.getCategory()) {
      case UNION:
        {
          // The batch type is STRUCT<tag, field0, field1, ...>.
          if (type.kind() != DataType.Kind.STRUCT
              || type.children().size() != orcChildren.size() + 1) {
            return SourceType.PLAIN;
          }
          List<SourceType> alternatives = new ArrayList<>(orcChildren.size());
          for (int i = 0; i < orcChildren.size(); i++) {
            alternatives.add(orcTree(orcChildren.get(i), type.children().get(i + 1).type()));
          }
          return new SourceType(SourceType.Kind.UNION, 0, alternatives);
        }
      case STRUCT:
      case LIST:
      case MAP:
        {
          if (!type.kind().isNested() || type.children().size() != orcChildren.size()) {
            return SourceType.PLAIN;
          }
          List<SourceType> children = new ArrayList<>(orcChildren.size());
          boolean any = false;
          for (int i = 0; i < orcChildren.size(); i++) {
            SourceType c = orcTree(orcChildren.get(i), type.children().get(i).type());
            any |= c != SourceType.PLAIN;
            children.add(c);
          }
          return any ? SourceType.nested(children) : SourceType.PLAIN;
        }
      default:
        return SourceType.PLAIN;
    }
  }
}
