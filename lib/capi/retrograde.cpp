// The C API of include/retrograde.h: each function checks its arguments, converts, calls the probe
// layer inside guarded() and converts back.
#include "retrograde.h"

#include <memory>

#include "capi/convert.hpp"
#include "capi/errors.hpp"
#include "probe/line.hpp"
#include "store/block_cache.hpp"

using namespace retro;
using namespace retro::capi;

struct retro_tablebase {
    std::unique_ptr<const Tablebase> tables;
};

namespace {

const Tablebase& tables_of(const retro_tablebase* tb) { return *required(tb, "the tablebase").tables; }

Position from_fen(const char* fen) {
    if (!fen) throw ArgumentError("the FEN is null");
    return Position::from_fen(fen);
}

retro_status probe(const retro_tablebase* tb, const Position& pos, retro_value* out) {
    retro_value& value = required(out, "the value");
    value = to_value(tables_of(tb).probe(pos));
    return RETRO_OK;
}

retro_status best(const retro_tablebase* tb, const Position& pos, retro_move* out) {
    retro_move& move = required(out, "the move");
    const auto chosen = best_move(tables_of(tb), pos);
    if (!chosen)
        return fail(RETRO_ERR_NO_MOVE, pos.in_check(pos.side_to_move()) ? "checkmate: no legal move"
                                                                        : "stalemate: no legal move");
    move = to_move(chosen->move, chosen->value);
    return RETRO_OK;
}

retro_status moves(const retro_tablebase* tb, const Position& pos, retro_move* out, size_t capacity,
                   size_t* count) {
    size_t& n = required(count, "the count");
    if (!out && capacity > 0) throw ArgumentError("the moves array is null");
    const auto ranked = tables_of(tb).rank_moves(pos);
    n = ranked.size();
    if (ranked.size() > capacity)
        return fail(RETRO_ERR_BUFFER_TOO_SMALL,
                    std::to_string(ranked.size()) + " legal moves, room for " + std::to_string(capacity));
    for (size_t i = 0; i < ranked.size(); ++i) out[i] = to_move(ranked[i].first, ranked[i].second);
    return RETRO_OK;
}

}  // namespace

extern "C" {

const char* retro_version(void) { return RETROGRADE_VERSION; }

const char* retro_last_error(void) { return last_error(); }

const char* retro_status_text(retro_status status) {
    switch (status) {
        case RETRO_OK:
            return "success";
        case RETRO_ERR_ARGUMENT:
            return "bad argument";
        case RETRO_ERR_DIRECTORY:
            return "bad directory";
        case RETRO_ERR_BAD_FEN:
            return "bad FEN";
        case RETRO_ERR_BAD_POSITION:
            return "bad position";
        case RETRO_ERR_TOO_MANY_MEN:
            return "too many men";
        case RETRO_ERR_MISSING_TABLE:
            return "missing table";
        case RETRO_ERR_CORRUPTED:
            return "corrupted table file";
        case RETRO_ERR_NO_MOVE:
            return "no legal move";
        case RETRO_ERR_BUFFER_TOO_SMALL:
            return "buffer too small";
        case RETRO_ERR_NO_MEMORY:
            return "out of memory";
        case RETRO_ERR_INTERNAL:
            return "internal error";
    }
    return "unknown status";
}

retro_status retro_open(const char* dir, size_t cache_bytes, retro_tablebase** out) {
    return guarded(RETRO_ERR_ARGUMENT, [&] {
        retro_tablebase*& handle = required(out, "the handle pointer");
        handle = nullptr;
        if (!dir) throw ArgumentError("the directory is null");
        auto tb = std::make_unique<retro_tablebase>();
        tb->tables = Tablebase::open_directory(dir, cache_bytes ? cache_bytes : BlockCache::DEFAULT_BYTES);
        handle = tb.release();
        return RETRO_OK;
    });
}

void retro_close(retro_tablebase* tb) { delete tb; }

retro_status retro_parse_fen(const char* fen, retro_position* out) {
    return guarded(RETRO_ERR_BAD_FEN, [&] {
        required(out, "the position") = to_bits(from_fen(fen));
        return RETRO_OK;
    });
}

retro_status retro_probe(const retro_tablebase* tb, const retro_position* pos, retro_value* out) {
    return guarded(RETRO_ERR_BAD_POSITION,
                   [&] { return probe(tb, to_position(required(pos, "the position")), out); });
}

retro_status retro_probe_fen(const retro_tablebase* tb, const char* fen, retro_value* out) {
    return guarded(RETRO_ERR_BAD_FEN, [&] { return probe(tb, from_fen(fen), out); });
}

retro_status retro_best_move(const retro_tablebase* tb, const retro_position* pos, retro_move* out) {
    return guarded(RETRO_ERR_BAD_POSITION,
                   [&] { return best(tb, to_position(required(pos, "the position")), out); });
}

retro_status retro_best_move_fen(const retro_tablebase* tb, const char* fen, retro_move* out) {
    return guarded(RETRO_ERR_BAD_FEN, [&] { return best(tb, from_fen(fen), out); });
}

retro_status retro_moves(const retro_tablebase* tb, const retro_position* pos, retro_move* out,
                         size_t capacity, size_t* count) {
    return guarded(RETRO_ERR_BAD_POSITION, [&] {
        return moves(tb, to_position(required(pos, "the position")), out, capacity, count);
    });
}

retro_status retro_moves_fen(const retro_tablebase* tb, const char* fen, retro_move* out, size_t capacity,
                             size_t* count) {
    return guarded(RETRO_ERR_BAD_FEN, [&] { return moves(tb, from_fen(fen), out, capacity, count); });
}

}  // extern "C"
