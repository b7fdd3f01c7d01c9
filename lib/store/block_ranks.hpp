// A block's codes ranked again within the block (format version 6): when a block holds few distinct
// codes, it stores its own small dictionary and each entry's rank in it at the narrowest width, so
// the codec has 2 to 8 times fewer bytes to search (the xz CPU time of KQBNvK fell from 60 to 23 s;
// docs/format.md, "Blocks ranked again").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace retro {

// The stored form of n codes packed at `bits` bits (packed_codes.hpp). Byte 0 is the width w of
// what follows. When the block's k distinct codes fit fewer bits than `bits`: byte 1 is k - 1, then
// the k codes, most common first (a byte each, two low byte first when bits is 16), then each
// entry's rank among them packed at w bits. Otherwise w = bits and the packed codes follow as they are.
std::vector<uint8_t> ranked_block(std::span<const uint8_t> packed, uint32_t n, unsigned bits);

// The most bytes ranked_block returns for n codes of `bits` bits.
size_t ranked_block_capacity(uint32_t n, unsigned bits);

// The packed codes (packed_bytes(n, bits) bytes at out) of a stored form; throws CodecError when it
// is not one that ranked_block could have written for n codes of `bits` bits (a wrong width or
// length, a rank past the block's dictionary, nonzero padding bits).
void unranked_block(std::span<const uint8_t> stored, uint32_t n, unsigned bits, uint8_t* out);

}  // namespace retro
