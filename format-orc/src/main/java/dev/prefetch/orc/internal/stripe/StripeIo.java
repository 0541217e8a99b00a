package dev.prefetch.orc.internal.stripe;

import dev.prefetch.orc.internal.io.DecompressionContext;
import dev.prefetch.spi.MemoryLedger;
import java.util.Objects;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * What one range reader lends a stripe's shared state when it reads for it: its stream of the file,
 * its decompression context (codec and buffers, confined to the reader's thread) and the ledger
 * that counts what its reads allocate.
 *
 * @param in the reader's stream of the file
 * @param decompression the reader's codec and buffers
 * @param ledger the reader's ledger
 */
public record StripeIo(
    FSDataInputStream in, DecompressionContext decompression, MemoryLedger ledger) {

  public StripeIo {
    Objects.requireNonNull(in, "in is null");
    Objects.requireNonNull(decompression, "decompression is null");
    Objects.requireNonNull(ledger, "ledger is null");
  }
}
