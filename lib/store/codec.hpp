// Block codecs: each block of a table file is one self-contained zlib, xz or zstd stream, written and
// read through Boost.Iostreams filters (zlib, xz) or libzstd directly. See docs/format.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace retro {

enum class Codec : uint8_t { Zlib = 1, Xz = 2, Zstd = 3 };

// "zlib", "xz", "zstd"; "codec N" for an unknown id.
std::string codec_name(Codec codec);
// The codec of that name (as codec_name spells it), or nullopt.
std::optional<Codec> codec_from_name(const std::string& name);
bool codec_known(uint8_t id);
// The highest level the codec takes (zlib 9, xz 9, zstd 22) and the one the writer uses by default.
int codec_max_level(Codec codec);
int codec_default_level(Codec codec);
// A level that compresses several times faster than the default, for ranking layouts.
int codec_fast_level(Codec codec);

// Memory one thread's compressor and decompressor hold for blocks of `block_bytes` at `level` (-1:
// the default): zstd keeps them from block to block, for the thread's life.
uint64_t codec_thread_bytes(Codec codec, int level, size_t block_bytes);

// A stream that does not decode to exactly the expected bytes; what() says how.
class CodecError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `xz_extreme`: xz's extreme preset of that level (xz -6e), a deeper search for matches that saves a
// few percent for 1.6-4.5 times the time; the same stream format, decoded as fast. zstd and zlib
// have none.
std::vector<uint8_t> compress(Codec codec, int level, const uint8_t* data, size_t size,
                              bool xz_extreme = false);

// Decodes one stream into exactly `expected` bytes at out. Throws CodecError when the stream is
// corrupt, ends early or holds more than `expected` bytes.
void decompress(Codec codec, const uint8_t* data, size_t size, uint8_t* out, size_t expected);
// Decodes one stream of at most `capacity` bytes into out; returns its length. Throws CodecError when
// the stream is corrupt or holds more.
size_t decompress_at_most(Codec codec, const uint8_t* data, size_t size, uint8_t* out, size_t capacity);

// CRC-32 (ISO-HDLC, as zlib's crc32() and PNG/gzip compute it).
uint32_t crc32_of(const void* data, size_t size, uint32_t crc = 0);

}  // namespace retro
