#!/usr/bin/env python3
"""Writes a table shaped like TPC-H's lineitem with the C++ ORC writer, for benchmarks (not a fixture).

Writer: the Apache ORC C++ writer bundled in pyarrow 25.0.1 ("ORC C++ 2.2.2"), with its defaults
unless told otherwise (64 MiB stripes, 10,000-row strides, 64 KiB compression blocks). The rows
come from DuckDB (pip install duckdb) with the column layout of the benchmarks' LineitemData
(dev.prefetch.bench): four integer keys, four DECIMAL(15,2), three dates, four low-cardinality
strings and one comment string; the values are hashes of the row number.

    python3 lineitem.py --rows 6000000 --out /tmp/lineitem-cpp.orc --codec zstd

The table is streamed through in batches, so memory stays small whatever the row count.
"""

import argparse

import duckdb
import pyarrow as pa
import pyarrow.orc as orc

TEXT = (
    "carefully final deposits detect slyly agai furiously regular accounts haggle blithely "
    "ironic packages nag quickly express requests sleep fluffily even pinto beans among "
    "the bold ideas use daringly pending theodolites wake silent foxes cajole alongside "
    "quiet instructions integrate boldly unusual dependencies "
)


def query(rows):
    text = "'" + TEXT + "'"
    n = len(TEXT) - 22
    return f"""
    SELECT
      (i // 4 + 1)::BIGINT AS l_orderkey,
      (hash(i, 1) % 200000 + 1)::BIGINT AS l_partkey,
      (hash(i, 2) % 10000 + 1)::BIGINT AS l_suppkey,
      (i % 4 + 1)::INTEGER AS l_linenumber,
      (hash(i, 3) % 50 + 1)::DECIMAL(15,2) AS l_quantity,
      ((hash(i, 4) % 10000000)::BIGINT / 100.0)::DECIMAL(15,2) AS l_extendedprice,
      ((hash(i, 5) % 11)::BIGINT / 100.0)::DECIMAL(15,2) AS l_discount,
      ((hash(i, 6) % 9)::BIGINT / 100.0)::DECIMAL(15,2) AS l_tax,
      (['R', 'A', 'N'])[(hash(i, 7) % 3 + 1)::INTEGER] AS l_returnflag,
      (['O', 'F'])[(hash(i, 8) % 2 + 1)::INTEGER] AS l_linestatus,
      DATE '1992-01-02' + (hash(i, 9) % 2526)::INTEGER AS l_shipdate,
      DATE '1992-01-02' + (hash(i, 9) % 2526)::INTEGER - 30 + (hash(i, 10) % 61)::INTEGER
        AS l_commitdate,
      DATE '1992-01-02' + (hash(i, 9) % 2526)::INTEGER + 1 + (hash(i, 11) % 30)::INTEGER
        AS l_receiptdate,
      (['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'])
        [(hash(i, 12) % 4 + 1)::INTEGER] AS l_shipinstruct,
      (['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'])
        [(hash(i, 13) % 7 + 1)::INTEGER] AS l_shipmode,
      substr({text}, (1 + hash(i, 14) % {n})::INTEGER, (5 + hash(i, 15) % 17)::INTEGER) || ' ' ||
        substr({text}, (1 + hash(i, 16) % {n})::INTEGER, (4 + hash(i, 17) % 17)::INTEGER)
        AS l_comment
    FROM range({rows}) t(i)
    """


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=6_000_000)
    parser.add_argument("--out", required=True)
    parser.add_argument("--codec", default="zstd",
                        choices=["uncompressed", "zlib", "snappy", "lz4", "zstd"])
    parser.add_argument("--stripe-size", type=int, default=64 << 20)
    parser.add_argument("--row-index-stride", type=int, default=10_000)
    parser.add_argument("--dictionary-threshold", type=float, default=0.5,
                        help="strings with fewer distinct values than this share of their count"
                             " are dictionary encoded (0: none)")
    args = parser.parse_args()
    reader = duckdb.connect().execute(query(args.rows)).to_arrow_reader(122_880)
    with orc.ORCWriter(args.out, compression=args.codec, stripe_size=args.stripe_size,
                       row_index_stride=args.row_index_stride,
                       dictionary_key_size_threshold=args.dictionary_threshold) as writer:
        for batch in reader:
            writer.write(pa.Table.from_batches([batch]))
    f = orc.ORCFile(args.out)
    print(f"{args.out}: {f.nrows} rows, {f.nstripes} stripes, {f.compression}, "
          f"{f.software_version}")


if __name__ == "__main__":
    main()
