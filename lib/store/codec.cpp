#include "store/codec.hpp"

#include <lzma.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY  // the estimates of a context's memory
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <boost/iostreams/device/array.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filter/symmetric.hpp>
#include <boost/iostreams/filter/zlib.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cassert>
#include <limits>
#include <memory>

namespace io = boost::iostreams;

namespace retro {

namespace {

constexpr std::streamsize BUFFER = 1 << 16;

// A Boost.Iostreams sink appending to a byte vector.
struct ByteSink {
    using char_type = char;
    using category = io::sink_tag;
    std::vector<uint8_t>* out;
    std::streamsize write(const char* s, std::streamsize n) {
        out->insert(out->end(), reinterpret_cast<const uint8_t*>(s), reinterpret_cast<const uint8_t*>(s) + n);
        return n;
    }
};

// xz's preset `level` (its extreme variant when asked) with its dictionary no larger than the input.
lzma_options_lzma xz_options(int level, size_t input_size, bool extreme = false) {
    lzma_options_lzma options;
    if (lzma_lzma_preset(&options, uint32_t(level) | (extreme ? LZMA_PRESET_EXTREME : 0)))
        throw CodecError("bad xz level " + std::to_string(level));
    options.dict_size = uint32_t(std::clamp<size_t>(input_size, LZMA_DICT_SIZE_MIN, options.dict_size));
    return options;
}

// An xz compressor for Boost.Iostreams symmetric filters, told the input size in advance. Boost's
// own lzma_compressor takes only a level, so it sizes its match finder for megabytes of input: per
// 64 KiB block that costs 3-5 times the time (tens of MiB of tables set up and cleared) and makes
// the xz decoder allocate an 8 MiB dictionary. The same stream format.
class XzCompressorImpl {
public:
    using char_type = char;
    XzCompressorImpl(int level, size_t input_size, bool extreme) {
        lzma_options_lzma options = xz_options(level, input_size, extreme);
        const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
        if (lzma_stream_encoder(&stream_, filters, LZMA_CHECK_NONE) != LZMA_OK)
            throw CodecError("cannot set up the xz encoder");
    }
    ~XzCompressorImpl() { lzma_end(&stream_); }
    bool filter(const char*& src_begin, const char* src_end, char*& dest_begin, char* dest_end, bool flush) {
        stream_.next_in = reinterpret_cast<const uint8_t*>(src_begin);
        stream_.avail_in = size_t(src_end - src_begin);
        stream_.next_out = reinterpret_cast<uint8_t*>(dest_begin);
        stream_.avail_out = size_t(dest_end - dest_begin);
        const lzma_ret r = lzma_code(&stream_, flush ? LZMA_FINISH : LZMA_RUN);
        src_begin = reinterpret_cast<const char*>(stream_.next_in);
        dest_begin = reinterpret_cast<char*>(stream_.next_out);
        if (r == LZMA_STREAM_END) return false;
        if (r != LZMA_OK) throw CodecError("xz encoder error " + std::to_string(int(r)));
        return true;
    }
    void close() {}

private:
    lzma_stream stream_ = LZMA_STREAM_INIT;
};

using XzCompressor = io::symmetric_filter<XzCompressorImpl>;

// zstd is called directly, one block in one call, with a context per thread kept from block to
// block: through Boost.Iostreams each block set up a context of its own (megabytes allocated, faulted
// in and cleared at level 15) and went through two 64 KiB buffers.
ZSTD_CCtx* thread_compressor() {
    thread_local const std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> ctx(ZSTD_createCCtx(),
                                                                              ZSTD_freeCCtx);
    if (!ctx) throw CodecError("cannot set up the zstd encoder");
    return ctx.get();
}

ZSTD_DCtx* thread_decompressor() {
    thread_local const std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(),
                                                                              ZSTD_freeDCtx);
    if (!ctx) throw CodecError("cannot set up the zstd decoder");
    return ctx.get();
}

std::vector<uint8_t> zstd_compress(int level, const uint8_t* data, size_t size) {
    ZSTD_CCtx* ctx = thread_compressor();
    ZSTD_CCtx_reset(ctx, ZSTD_reset_session_and_parameters);
    if (ZSTD_isError(ZSTD_CCtx_setParameter(ctx, ZSTD_c_compressionLevel, level)))
        throw CodecError("bad zstd level " + std::to_string(level));
    std::vector<uint8_t> out(ZSTD_compressBound(size));
    const size_t n = ZSTD_compress2(ctx, out.data(), out.size(), data, size);
    if (ZSTD_isError(n)) throw CodecError(std::string("zstd encoder: ") + ZSTD_getErrorName(n));
    out.resize(n);
    return out;
}

size_t zstd_decompress_at_most(const uint8_t* data, size_t size, uint8_t* out, size_t capacity) {
    const size_t n = ZSTD_decompressDCtx(thread_decompressor(), out, capacity, data, size);
    if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall)
        throw CodecError("zstd stream holds more than " + std::to_string(capacity) + " bytes");
    if (ZSTD_isError(n))
        throw CodecError(std::string("zstd stream is corrupt (") + ZSTD_getErrorName(n) + ")");
    return n;
}

}  // namespace

