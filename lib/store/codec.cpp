#include "store/codec.hpp"

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <boost/iostreams/device/array.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filter/symmetric.hpp>
#include <boost/iostreams/filter/zlib.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <limits>

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

// Compressors for Boost.Iostreams symmetric filters, told the input size in advance. Boost's own
// lzma_compressor and zstd_compressor take only a level, so they size their match finders for
// megabytes of input: per 64 KiB block that costs 3-5 times the time (tens of MiB of tables set up
// and cleared) and makes the xz decoder allocate an 8 MiB dictionary. Same stream formats.
class XzCompressorImpl {
public:
    using char_type = char;
    XzCompressorImpl(int level, size_t input_size) {
        lzma_options_lzma options;
        if (lzma_lzma_preset(&options, uint32_t(level)))
            throw CodecError("bad xz level " + std::to_string(level));
        options.dict_size = uint32_t(std::clamp<size_t>(input_size, LZMA_DICT_SIZE_MIN, options.dict_size));
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

class ZstdCompressorImpl {
public:
    using char_type = char;
    ZstdCompressorImpl(int level, size_t input_size) : ctx_(ZSTD_createCCtx()) {
        if (!ctx_ || ZSTD_isError(ZSTD_CCtx_setParameter(ctx_, ZSTD_c_compressionLevel, level)) ||
            ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(ctx_, input_size)))
            throw CodecError("cannot set up the zstd encoder");
    }
    ~ZstdCompressorImpl() { ZSTD_freeCCtx(ctx_); }
    bool filter(const char*& src_begin, const char* src_end, char*& dest_begin, char* dest_end, bool flush) {
        ZSTD_inBuffer in{src_begin, size_t(src_end - src_begin), 0};
        ZSTD_outBuffer out{dest_begin, size_t(dest_end - dest_begin), 0};
        const size_t left = ZSTD_compressStream2(ctx_, &out, &in, flush ? ZSTD_e_end : ZSTD_e_continue);
        if (ZSTD_isError(left)) throw CodecError(std::string("zstd encoder: ") + ZSTD_getErrorName(left));
        src_begin += in.pos;
        dest_begin += out.pos;
        return !(flush && left == 0);
    }
    void close() {}

private:
    ZSTD_CCtx* ctx_;
};

using XzCompressor = io::symmetric_filter<XzCompressorImpl>;
using ZstdCompressor = io::symmetric_filter<ZstdCompressorImpl>;

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

std::vector<uint8_t> compress(Codec codec, int level, const uint8_t* data, size_t size) {
    std::vector<uint8_t> out;
    {
        io::filtering_ostream os;
        switch (codec) {
            case Codec::Zlib:
                os.push(io::zlib_compressor(io::zlib_params(level), BUFFER), BUFFER);
                break;
            case Codec::Xz:
                os.push(XzCompressor(BUFFER, level, size), BUFFER);
                break;
            case Codec::Zstd:
                os.push(ZstdCompressor(BUFFER, level, size), BUFFER);
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
    try {
        io::filtering_istream is;
        switch (codec) {
            case Codec::Zlib:
                is.push(io::zlib_decompressor(io::zlib::default_window_bits, BUFFER), BUFFER);
                break;
            case Codec::Xz:
                is.push(io::lzma_decompressor(io::lzma_params(), BUFFER), BUFFER);
                break;
            case Codec::Zstd:
                is.push(io::zstd_decompressor(BUFFER), BUFFER);
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
