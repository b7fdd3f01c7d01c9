#include "solve/far_codes.hpp"

#include <cassert>

#include "solve/code_scan.hpp"
#include "solve/entry_exits.hpp"

namespace retro {

void refresh_far(SchemeContext& c, int n) {
    using namespace state;
    for (Color side : {WHITE, BLACK}) {
        auto& codes = c.state.codes[side];
        par::parallel_for(tbb::blocked_range<uint64_t>(0, codes.size(), GRAIN), [&](const auto& r) {
            for_each_code(codes, r.begin(), r.end(), FAR_WIN, FAR_LOSS, [&](uint64_t local) {
                const uint64_t i = c.owned.begin + local;
                const Entry e = c.load_entry(side, i);
                const MoveList moves = leaving_moves(e.pos);
                const int ply = codes[local] == FAR_LOSS ? longest_exit_wins(c.exits, e, moves).longest + 1
                                                         : fold_exits(c.exits, e, moves).best_win;
                assert(ply >= n && ply < NO_WIN);
                if (c.window.fits(ply, n)) codes[local] = c.pending_code(side, i, ply);
            });
        });
    }
}

}  // namespace retro
