// Command lines of the apps: named options plus free arguments (materials, FENs, files).
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace retro {

struct CommandLine {
    boost::program_options::variables_map options;
    std::vector<std::string> arguments;  // everything that is not an option, in order
};

// Parses argv against `visible` (the options --help shows). Throws boost::program_options::error
// for an unknown option or a bad value.
CommandLine parse_command_line(int argc, const char* const* argv,
                               const boost::program_options::options_description& visible);

}  // namespace retro
