package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that cannot be read (a codec nobody provides, a malformed dictionary) are read errors, exit
 * code 3, with one line naming the file and the reason; never a usage error (2). A file of a layout
 * the specification allows (an ORC root that is not a struct) is simply read.
 */
@Timeout(120)
class UnreadableFilesTest {

  static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id; optional binary name (UTF8); }");

  @TempDir Path dir;

  private static void assertReadError(Cli.Result r, Path file, String reason) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(CliException.READ_ERROR);
    String err = r.err().strip();
    assertThat(err.lines().count()).as(err).isEqualTo(1);
    assertThat(err)
        .startsWith("prefetch-scan: ")
        .contains(file.getFileName().toString())
        .containsIgnoringCase(reason);
  }

  private Path write(String name, CompressionCodecName codec, CompressionCodecFactory codecs)
      throws IOException {
    Path file = dir.resolve(name);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    ExampleParquetWriter.Builder builder =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withType(SCHEMA)
            .withCompressionCodec(codec)
            .withDictionaryEncoding(true);
    if (codecs != null) {
      builder.withCodecFactory(codecs);
    }
    try (ParquetWriter<Group> writer = builder.build()) {
      for (int i = 0; i < 300; i++) {
        writer.write(groups.newGroup().append("id", (long) i).append("name", "n" + (i % 10)));
      }
    }
    return file;
  }

  /** Stores pages as they are and names them LZO, a codec whose classes are not installed. */
  private static CompressionCodecFactory storedAsLzo() {
    return new CompressionCodecFactory() {
      @Override
      public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return new BytesInputCompressor() {
          @Override
          public BytesInput compress(BytesInput bytes) throws IOException {
            return BytesInput.copy(bytes);
          }

          @Override
          public CompressionCodecName getCodecName() {
            return CompressionCodecName.LZO;
          }

          @Override
          public void release() {}
        };
      }

      @Override
      public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        throw new UnsupportedOperationException();
      }

      @Override
      public void release() {}
    };
  }

  @Test
  void aCodecWithoutAnImplementationIsAReadErrorNamingFileAndCodec() throws IOException {
    Path file = write("lzo.parquet", CompressionCodecName.LZO, storedAsLzo());
    for (String command : new String[] {"scan", "verify", "compare"}) {
      assertReadError(Cli.run(command, file.toString()), file, "lzo");
    }
  }

  @Test
  void aMalformedDictionaryIsAReadErrorNamingTheFile() throws IOException {
    Path file = write("bad-dictionary.parquet", CompressionCodecName.UNCOMPRESSED, null);
    long entry;
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      ColumnChunkMetaData name = reader.getFooter().getBlocks().get(0).getColumns().get(1);
      assertThat(name.hasDictionaryPage()).isTrue();
      try (InputStream in = Files.newInputStream(file)) {
        in.skipNBytes(name.getDictionaryPageOffset());
        CountingStream counting = new CountingStream(in);
        PageHeader header = Util.readPageHeader(counting);
        assertThat(header.getDictionary_page_header()).isNotNull();
        entry = name.getDictionaryPageOffset() + counting.count;
      }
    }
    // The first dictionary entry's length prefix now claims far more bytes than the page has.
    try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
      out.seek(entry);
      out.write(new byte[] {(byte) 0x00, (byte) 0xFF, (byte) 0xFF, (byte) 0x7F});
    }
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
    for (String command : new String[] {"scan", "verify"}) {
      assertReadError(Cli.run(command, file.toString()), file, "dictionary");
    }
  }

  @Test
  void anOrcFileWhoseRootIsNotAStructIsRead() throws IOException {
    Path file = dir.resolve("bigint-root.orc");
    TypeDescription schema = TypeDescription.createLong();
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration()).setSchema(schema).overwrite(true))) {
      VectorizedRowBatch batch = schema.createRowBatch(100);
      for (int i = 0; i < 100; i++) {
        ((LongColumnVector) batch.cols[0]).vector[i] = i * 3L;
      }
      batch.size = 100;
      writer.addRowBatch(batch);
    }
    Cli.Result scan = Cli.run("scan", "--json", file.toString());
    assertThat(scan.exitCode()).as(scan.err()).isZero();
    assertThat(scan.out()).contains("\"rows\":100");
    Cli.Result verify = Cli.run("verify", file.toString());
    assertThat(verify.exitCode()).as(verify.err() + verify.out()).isZero();
    assertThat(verify.out()).contains("OK");
  }

  private static final class CountingStream extends java.io.FilterInputStream {
    long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
