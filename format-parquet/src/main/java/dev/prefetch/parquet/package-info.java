/**
 * The Parquet format of the prefetch runtime, built on parquet-hadoop.
 *
 * <p>{@link dev.prefetch.parquet.ParquetFormat} is found through {@code ServiceLoader}; users open
 * files with {@link dev.prefetch.Readers}. A plan reads the footer once per reader (through the
 * metadata cache when the {@link dev.prefetch.ReadContext} has one), makes one range per row
 * group, or page-aligned slices of a large row group when there are fewer row groups than
 * producers, and every producer opens its own parquet-hadoop reader over the same parsed footer.
 * Pages are read and decompressed by parquet-hadoop, so every encoding (PLAIN, dictionary, RLE,
 * bit-packed, DELTA_*, BYTE_STREAM_SPLIT), both page versions and the codecs it has on the class
 * path (UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW; LZ4 and BROTLI need codec jars that are not
 * dependencies) are read. Filters are parquet's own {@code FilterPredicate} or
 * {@code FilterCompat.Filter}: they prune row groups (statistics, dictionaries, bloom filters)
 * and pages (column indexes); rows inside the kept pages are not filtered.
 *
 * <h2>Type mapping</h2>
 * <table>
 *   <caption>Parquet column to batch type</caption>
 *   <tr><th>Parquet</th><th>type</th></tr>
 *   <tr><td>BOOLEAN</td><td>BOOLEAN</td></tr>
 *   <tr><td>INT32, INT(32, signed)</td><td>INT32</td></tr>
 *   <tr><td>INT(8, signed) / INT(16, signed)</td><td>INT8 / INT16</td></tr>
 *   <tr><td>INT(8, unsigned) / INT(16, unsigned) / INT(32, unsigned)</td>
 *       <td>INT16 / INT32 / INT64 (widened so that every value fits)</td></tr>
 *   <tr><td>INT64, INT(64, signed)</td><td>INT64</td></tr>
 *   <tr><td>INT(64, unsigned)</td><td>DECIMAL(20, 0), byte-backed</td></tr>
 *   <tr><td>INT96</td><td>TIMESTAMP(NANOS, UTC-adjusted): nanoseconds since the epoch; Spark,
 *       Impala and Hive write INT96 as UTC-normalized instants, which is how Spark reads them</td></tr>
 *   <tr><td>FLOAT / DOUBLE</td><td>FLOAT32 / FLOAT64</td></tr>
 *   <tr><td>FIXED_LEN_BYTE_ARRAY(2) FLOAT16</td><td>FLOAT32, widened exactly</td></tr>
 *   <tr><td>BINARY STRING, ENUM, JSON</td><td>STRING</td></tr>
 *   <tr><td>BINARY (plain, BSON, other annotations)</td><td>BINARY</td></tr>
 *   <tr><td>FIXED_LEN_BYTE_ARRAY(n)</td><td>FIXED_BINARY(n); UUID is FIXED_BINARY(16), INTERVAL
 *       FIXED_BINARY(12)</td></tr>
 *   <tr><td>DECIMAL(p, s) on INT32, INT64, BINARY or FIXED_LEN_BYTE_ARRAY</td><td>DECIMAL(p, s):
 *       unscaled longs for p &le; 18, big-endian two's complement bytes above</td></tr>
 *   <tr><td>DATE</td><td>DATE (days since the epoch)</td></tr>
 *   <tr><td>TIME(unit, utc)</td><td>TIME(unit, utc), in a long even for MILLIS</td></tr>
 *   <tr><td>TIMESTAMP(unit, utc)</td><td>TIMESTAMP(unit, utc)</td></tr>
 *   <tr><td>LIST (3-level, and the legacy 2-level and repeated-group layouts)</td><td>LIST</td></tr>
 *   <tr><td>MAP, MAP_KEY_VALUE</td><td>MAP (duplicate keys kept)</td></tr>
 *   <tr><td>other groups</td><td>STRUCT</td></tr>
 *   <tr><td>a repeated field outside LIST/MAP</td><td>a non-null LIST of non-null elements</td></tr>
 * </table>
 * A field is nullable when it (or, for a projected dotted path such as {@code a.b}, any group on
 * the path) is optional. A dotted path selects a field through groups; it cannot enter a list or
 * a map.
 */
package dev.prefetch.parquet;
