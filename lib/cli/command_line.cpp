#include "cli/command_line.hpp"

namespace po = boost::program_options;

namespace retro {

CommandLine parse_command_line(int argc, const char* const* argv, const po::options_description& visible) {
    po::options_description hidden;
    hidden.add_options()("arguments", po::value<std::vector<std::string>>()->default_value({}, ""), "");
    po::options_description all;
    all.add(visible).add(hidden);
    po::positional_options_description positional;
    positional.add("arguments", -1);
    CommandLine line;
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), line.options);
    po::notify(line.options);
    line.arguments = line.options["arguments"].as<std::vector<std::string>>();
    return line;
}

}  // namespace retro
