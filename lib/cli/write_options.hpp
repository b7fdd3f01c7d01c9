// The command-line options of the apps that write table files (tbgen, tbpack): codec, level, block
// size, the shipping form and settling by exits.
#pragma once

#include <boost/program_options.hpp>

#include "store/table_file.hpp"

namespace retro {

// Adds --codec, --level, --block-entries, --shipping and --self-contained to `options`.
void add_write_options(boost::program_options::options_description& options);

// The WriteOptions those options ask for. Throws std::runtime_error naming a bad value.
WriteOptions write_options_from(const boost::program_options::variables_map& vm);

}  // namespace retro
