// The perfect index of a material: every position <-> an integer in [0, size()), dense.
//
// Layout, most significant first: the canonical king pair (462 pawnless, 1806 with pawns), then one
// digit per group of identical pieces (white Q R B N P, then black), each the rank of the group's
// squares as a combination (colex order). Pieces other than pawns choose among the 62 squares the
// kings leave free; pawns among the 48 squares of ranks 2-7. Entries whose pieces collide, and
// non-canonical twins of diagonal-symmetric placements, are holes.
#pragma once

#include <cstdint>
#include <vector>

#include "index/material.hpp"
#include "index/symmetry.hpp"

namespace retro {

class IndexScheme {
public:
    explicit IndexScheme(const Material& material);

    const Material& material() const { return material_; }
    uint64_t size() const { return size_; }
    bool has_pawns() const { return pawns_; }

    // Index of a position with this material (side to move and en passant are not part of it).
    uint64_t encode(const Position& pos) const;
    // Places the pieces of entry idx, in canonical orientation, into pos (side to move untouched).
    // Returns false for a hole: colliding pieces or the non-canonical twin of another entry.
    bool decode(uint64_t idx, Position& pos) const;
    // How many board positions (symmetric images) the entry of this canonical position stands for.
    int weight(const Position& canonical) const;

private:
    struct Group {
        Color color;
        PieceType type;
        int count;
        int squares;  // 62 for pieces, 48 for pawns
        uint64_t size;
    };

    uint64_t encode_oriented(const Position& pos, Symmetry first, Symmetry second) const;

    Material material_;
    bool pawns_;
    const KingPairs* kings_;
    std::vector<Group> groups_;
    uint64_t size_ = 0;
};

}  // namespace retro
