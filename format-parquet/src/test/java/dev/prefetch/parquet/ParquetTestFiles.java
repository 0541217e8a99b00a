package dev.prefetch.parquet;

import dev.prefetch.parquet.testing.WritingCodecs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.params.provider.Arguments;

/** Writes test files with parquet-hadoop's example Group writer. */
final class ParquetTestFiles {

  private ParquetTestFiles() {}

  /** How a file is written. */
  record WriteSpec(
      boolean dictionary,
      ParquetProperties.WriterVersion version,
      CompressionCodecName codec,
      long rowGroupBytes,
      int pageBytes,
      int pageRowLimit,
      CompressionCodecFactory codecs) {

    WriteSpec(
        boolean dictionary,
        ParquetProperties.WriterVersion version,
        CompressionCodecName codec,
        long rowGroupBytes,
        int pageBytes,
        int pageRowLimit) {
      this(
          dictionary,
          version,
          codec,
          rowGroupBytes,
          pageBytes,
          pageRowLimit,
          WritingCodecs.defaults());
    }

    /** The defaults with a dictionary or without, under writer {@code version}. */
    static WriteSpec encoded(boolean dictionary, ParquetProperties.WriterVersion version) {
      return defaults().dictionary(dictionary).version(version);
    }

    static WriteSpec defaults() {
      return new WriteSpec(
          true,
          ParquetProperties.WriterVersion.PARQUET_1_0,
          CompressionCodecName.SNAPPY,
          1 << 20,
          8 << 10,
          500);
    }

    /** Compressors of other writers' habits (raw LZ4 blocks, empty sections, ...). */
    WriteSpec codecs(CompressionCodecFactory factory) {
      return new WriteSpec(
          dictionary, version, codec, rowGroupBytes, pageBytes, pageRowLimit, factory);
    }

    WriteSpec dictionary(boolean on) {
      return new WriteSpec(on, version, codec, rowGroupBytes, pageBytes, pageRowLimit, codecs);
    }

    WriteSpec version(ParquetProperties.WriterVersion v) {
      return new WriteSpec(dictionary, v, codec, rowGroupBytes, pageBytes, pageRowLimit, codecs);
    }

    WriteSpec codec(CompressionCodecName c) {
      return new WriteSpec(dictionary, version, c, rowGroupBytes, pageBytes, pageRowLimit, codecs);
    }

    WriteSpec rowGroupBytes(long bytes) {
      return new WriteSpec(dictionary, version, codec, bytes, pageBytes, pageRowLimit, codecs);
    }

    WriteSpec pageRowLimit(int rows) {
      return new WriteSpec(dictionary, version, codec, rowGroupBytes, pageBytes, rows, codecs);
    }

    @Override
    public String toString() {
      return (dictionary ? "dict" : "plain") + "/" + version + "/" + codec;
    }
  }

  /**
   * Dictionary on and off under each writer version (the page encodings a reader meets): the
   * arguments {@code (boolean dictionary, WriterVersion version)} of a parameterized test.
   */
  static Stream<Arguments> encodings() {
    List<Arguments> specs = new ArrayList<>();
    for (boolean dictionary : new boolean[] {true, false}) {
      for (ParquetProperties.WriterVersion version : ParquetProperties.WriterVersion.values()) {
        specs.add(Arguments.of(dictionary, version));
      }
    }
    return specs.stream();
  }

  /** Writes {@code rows} rows of {@code schema}; {@code fill} sets the fields of row i. */
  static Path write(
      Path file, MessageType schema, int rows, WriteSpec spec, BiConsumer<Integer, Group> fill)
      throws IOException {
    return write(file, schema, rows, spec, false, fill);
  }

  /** As {@link #write}, with BYTE_STREAM_SPLIT for the types that allow it when asked. */
  static Path write(
      Path file,
      MessageType schema,
      int rows,
      WriteSpec spec,
      boolean byteStreamSplit,
      BiConsumer<Integer, Group> fill)
      throws IOException {
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration())
            .withType(schema)
            .withDictionaryEncoding(spec.dictionary())
            .withWriterVersion(spec.version())
            .withCompressionCodec(spec.codec())
            .withCodecFactory(spec.codecs())
            .withRowGroupSize(spec.rowGroupBytes())
            .withPageSize(spec.pageBytes())
            .withDictionaryPageSize(spec.pageBytes() * 4)
            .withPageRowCountLimit(spec.pageRowLimit())
            .withPageWriteChecksumEnabled(true)
            .withByteStreamSplitEncoding(byteStreamSplit)
            .build()) {
      for (int i = 0; i < rows; i++) {
        Group group = groups.newGroup();
        fill.accept(i, group);
        writer.write(group);
      }
    }
    return file;
  }
}
