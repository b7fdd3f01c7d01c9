// libFuzzer target: the block decoders (zlib, xz, zstd through Boost.Iostreams) and the ranked form of
// version 6 blocks (store/block_ranks.hpp) on arbitrary bytes, below the CRC that guards them in a
// table file. The first byte picks the codec (its low bits) or the ranked form at a code width (its
// top bit set), the next two the expected size (entries, for the ranked form); decompress() must return
// exactly that many bytes, and unranked_block() that many codes, or throw CodecError.
#include <cstdint>
#include <span>
#include <vector>

#include "store/block_ranks.hpp"
#include "store/codec.hpp"
#include "store/packed_codes.hpp"

using namespace retro;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 3) return 0;
    const size_t expected = size_t(data[1]) << 8 | data[2];
    if (data[0] & 0x80) {
        constexpr unsigned WIDTHS[] = {0, 1, 2, 4, 8, 16};
        const unsigned bits = WIDTHS[(data[0] & 0x7F) % 6];
        const size_t bytes = packed_bytes(expected, bits);
        std::vector<uint8_t> out(bytes + 1, 0xAB);
        try {
            unranked_block(std::span<const uint8_t>(data + 3, size - 3), uint32_t(expected), bits,
                           out.data());
        } catch (const CodecError&) {
            return 0;
        }
        if (out[bytes] != 0xAB) __builtin_trap();  // wrote past the end
        return 0;
    }
    const Codec codec = Codec(1 + data[0] % 3);
    std::vector<uint8_t> out(expected + 1, 0xAB);
    try {
        decompress(codec, data + 3, size - 3, out.data(), expected);
    } catch (const CodecError&) {
        return 0;
    }
    if (out[expected] != 0xAB) __builtin_trap();  // wrote past the end
    return 0;
}
