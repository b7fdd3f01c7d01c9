// Reads the independent facts in tests/data/oracle (tab-separated, first line names the columns).
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace retro::test {

using Row = std::map<std::string, std::string>;

inline std::vector<Row> read_oracle(const std::string& file) {
    std::ifstream in(std::string(RETRO_ORACLE_DIR) + "/" + file);
    std::vector<Row> rows;
    std::string line;
    std::vector<std::string> header;
    auto split = [](const std::string& s) {
        std::vector<std::string> out;
        std::stringstream ss(s);
        for (std::string f; std::getline(ss, f, '\t');) out.push_back(f);
        return out;
    };
    if (std::getline(in, line)) header = split(line);
    while (std::getline(in, line)) {
        const auto fields = split(line);
        Row row;
        for (size_t i = 0; i < header.size(); ++i) row[header[i]] = i < fields.size() ? fields[i] : "";
        rows.push_back(row);
    }
    return rows;
}

}  // namespace retro::test
