package dev.prefetch.it.remote;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * An S3-compatible server in this JVM (s3proxy over an in-memory blob store), bound to 127.0.0.1 on
 * a free port, with one bucket. Files are uploaded through the blob store directly; reads go
 * through Hadoop's S3A client, configured by {@link #configuration()}.
 */
final class S3Server implements AutoCloseable {

  static final String BUCKET = "prefetch-test";
  private static final String ACCESS_KEY = "prefetch-access";
  private static final String SECRET_KEY = "prefetch-secret-key";
  private static final long START_TIMEOUT_MILLIS = 30_000;

  private final BlobStoreContext context;
  private final S3Proxy proxy;

  private S3Server(BlobStoreContext context, S3Proxy proxy) {
    this.context = context;
    this.proxy = proxy;
  }

  static S3Server start() throws Exception {
    BlobStoreContext context =
        ContextBuilder.newBuilder("transient")
            .credentials("local", "local")
            .build(BlobStoreContext.class);
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(context.getBlobStore())
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .build();
    proxy.start();
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
    while (!"STARTED".equals(proxy.getState())) {
      if (System.currentTimeMillis() > deadline) {
        proxy.stop();
        context.close();
        throw new IllegalStateException("s3proxy did not start: " + proxy.getState());
      }
      Thread.sleep(10);
    }
    context.getBlobStore().createContainerInLocation(null, BUCKET);
    return new S3Server(context, proxy);
  }

  /** S3A settings for this server: path-style requests over plain HTTP to 127.0.0.1. */
  Configuration configuration() {
    Configuration conf = new Configuration();
    conf.set("fs.s3a.endpoint", "http://127.0.0.1:" + proxy.getPort());
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.set("fs.s3a.path.style.access", "true");
    conf.set("fs.s3a.connection.ssl.enabled", "false");
    conf.set("fs.s3a.access.key", ACCESS_KEY);
    conf.set("fs.s3a.secret.key", SECRET_KEY);
    conf.set(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    conf.set("fs.s3a.bucket.probe", "0");
    conf.set("fs.s3a.change.detection.mode", "none");
    conf.set("fs.s3a.attempts.maximum", "2");
    conf.set("fs.s3a.retry.limit", "2");
    return conf;
  }

  /** The {@code s3a://bucket/key} path of an object. */
  org.apache.hadoop.fs.Path path(String key) {
    return new org.apache.hadoop.fs.Path("s3a://" + BUCKET + "/" + key);
  }

  /** Stores a local file as object {@code key} and returns its {@code s3a:} path. */
  org.apache.hadoop.fs.Path upload(Path local, String key) throws IOException {
    BlobStore store = context.getBlobStore();
    store.putBlob(BUCKET, store.blobBuilder(key).payload(Files.readAllBytes(local)).build());
    return path(key);
  }

  /** Closes the cached S3A filesystem of {@code conf} (its pools) and stops the server. */
  void close(Configuration conf) throws IOException {
    try {
      FileSystem.get(URI.create("s3a://" + BUCKET + "/"), conf).close();
    } finally {
      close();
    }
  }

  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("s3proxy did not stop", e);
    } finally {
      context.close();
    }
  }
}
