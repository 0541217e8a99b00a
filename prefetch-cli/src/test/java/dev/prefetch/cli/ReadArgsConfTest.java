package dev.prefetch.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prefetch.parquet.ParquetOptions;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** --conf: reader properties to the reader options, every other key to Hadoop; file names. */
class ReadArgsConfTest {

  @Test
  void keysThatAreNotReaderPropertiesGoToTheHadoopConfiguration() {
    ReadArgs args = new ReadArgs();
    args.conf.put("fs.s3a.endpoint", "http://127.0.0.1:9000");
    args.conf.put(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    args.conf.put("fs.defaultFS", "hdfs://namenode:8020");
    args.conf.put("prefetch.queue-capacity", "8");
    args.conf.put("parquet.read.split-row-groups", "false");
    Configuration conf = args.configuration();
    assertThat(conf.get("fs.s3a.endpoint")).isEqualTo("http://127.0.0.1:9000");
    assertThat(conf.get("fs.s3a.aws.credentials.provider"))
        .endsWith("SimpleAWSCredentialsProvider");
    assertThat(conf.get("fs.defaultFS")).isEqualTo("hdfs://namenode:8020");
    assertThat(conf.get("prefetch.queue-capacity")).isNull();
    var options = args.readOptions(true);
    assertThat(options.queueCapacity()).isEqualTo(8);
    assertThat(ParquetOptions.from(options).splitRowGroups()).isFalse();
    assertThat(options.properties()).doesNotContainKeys("fs.s3a.endpoint", "fs.defaultFS");
  }

  @Test
  void aBadValueOfAFormatKeyIsAUsageErrorNamingTheKeyAndValue() {
    ReadArgs args = new ReadArgs();
    args.conf.put("parquet.read.split-row-groups", "maybe");
    assertThatThrownBy(() -> args.readOptions(true))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("parquet.read.split-row-groups")
        .hasMessageContaining("maybe");
    ReadArgs orc = new ReadArgs();
    orc.conf.put("orc.read.natural-read-size", "12 parsecs");
    assertThatThrownBy(() -> orc.readOptions(true))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("orc.read.natural-read-size")
        .hasMessageContaining("12 parsecs");
  }

  @Test
  void fileNamesWithASchemeOpenOnTheirFilesystemAndPlainOnesOnTheDefault() {
    assertThat(ReadArgs.hasScheme("s3a://bucket/key.parquet")).isTrue();
    assertThat(ReadArgs.hasScheme("hdfs://nn:8020/a.orc")).isTrue();
    assertThat(ReadArgs.hasScheme("file:/tmp/a.orc")).isTrue();
    assertThat(ReadArgs.hasScheme("/tmp/a:b.orc")).isFalse();
    assertThat(ReadArgs.hasScheme("C:\\data\\a.orc")).isFalse();
    assertThat(ReadArgs.hasScheme("a.orc")).isFalse();

    ReadArgs local = new ReadArgs();
    assertThat(local.readPath("data/a.orc").toUri().getScheme()).isEqualTo("file");
    assertThat(local.readPath("s3a://bucket/a.orc").toString()).isEqualTo("s3a://bucket/a.orc");
    ReadArgs onHdfs = new ReadArgs();
    onHdfs.conf.put("fs.defaultFS", "hdfs://namenode:8020");
    assertThat(onHdfs.readPath("/data/a.orc").toUri().getScheme()).isNull();

    ReadArgs simulated = new ReadArgs();
    simulated.latencyMs = 20;
    assertThatThrownBy(() -> simulated.readPath("s3a://bucket/a.orc"))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("local files only");
  }
}
