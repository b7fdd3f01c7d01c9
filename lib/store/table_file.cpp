#include "store/table_file.hpp"

#include "store/checksum.hpp"

#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace retro {

namespace {

constexpr char MAGIC[8] = {'R', 'E', 'T', 'R', 'O', 'T', 'B', '\0'};
constexpr uint32_t VERSION = 0;
constexpr uint32_t INDEX_SCHEME = 1;

struct Header {
    char magic[8];
    uint32_t version;
    uint32_t index_scheme;
    char material[16];
    uint64_t entries_per_side;
    uint64_t payload_checksum;
    uint64_t header_checksum;  // over all the fields above
};
static_assert(sizeof(Header) == 56);

uint64_t payload_checksum(const Table& t) {
    uint64_t h = checksum64(t.values[WHITE].data(), t.values[WHITE].size());
    return checksum64(t.values[BLACK].data(), t.values[BLACK].size(), h);
}

struct File {
    std::FILE* f;
    ~File() {
        if (f) std::fclose(f);
    }
};

}  // namespace

std::filesystem::path table_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".rtb");
}

void write_table(const Table& table, const std::filesystem::path& path) {
    Header h{};
    std::memcpy(h.magic, MAGIC, sizeof MAGIC);
    h.version = VERSION;
    h.index_scheme = INDEX_SCHEME;
    std::strncpy(h.material, table.material().name().c_str(), sizeof h.material - 1);
    h.entries_per_side = table.scheme.size();
    h.payload_checksum = payload_checksum(table);
    h.header_checksum = checksum64(&h, offsetof(Header, header_checksum));

    const std::filesystem::path tmp = path.string() + ".tmp";
    File out{std::fopen(tmp.c_str(), "wb")};
    if (!out.f) throw StoreError(tmp.string() + ": cannot create: " + std::strerror(errno));
    bool ok = std::fwrite(&h, sizeof h, 1, out.f) == 1;
    for (const auto& v : table.values) ok = ok && std::fwrite(v.data(), 1, v.size(), out.f) == v.size();
    ok = ok && std::fflush(out.f) == 0 && ::fsync(fileno(out.f)) == 0;
    const int error = errno;
    ok = std::fclose(out.f) == 0 && ok;
    out.f = nullptr;
    if (!ok) {
        std::filesystem::remove(tmp);
        throw StoreError(tmp.string() + ": write failed: " + std::strerror(error));
    }
    std::filesystem::rename(tmp, path);
}

std::unique_ptr<Table> read_table(const std::filesystem::path& path) {
    const std::string name = path.string();
    File in{std::fopen(path.c_str(), "rb")};
    if (!in.f) throw StoreError(name + ": cannot open: " + std::strerror(errno));
    Header h{};
    if (std::fread(&h, sizeof h, 1, in.f) != 1) throw StoreError(name + ": truncated header");
    if (std::memcmp(h.magic, MAGIC, sizeof MAGIC) != 0) throw StoreError(name + ": not a retrograde table file");
    if (h.header_checksum != checksum64(&h, offsetof(Header, header_checksum)))
        throw StoreError(name + ": header checksum mismatch (corrupted file)");
    if (h.version != VERSION || h.index_scheme != INDEX_SCHEME)
        throw StoreError(name + ": unsupported version " + std::to_string(h.version));
    h.material[sizeof h.material - 1] = 0;
    Material m;
    try {
        m = Material::parse(h.material);
    } catch (const MaterialError& e) {
        throw StoreError(name + ": bad material in header: " + e.what());
    }
    if (path.stem().string() != m.name())
        throw StoreError(name + ": the file holds " + m.name() + ", not what its name says");
    auto table = std::make_unique<Table>(m);
    if (table->scheme.size() != h.entries_per_side) throw StoreError(name + ": index size does not match its material");
    for (auto& v : table->values)
        if (std::fread(v.data(), 1, v.size(), in.f) != v.size()) throw StoreError(name + ": truncated payload");
    if (std::fgetc(in.f) != EOF) throw StoreError(name + ": trailing bytes after the payload");
    if (payload_checksum(*table) != h.payload_checksum) throw StoreError(name + ": payload checksum mismatch (corrupted file)");
    return table;
}

bool table_file_valid(const std::filesystem::path& path) {
    try {
        read_table(path);
        return true;
    } catch (const StoreError&) {
        return false;
    }
}

}  // namespace retro
