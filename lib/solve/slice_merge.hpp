// A pawn table's slices merged into the whole table: their values (each a Table over its own index)
// and their surveys, written where the whole table's index puts their entries.
#pragma once

#include <memory>
#include <span>

#include "store/table.hpp"
#include "store/write_survey.hpp"

namespace retro {

// Writes the slices' values into the whole table's entries, every one of them still a draw.
void merge(std::span<const Table* const> slices, Table& table);

// Sets the whole table's bits of a slice's entries (`scheme`) that its survey sets.
void merge(const IndexScheme& scheme, const WriteSurvey& slice, WriteSurvey& table);

}  // namespace retro
