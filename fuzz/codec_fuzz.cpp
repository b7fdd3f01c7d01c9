// libFuzzer target: the block decoders (zlib, xz, zstd through Boost.Iostreams) on arbitrary bytes,
// below the CRC that guards them in a table file. The first byte picks the codec, the next two the
// expected size; decompress() must return exactly that many bytes or throw CodecError.
#include <cstdint>
#include <vector>

#include "store/codec.hpp"

using namespace retro;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 3) return 0;
    const Codec codec = Codec(1 + data[0] % 3);
    const size_t expected = size_t(data[1]) << 8 | data[2];
    std::vector<uint8_t> out(expected + 1, 0xAB);
    try {
        decompress(codec, data + 3, size - 3, out.data(), expected);
    } catch (const CodecError&) {
        return 0;
    }
    if (out[expected] != 0xAB) __builtin_trap();  // wrote past the end
    return 0;
}
