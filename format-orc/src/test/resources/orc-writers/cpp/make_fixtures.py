#!/usr/bin/env python3
"""Writes the C++ ORC writer's fixtures of format-orc's tests (run once; the build never runs it).

Writer: the Apache ORC C++ writer bundled in pyarrow 25.0.1 (it stamps its files
"ORC C++ 2.2.2"), through pyarrow.orc.write_table.

    python3 -m venv /tmp/venv-orc && . /tmp/venv-orc/bin/activate
    pip install pyarrow==25.0.1
    python3 make_fixtures.py            # writes the .orc files beside this script

Every file holds deterministic values (no random numbers), so running the script again writes the
same bytes. What each file holds is listed in ../README.md and in OrcWriterCorpus (format-orc's
test jar), which the tests iterate over.
"""

import datetime
import decimal
import os
import sys

import pyarrow as pa
import pyarrow.orc as orc

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED_PYARROW = "25.0.1"

# exact decimals of 38 digits (the default context rounds to 28)
decimal.getcontext().prec = 60

# Repeated text in the direct strings: it compresses to little, yet fills the writer's 64 KiB
# compression blocks quickly. The C++ writer counts only compressed output towards its stripe
# size, so with a codec a stripe ends only after some stream has filled a block.
FILLER = "lorem ipsum dolor sit amet, consectetur adipiscing elit "

WORDS = ["alpha", "beta", "gamma", "delta", "épsilon", "ζeta", "中文", ""]


def null_every(n, k, offset=0):
    return lambda i: (i + offset) % k == 0


def column(values_of, rows, is_null, type_):
    return pa.array([None if is_null(i) else values_of(i) for i in range(rows)], type=type_)


