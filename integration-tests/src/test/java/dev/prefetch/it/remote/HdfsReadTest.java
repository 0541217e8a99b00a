package dev.prefetch.it.remote;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/** Parquet and ORC read with prefetching from a real HDFS (an in-process mini cluster). */
class HdfsReadTest extends RemoteReadContract {

  private HdfsCluster cluster;

  @Override
  void startServer() throws IOException {
    cluster = HdfsCluster.start();
  }

  @Override
  void stopServer() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Override
  Configuration configuration() {
    return cluster.configuration();
  }

  @Override
  org.apache.hadoop.fs.Path upload(Path local, String name) throws IOException {
    return cluster.upload(local, "/data/" + name);
  }

  @Override
  org.apache.hadoop.fs.Path missing() {
    try {
      return cluster.path("/data/missing.parquet");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
