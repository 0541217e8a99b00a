package dev.prefetch.it.remote;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A one-datanode HDFS cluster in this JVM (Hadoop's MiniDFSCluster), on loopback ports, with its
 * storage in a temporary directory removed on close. Starting takes tens of seconds, so a test
 * class starts one for all its tests.
 */
final class HdfsCluster implements AutoCloseable {

  private final Path baseDir;
  private final MiniDFSCluster cluster;
  private final Configuration configuration;

  private HdfsCluster(Path baseDir, MiniDFSCluster cluster) {
    this.baseDir = baseDir;
    this.cluster = cluster;
    this.configuration = new Configuration(cluster.getConfiguration(0));
  }

  static HdfsCluster start() throws IOException {
    Path baseDir = Files.createTempDirectory("prefetch-hdfs");
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toAbsolutePath().toString());
    conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    // Small blocks so that a few-MiB test file spans several blocks and datanode reads.
    conf.setLong("dfs.blocksize", 1L << 20);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 64 << 10);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
    cluster.waitActive();
    return new HdfsCluster(baseDir, cluster);
  }

  /** A configuration whose default filesystem is this cluster. */
  Configuration configuration() {
    return new Configuration(configuration);
  }

  FileSystem fileSystem() throws IOException {
    return cluster.getFileSystem();
  }

  /** The {@code hdfs://host:port/...} path of {@code file} on this cluster. */
  org.apache.hadoop.fs.Path path(String file) throws IOException {
    return fileSystem().makeQualified(new org.apache.hadoop.fs.Path(file));
  }

  /** Copies a local file to {@code file} on the cluster and returns its qualified path. */
  org.apache.hadoop.fs.Path upload(Path local, String file) throws IOException {
    org.apache.hadoop.fs.Path target = path(file);
    fileSystem()
        .copyFromLocalFile(
            false, true, new org.apache.hadoop.fs.Path(local.toAbsolutePath().toUri()), target);
    return target;
  }

  @Override
  public void close() {
    try {
      cluster.shutdown(true); // deletes its storage too, most of the time
    } finally {
      if (!Files.exists(baseDir)) {
        return;
      }
      try (Stream<Path> files = Files.walk(baseDir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