def types_table(rows):
    """Every type the C++ writer takes from Arrow but unions, with nulls in every column."""
    i64_extremes = [-(2**63), 2**63 - 1, 0, -1]
    f32_specials = [float("nan"), float("inf"), float("-inf"), -0.0]
    epoch = datetime.datetime(1970, 1, 1)

    def i64(i):
        return i64_extremes[i % 4] if i % 97 == 5 else i * 1_000_003 - 2**39

    def f32(i):
        return f32_specials[i % 4] if i % 89 == 7 else i * 0.75 - 300.0

    def dec38(i):
        if i % 101 == 9:
            return decimal.Decimal((10**38 - 1) * (1 if i % 2 else -1)).scaleb(-6)
        return decimal.Decimal((i - 1000) * 10**15 + i % 10).scaleb(-6)

    def ts(i):
        # whole days before 1970 and sub-microsecond digits after it (a fraction of a second
        # before 1970 is written out of the format's range: see timestamps_table)
        days = (i - rows // 4) * 86_400 * 10**9
        return days if days < 0 else days + (i % 10) * 100_000_007 + 123

    def tstz(i):
        return (i - rows // 3) * 3_600_000_001 + 1_600_000_000_000_000

    def lst(i):
        n = i % 5
        return [None if (i + k) % 7 == 0 else i * 10 + k for k in range(n)]

    def mp(i):
        return [("k%d" % k, None if k == 1 else i + k) for k in range(i % 4)]

    def st(i):
        return {"x": None if i % 9 == 0 else i * 3, "y": WORDS[i % len(WORDS)]}

    return pa.table(
        {
            "id": pa.array(range(rows), pa.int64()),
            "b": column(lambda i: i % 3 == 0, rows, null_every(rows, 7, 1), pa.bool_()),
            "i8": column(lambda i: (i * 37) % 256 - 128, rows, null_every(rows, 7, 2), pa.int8()),
            "i16": column(lambda i: (i * 311) % 65536 - 32768, rows, null_every(rows, 7, 3), pa.int16()),
            "i32": column(lambda i: (i * 65_599) % 2**32 - 2**31, rows, null_every(rows, 7, 4), pa.int32()),
            "i64": column(i64, rows, null_every(rows, 7, 5), pa.int64()),
            "f32": column(f32, rows, null_every(rows, 7, 6), pa.float32()),
            "f64": column(lambda i: (i - 1000) / 7.0, rows, null_every(rows, 11), pa.float64()),
            # few distinct values: dictionary encoded (see dictionary_key_size_threshold)
            "s_dict": column(lambda i: WORDS[i % len(WORDS)], rows, null_every(rows, 11, 1), pa.string()),
            # every value distinct: direct encoded
            "s_direct": column(lambda i: "row %06d %s" % (i, FILLER[: i % 24]), rows, null_every(rows, 11, 2), pa.string()),
            "bin": column(lambda i: bytes([i % 256, 0, (255 - i) % 256]) * (i % 3), rows, null_every(rows, 11, 3), pa.binary()),
            "dec": column(lambda i: decimal.Decimal(i * 125 - 99_999).scaleb(-2), rows, null_every(rows, 11, 4), pa.decimal128(10, 2)),
            "dec38": column(dec38, rows, null_every(rows, 11, 5), pa.decimal128(38, 6)),
            "dt": column(lambda i: datetime.date(1970, 1, 1) + datetime.timedelta(days=i * 17 - 20_000), rows, null_every(rows, 11, 6), pa.date32()),
            "ts": column(ts, rows, null_every(rows, 13), pa.timestamp("ns")),
            "tstz": column(tstz, rows, null_every(rows, 13, 1), pa.timestamp("us", tz="UTC")),
            "li": column(lst, rows, null_every(rows, 13, 2), pa.list_(pa.int32())),
            "mp": column(mp, rows, null_every(rows, 13, 3), pa.map_(pa.string(), pa.int32())),
            "st": column(st, rows, null_every(rows, 13, 4), pa.struct([("x", pa.int32()), ("y", pa.string())])),
        }
    )


def write(name, table, **options):
    path = os.path.join(HERE, name)
    orc.write_table(table, path, **options)
    f = orc.ORCFile(path)
    print(
        "%-28s %6d rows %3d stripes stride %5d %-12s %s %s, %d bytes"
        % (name, f.nrows, f.nstripes, f.row_index_stride, f.compression, f.file_version,
           f.software_version, os.path.getsize(path))
    )


def union_table(rows):
    """A union of int, string and double (a column of its own: Spark's ORC reader reads no file
    with a union)."""
    # A sparse union's children have a value in every row; the tag picks one. An Arrow union
    # has no validity of its own, so nulls are in the children.
    tags = pa.array([i % 3 for i in range(rows)], pa.int8())
    union = pa.UnionArray.from_sparse(
        tags,
        [
            column(lambda i: i, rows, null_every(rows, 11), pa.int32()),
            column(lambda i: "u%d" % i, rows, null_every(rows, 13), pa.string()),
            column(lambda i: i / 8.0, rows, lambda i: False, pa.float64()),
        ],
        field_names=["i", "s", "d"],
    )
    return pa.table({"id": pa.array(range(rows), pa.int64()), "u": union})


def timestamps_table(rows):
    """Timestamps on both sides of 1970 with fractions of a second.

    Arrow's ORC adapter hands the writer seconds rounded towards zero and a negative nanosecond
    part for a time before 1970 with a fraction, and the writer stores that negative part in the
    unsigned NANOS stream: outside the format's range [0, 999999999], but Arrow C++ reads back
    the value it wrote (seconds * 10^9 + nanos).
    """
    return pa.table(
        {
            "id": pa.array(range(rows), pa.int64()),
            "ts": column(lambda i: (i - 300) * 3_123_456_789_123_457, rows, null_every(rows, 9), pa.timestamp("ns")),
            "tstz": column(lambda i: (i - 250) * 86_400_000_123 + i % 7, rows, null_every(rows, 11), pa.timestamp("us", tz="UTC")),
            "ms": column(lambda i: (i - 200) * 1_000_000_001, rows, null_every(rows, 13), pa.timestamp("ms")),
        }
    )


def stripes_table(rows):
    """Few columns, one of long compressible strings: many compressed stripes in few bytes."""
    return pa.table(
        {
            "id": pa.array(range(rows), pa.int64()),
            "text": column(lambda i: "%06d %s" % (i, FILLER * 2), rows, null_every(rows, 17), pa.string()),
            "n": column(lambda i: (i * 7) % 1000, rows, null_every(rows, 19), pa.int32()),
        }
    )


def main():
    if pa.__version__ != EXPECTED_PYARROW:
        sys.exit("expected pyarrow %s, found %s" % (EXPECTED_PYARROW, pa.__version__))
    rows = 2000
    table = types_table(rows)
    for codec in ["uncompressed", "zlib", "snappy", "lz4", "zstd"]:
        name = "cpp-types-%s.orc" % ("none" if codec == "uncompressed" else codec)
        write(
            name,
            table,
            compression=codec,
            # With a codec the writer counts only the chunks it has compressed towards the
            # stripe size, so with 1 KiB a stripe ends after the first batch in which some
            # stream filled a 64 KiB block (here: after every batch); uncompressed, the stripes
            # end after 32 KiB.
            stripe_size=(32 << 10) if codec == "uncompressed" else 1024,
            row_index_stride=200,
            batch_size=256,
            # strings whose distinct values are under half their count are dictionary encoded
            dictionary_key_size_threshold=0.5,
            # the writer's default strategy ("speed") leaves LZ4 chunks uncompressed
            compression_strategy="compression",
        )
    # several stripes under a codec: each ends once the text stream filled a block
    write("cpp-stripes-zstd.orc", stripes_table(3000), compression="zstd", stripe_size=1024,
          row_index_stride=250, batch_size=128)
    # LZ4 as the writer's default strategy writes it: chunks stored uncompressed ("original")
    write("cpp-lz4-original-chunks.orc", stripes_table(300), compression="lz4", stripe_size=1024,
          row_index_stride=100, batch_size=128)
    write("cpp-timestamps-before-1970.orc", timestamps_table(400), compression="zlib",
          row_index_stride=100)
    write("cpp-union.orc", union_table(600), compression="zlib", row_index_stride=100,
          stripe_size=1024, batch_size=256)
    # one stripe, at offset 3 like every first stripe of this writer
    write("cpp-single-stripe.orc", table.slice(0, 300), compression="zlib", row_index_stride=100,
          dictionary_key_size_threshold=0.5)
    # the 0.11 file version: run-length encoding version 1 and the first format's encodings
    write("cpp-version-0.11.orc", table.slice(0, 1500), file_version="0.11", compression="zlib",
          stripe_size=1024, row_index_stride=100, batch_size=256,
          dictionary_key_size_threshold=0.5)


if __name__ == "__main__":
    main()
