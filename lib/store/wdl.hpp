// Win/draw/loss for the side to move, as a WDL bitbase stores it.
#pragma once

#include <cstdint>
#include <string>

#include "store/dtm.hpp"

namespace retro {

enum class Wdl : uint8_t { Loss = 0, Draw = 1, Win = 2 };

constexpr Wdl wdl_of(Dtm v) { return is_win(v) ? Wdl::Win : is_loss(v) ? Wdl::Loss : Wdl::Draw; }

inline std::string describe(Wdl w) { return w == Wdl::Win ? "win" : w == Wdl::Loss ? "loss" : "draw"; }

}  // namespace retro
