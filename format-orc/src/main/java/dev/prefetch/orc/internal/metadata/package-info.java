/**
 * An ORC file's own description of itself, read and checked before anything is allocated from it:
 * the tail ({@link dev.prefetch.orc.internal.metadata.FileTail}, read once per reader or taken from
 * the metadata cache), the sizes the tail and each stripe footer state ({@link
 * dev.prefetch.orc.internal.metadata.OrcChecks}), the protobuf messages decompressed with the
 * reader's own codecs and parsed through signatures that name no protobuf type ({@link
 * dev.prefetch.orc.internal.metadata.OrcProtos}), and the counted view of the filesystem the tail
 * and the stripes are read through ({@link dev.prefetch.orc.internal.metadata.CountingFileSystem}).
 */
package dev.prefetch.orc.internal.metadata;
