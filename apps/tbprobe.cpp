// tbprobe: value, best move and line to mate of positions from the tables; play against them in the
// terminal; or serve them to chess GUIs as a UCI engine.
#include <boost/program_options.hpp>
#include <iostream>

#include "cli/command_line.hpp"
#include "probe/game.hpp"
#include "probe/report.hpp"
#include "probe/uci_engine.hpp"

namespace po = boost::program_options;
using namespace retro;

int main(int argc, char** argv) {
    po::options_description visible(
        "tbprobe: look up chess endgame positions in the tables, play against them, or serve them to a GUI.\n"
        "Usage: tbprobe [options] FEN        value, best move and line to mate of one position\n"
        "       tbprobe [options] --batch    one FEN per line on stdin -> FEN<TAB>value<TAB>best move (UCI)\n"
        "       tbprobe [options] --play [white|black] FEN   play the given side against the tables\n"
        "       tbprobe [options] --uci      UCI engine on stdin/stdout\n"
        "Values are for the side to move, in plies: 'win N' (mates in N plies), 'loss N' ('loss 0' =\n"
        "checkmated) or 'draw'. Either side to move, colours swapped (KvKQ is read from KQvK), every\n"
        "symmetric image and en passant rights work. The 50-move rule is ignored.\n"
        "Example: tbprobe --tables tables '8/8/8/4k3/8/8/8/4K2Q w - - 0 1'\n"
        "Options");
    visible.add_options()("help,h", "show this help")("tables,d",
                                                      po::value<std::string>()->default_value("tables"),
                                                      "directory of table files (from tbgen -o)")(
        "batch",
        "read FENs from stdin, one per line; a bad line gets 'FEN<TAB>error: reason' and the batch goes on")(
        "no-line", "do not print the line to mate")(
        "play", po::value<std::string>()->implicit_value(""),
        "play against the tables from FEN as white or black (default: the side to move)")(
        "uci",
        "run as a UCI engine (position fen ... / go -> bestmove from the tables; options TablebasePath and "
        "TablebaseCache, in MiB)");
    try {
        const CommandLine line = parse_command_line(argc, argv, visible);
        const po::variables_map& vm = line.options;
        auto args = line.arguments;
        const bool batch = vm.count("batch"), uci = vm.count("uci"), play = vm.count("play");
        if (vm.count("help")) {
            std::cout << visible << "\n";
            return 0;
        }
        if (batch + uci + play > 1) throw po::error("--batch, --play and --uci exclude each other");
        const auto names_side = [](const std::string& s) {
            return s == color_name(WHITE) || s == color_name(BLACK);
        };
        std::string side = play ? vm["play"].as<std::string>() : "";
        if (play && side.empty() && !args.empty() && names_side(args.front())) {
            side = args.front();
            args.erase(args.begin());
        } else if (play && !side.empty() && !names_side(side)) {
            // "--play FEN": the option took the FEN's first field as its value.
            if (side.find('/') == std::string::npos)
                throw po::error("--play takes 'white' or 'black', not '" + side + "'");
            args.insert(args.begin(), side);
            side.clear();
        }
        std::string fen;
        for (const auto& a : args) fen += (fen.empty() ? "" : " ") + a;
        if ((batch || uci) && !fen.empty()) throw po::error("--batch and --uci take no FEN argument");
        if (!batch && !uci && fen.empty()) {
            if (play) throw po::error("--play needs a FEN to start from");
            std::cerr << visible << "\n";
            return 2;
        }
        const Tablebase tables(vm["tables"].as<std::string>());
        if (batch) {
            run_batch(tables, std::cin, std::cout);
            return 0;
        }
        if (uci) {
            UciEngine(tables, std::cout).run(std::cin);
            return 0;
        }
        const Position pos = Position::from_fen(fen);
        if (play) {
            const Color human = side.empty() ? pos.side_to_move() : side == color_name(WHITE) ? WHITE : BLACK;
            const GameResult r = play_game(tables, pos, human, std::cin, std::cout);
            return r == GameResult::Stopped ? 2 : 0;
        }
        std::cout << probe_report(tables, pos, !vm.count("no-line"));
        return 0;
    } catch (const po::error& e) {
        std::cerr << "tbprobe: " << e.what() << " (see tbprobe --help)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tbprobe: error: " << e.what() << "\n";
        return 2;
    }
}
