package dev.prefetch.it.remote;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/** Parquet and ORC read with prefetching through Hadoop's S3A from an S3-compatible server. */
class S3ReadTest extends RemoteReadContract {

  private S3Server server;
  private Configuration configuration;

  @Override
  void startServer() throws Exception {
    server = S3Server.start();
    configuration = server.configuration();
  }

  @Override
  void stopServer() throws IOException {
    if (server != null) {
      server.close(configuration);
    }
  }

  @Override
  Configuration configuration() {
    return configuration;
  }

  @Override
  org.apache.hadoop.fs.Path upload(Path local, String name) throws IOException {
    return server.upload(local, "data/" + name);
  }

  @Override
  org.apache.hadoop.fs.Path missing() {
    return server.path("data/missing.orc");
  }
}
