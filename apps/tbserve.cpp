// tbserve: the tables over HTTP, as JSON in the shape of lichess's tablebase API, with a page at "/"
// to look positions up in a browser (lib/serve/, docs/server.md).
#include <boost/program_options.hpp>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include "cli/command_line.hpp"
#include "serve/http_server.hpp"
#include "store/table_file.hpp"

namespace po = boost::program_options;
using namespace retro;

int main(int argc, char** argv) {
    po::options_description visible(
        "tbserve: serve the tables over HTTP.\n"
        "Usage: tbserve [options]\n"
        "  GET  /standard?fen=FEN            value of the position and of every move, best first\n"
        "  GET  /standard/mainline?fen=FEN   the line of perfect play to mate\n"
        "  POST /standard/batch              body [\"FEN\", ...] or {\"fens\": [...]}: one answer each\n"
        "  GET  /                            a page to look positions up in a browser\n"
        "Answers are JSON in the shape of lichess's tablebase API (docs/server.md).\n"
        "Example: tbserve --tables tables --port 9000\n"
        "Options");
    visible.add_options()("help,h", "show this help")(
        "tables,d", po::value<std::string>()->default_value("tables"),
        "directory of table files (from tbgen -o)")("port,p", po::value<uint16_t>()->default_value(9000),
                                                    "TCP port; 0 picks a free one (printed at start)")(
        "bind", po::value<std::string>()->default_value("127.0.0.1"),
        "address to listen on (0.0.0.0 or :: for every interface)")(
        "threads,t", po::value<int>()->default_value(0), "threads answering requests (0: one per core)")(
        "cache", po::value<size_t>()->default_value(64), "MiB of decompressed blocks kept for probing")(
        "max-batch", po::value<size_t>()->default_value(1000), "most FENs in one batch request")(
        "access-log", "print one line per request on standard output");
    try {
        const CommandLine line = parse_command_line(argc, argv, visible);
        const po::variables_map& vm = line.options;
        if (vm.count("help")) {
            std::cout << visible << "\n";
            return 0;
        }
        if (!line.arguments.empty()) throw po::error("unexpected argument '" + line.arguments.front() + "'");
        const std::string dir = vm["tables"].as<std::string>();
        std::set<std::string> names;
        try {
            names = table_file_names(dir);
        } catch (const std::filesystem::filesystem_error& e) {
            throw std::runtime_error("cannot read the table directory " + dir + ": " + e.code().message());
        }
        ServerOptions options;
        options.bind = vm["bind"].as<std::string>();
        options.port = vm["port"].as<uint16_t>();
        options.threads = vm["threads"].as<int>();
        if (options.threads < 0) throw po::error("--threads must be 0 (one per core) or more");
        if (options.threads == 0) options.threads = int(std::max(1u, std::thread::hardware_concurrency()));
        options.api.max_batch = vm["max-batch"].as<size_t>();
        options.stop_on_signals = true;
        if (vm.count("access-log")) options.access_log = &std::cout;
        const size_t cache_mib = vm["cache"].as<size_t>();
        const Tablebase tables(dir, cache_mib << 20);
        HttpServer server(tables, options);

        std::string list;
        for (const auto& name : names) list += " " + name;
        std::cout << "tbserve: listening on " << server.url() << " with " << options.threads << " threads, "
                  << names.size() << " tables in " << dir << (names.empty() ? " (none found)" : ":") << list
                  << " (block cache " << cache_mib << " MiB)" << std::endl;
        server.run();
        std::cout << "tbserve: stopped"
                  << (server.stop_signal() ? " by " + std::string(strsignal(server.stop_signal())) : "")
                  << std::endl;
        return 0;
    } catch (const po::error& e) {
        std::cerr << "tbserve: " << e.what() << " (see tbserve --help)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tbserve: error: " << e.what() << "\n";
        return 2;
    }
}