std::string codec_name(Codec codec) {
    switch (codec) {
        case Codec::Zlib:
            return "zlib";
        case Codec::Xz:
            return "xz";
        case Codec::Zstd:
            return "zstd";
    }
    return "codec " + std::to_string(int(codec));
}

std::optional<Codec> codec_from_name(const std::string& name) {
    for (uint8_t id = uint8_t(Codec::Zlib); codec_known(id); ++id)
        if (codec_name(Codec(id)) == name) return Codec(id);
    return std::nullopt;
}

bool codec_known(uint8_t id) { return id >= uint8_t(Codec::Zlib) && id <= uint8_t(Codec::Zstd); }

int codec_max_level(Codec codec) { return codec == Codec::Zstd ? 22 : 9; }

int codec_fast_level(Codec codec) { return codec == Codec::Zstd ? 3 : 1; }

int codec_default_level(Codec codec) { return codec == Codec::Zstd ? 15 : codec == Codec::Xz ? 6 : 9; }

uint64_t codec_thread_bytes(Codec codec, int level, size_t block_bytes) {
    if (level < 0) level = codec_default_level(codec);
    switch (codec) {
        case Codec::Zstd:
            return ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(level, block_bytes, 0)) +
                   ZSTD_estimateDCtxSize();
        case Codec::Xz: {
            lzma_options_lzma options = xz_options(level, block_bytes);
            const lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
            return lzma_raw_encoder_memusage(filters) + lzma_raw_decoder_memusage(filters) +
                   uint64_t(2 * BUFFER);
        }
        case Codec::Zlib:  // deflate's window and hash (zlib's default memLevel 8), inflate's window
            return (uint64_t(1) << 17) + (uint64_t(1) << 17) + (uint64_t(1) << 15) + uint64_t(2 * BUFFER);
    }
    return 0;
}

std::vector<uint8_t> compress(Codec codec, int level, const uint8_t* data, size_t size, bool xz_extreme) {
    assert(!xz_extreme || codec == Codec::Xz);
    if (codec == Codec::Zstd) return zstd_compress(level, data, size);
    std::vector<uint8_t> out;
    {
        io::filtering_ostream os;
        switch (codec) {
            case Codec::Zlib:
                os.push(io::zlib_compressor(io::zlib_params(level), BUFFER), BUFFER);
                break;
            case Codec::Xz:
                os.push(XzCompressor(BUFFER, level, size, xz_extreme), BUFFER);
                break;
            default:
                throw CodecError("cannot compress with unknown " + codec_name(codec));
        }
        os.push(ByteSink{&out});
        os.exceptions(std::ios::badbit | std::ios::failbit);
        os.write(reinterpret_cast<const char*>(data), std::streamsize(size));
        os.reset();  // flushes the codec's end of stream
    }
    return out;
}

size_t decompress_at_most(Codec codec, const uint8_t* data, size_t size, uint8_t* out, size_t capacity) {
    if (codec == Codec::Zstd) return zstd_decompress_at_most(data, size, out, capacity);
    try {
        io::filtering_istream is;
        switch (codec) {
            case Codec::Zlib:
                is.push(io::zlib_decompressor(io::zlib::default_window_bits, BUFFER), BUFFER);
                break;
            case Codec::Xz:
                is.push(io::lzma_decompressor(io::lzma_params(), BUFFER), BUFFER);
                break;
            default:
                throw CodecError("unknown " + codec_name(codec));
        }
        is.push(io::array_source(reinterpret_cast<const char*>(data), size));
        is.exceptions(std::ios::badbit);
        is.read(reinterpret_cast<char*>(out), std::streamsize(capacity));
        const auto got = size_t(is.gcount());
        char extra;
        is.clear();
        is.read(&extra, 1);
        if (is.gcount() != 0)
            throw CodecError(codec_name(codec) + " stream holds more than " + std::to_string(capacity) +
                             " bytes");
        return got;
    } catch (const CodecError&) {
        throw;
    } catch (const std::exception& e) {
        throw CodecError(codec_name(codec) + " stream is corrupt (" + e.what() + ")");
    }
}

void decompress(Codec codec, const uint8_t* data, size_t size, uint8_t* out, size_t expected) {
    const size_t got = decompress_at_most(codec, data, size, out, expected);
    if (got != expected)
        throw CodecError(codec_name(codec) + " stream ends after " + std::to_string(got) + " of " +
                         std::to_string(expected) + " bytes");
}

uint32_t crc32_of(const void* data, size_t size, uint32_t crc) {
    const auto* p = static_cast<const Bytef*>(data);
    while (size > 0) {
        const auto n = uInt(std::min<size_t>(size, std::numeric_limits<uInt>::max()));
        crc = uint32_t(::crc32(crc, p, n));
        p += n;
        size -= n;
    }
    return crc;
}

}  // namespace retro
