#include "solve/layer_sweep.hpp"

namespace retro {

uint64_t sweep_ply(SchemeContext& c, LayerLog& log, int n) {
    uint64_t found = 0;
    for (Color side : {WHITE, BLACK})
        found += n % 2 ? sweep_layer(c, log, side, n, CountDown{c, n})
                       : sweep_layer(c, log, side, n, OfferWin{c, n});
    return found;
}

}  // namespace retro
