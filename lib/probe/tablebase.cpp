#include "probe/tablebase.hpp"

#include <algorithm>
#include <chrono>
#include <future>

#include "chess/movegen.hpp"
#include "index/dependencies.hpp"
#include "probe/one_ply.hpp"
#include "probe/successors.hpp"
#include "store/block_cache.hpp"
#include "store/table_file.hpp"
#include "store/table_reader.hpp"
#include "store/table_values.hpp"

namespace retro {

namespace {

// A material as a number: 4 bits per (colour, piece type) count, white in the low 24 bits. Never 0
// (each side has a king). Counts fit: probes of more than MAX_MEN men are refused first.
uint64_t material_key(const Material& m) {
    uint64_t key = 0;
    for (Color c : {WHITE, BLACK})
        for (int t = 0; t < PIECE_TYPE_COUNT; ++t)
            key |= uint64_t(m.count(c, PieceType(t))) << (4 * (6 * c + t));
    return key;
}

uint64_t material_key(const Position& pos) {
    uint64_t key = 0;
    for (Color c : {WHITE, BLACK})
        for (int t = 0; t < PIECE_TYPE_COUNT; ++t)
            key |= uint64_t(popcount(pos.pieces(c, PieceType(t)))) << (4 * (6 * c + t));
    return key;
}

constexpr uint64_t swapped_key(uint64_t key) { return (key >> 24) | ((key & 0xFFFFFF) << 24); }

constexpr size_t slot_of(uint64_t key, size_t slots) {
    return size_t((key * 0x9E3779B97F4A7C15ULL) >> 40) % slots;
}

}  // namespace

Tablebase::Tablebase(std::filesystem::path dir, size_t cache_bytes)
    : dir_(std::move(dir)), cache_(std::make_shared<BlockCache>(cache_bytes)) {}

Tablebase::Tablebase(const Tablebase& holder, Completing)
    : dir_(holder.dir_),
      cache_(holder.cache_),
      stop_(holder.stop_),
      holder_(&holder),
      exact_copies_(holder.exact_copies_),
      exact_copy_dir_(holder.exact_copy_dir_),
      completion_told_(holder.completion_told_) {}

Tablebase::~Tablebase() = default;

std::unique_ptr<Tablebase> Tablebase::open_directory(const std::filesystem::path& dir, size_t cache_bytes) {
    std::error_code error;
    const auto status = std::filesystem::status(dir, error);
    if (!std::filesystem::is_directory(status))
        throw ProbeError((std::filesystem::exists(status) ? "not a directory: " : "no such directory: ") +
                         dir.string());
    return std::make_unique<Tablebase>(dir, cache_bytes);
}

void Tablebase::add(std::shared_ptr<const Table> table) {
    std::lock_guard lock(mutex_);
    auto& entry = tables_[table->material()];
    if (entry) retired_.push_back(entry);
    entry = std::move(table);
    publish(entry->material(), entry.get(), nullptr);
}

void Tablebase::publish(const Material& canonical, const Table* table, const TableReader* reader) const {
    const uint64_t key = material_key(canonical);
    for (size_t i = 0, s = slot_of(key, SLOTS); i < SLOTS; ++i, s = (s + 1) % SLOTS) {
        const uint64_t k = slots_[s].key.load(std::memory_order_relaxed);
        if (k != 0 && k != key) continue;
        if (table) slots_[s].table.store(table, std::memory_order_release);
        if (reader) slots_[s].reader.store(reader, std::memory_order_release);
        slots_[s].key.store(key, std::memory_order_release);
        return;
    }
    // All slots taken: probes of this material go through open() and the mutex.
}

const Tablebase::Slot* Tablebase::lookup(uint64_t key) const {
    for (size_t i = 0, s = slot_of(key, SLOTS); i < SLOTS; ++i, s = (s + 1) % SLOTS) {
        const uint64_t k = slots_[s].key.load(std::memory_order_acquire);
        if (k == key) return &slots_[s];
        if (k == 0) return nullptr;
    }
    return nullptr;
}

namespace {

SideSet sides_held(const Table& t) {
    return SideSet((t.has_side(WHITE) ? side_bit(WHITE) : 0) | (t.has_side(BLACK) ? side_bit(BLACK) : 0));
}

// The values of `sides` from the exact copy in copy_dir of m's file in dir, or nullptr when there is
// no current copy or it does not read as a self-contained table: the file itself is read then.
std::unique_ptr<Table> read_exact_copy(const std::filesystem::path& dir,
                                       const std::filesystem::path& copy_dir, const Material& m,
                                       SideSet sides, const std::atomic<bool>* stop) {
    if (!exact_copy_current(dir, m, copy_dir, sides)) return nullptr;
    try {
        StoredTable stored = read_stored_table(exact_copy_path(copy_dir, m), sides, stop);
        if (stored.exits_settled || (stored.dropped && (sides & side_bit(*stored.dropped)))) return nullptr;
        return std::move(stored.table);
    } catch (const StoreError&) {  // a stop (Stopped) goes on up
        return nullptr;
    }
}

}  // namespace

std::shared_ptr<const Table> Tablebase::load(const Material& canonical, SideSet sides) const {
    const auto path = table_path(dir_, canonical);
    if (!std::filesystem::exists(path)) return nullptr;
    if (exact_copies_)
        if (auto copy = read_exact_copy(dir_, exact_copy_dir_, canonical, sides, stop_)) return copy;
    const format::Header header = TableReader(path, format::Metric::Dtm).header();
    {
        std::lock_guard lock(mutex_);
        require_subtables(canonical, header);
    }
    // The shipping form's dropped side is rebuilt from the kept side's complete values.
    const std::optional<Color> dropped = header.dropped;
    if (dropped && (sides & side_bit(*dropped))) sides |= side_bit(~*dropped);
    const auto start = std::chrono::steady_clock::now();
    StoredTable stored = read_stored_table(path, sides, stop_);
    const Tablebase completion(*this, Completing{});
    if (stored.exits_settled)
        for (Color side : {WHITE, BLACK})
            if (stored.dropped != side && (sides & side_bit(side)))
                apply_exits(*stored.table, side, completion, stop_);
    const bool rebuilt = dropped && (sides & side_bit(*dropped));
    if (rebuilt) rebuild_side(*stored.table, *dropped, completion, stop_);
    if ((stored.exits_settled || rebuilt) && completion_told_)
        completion_told_(canonical,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return std::move(stored.table);
}

std::shared_ptr<const Table> Tablebase::held(const Material& canonical, SideSet sides) const {
    {
        std::lock_guard lock(mutex_);
        const auto it = tables_.find(canonical);
        if (it != tables_.end() && (sides_held(*it->second) & sides) == sides) return it->second;
    }
    return holder_ ? holder_->held(canonical, sides) : nullptr;
}

std::shared_ptr<const Table> Tablebase::find(const Material& m, SideSet sides) const {
    const Material canonical = m.canonical();
    if (holder_)
        if (auto table = holder_->held(canonical, sides)) return table;
    for (;;) {
        std::promise<std::shared_ptr<const Table>> loaded;
        std::shared_future<std::shared_ptr<const Table>> pending;
        SideSet want = sides;
        {
            std::lock_guard lock(mutex_);
            const auto it = tables_.find(canonical);
            if (it != tables_.end()) {
                const SideSet held = sides_held(*it->second);
                if ((held & sides) == sides || dir_.empty()) return it->second;
                want |= held;  // read again with both sides: the partial table stays with its users
            }
            if (dir_.empty()) return nullptr;
            const auto [loading, first] = loading_.try_emplace(canonical);
            if (first)
                loading->second = loaded.get_future().share();
            else
                pending = loading->second;
        }
        if (pending.valid()) {  // another thread reads it (rethrows its error); then look again
            pending.get();
            continue;
        }
        // This thread reads the file, without the lock: a whole table takes a while to decompress,
        // and other probes and finds go on meanwhile.
        try {
            std::shared_ptr<const Table> table = load(canonical, want);
            std::lock_guard lock(mutex_);
            loading_.erase(canonical);
            if (table) {
                auto [it, inserted] = tables_.try_emplace(canonical, table);
                if (!inserted && (sides_held(*it->second) & sides_held(*table)) == sides_held(*table))
                    table = it->second;  // add() came first with the whole table
                else
                    it->second = table;
                if (sides_held(*table) == BOTH_SIDES) publish(canonical, table.get(), nullptr);
            }
            loaded.set_value(table);
            return table;
        } catch (...) {
            {
                std::lock_guard lock(mutex_);
                loading_.erase(canonical);
            }
            loaded.set_exception(std::current_exception());
            throw;
        }
    }
}

std::vector<Material> Tablebase::held_tables() const {
    std::lock_guard lock(mutex_);
    std::vector<Material> held;
    for (const auto& entry : tables_) held.push_back(entry.first);
    return held;
}

std::unique_ptr<TableValues> Tablebase::values(const Material& m) const {
    const Material canonical = m.canonical();
    {
        std::lock_guard lock(mutex_);
        if (auto it = tables_.find(canonical); it != tables_.end() && sides_held(*it->second) == BOTH_SIDES)
            return std::make_unique<TableInMemory>(it->second);
    }
    auto reader = open(canonical);
    return reader ? std::make_unique<FileValues>(std::move(reader)) : nullptr;
}

void Tablebase::require_subtables(const Material& canonical, const format::Header& h) const {
    if (!h.exits_settled() && !h.dropped) return;
    std::vector<Material> missing;
    for (const Material& sub : direct_subtables(canonical))
        if (!tables_.contains(sub) && !(holder_ && holder_->held(sub, 0)) &&
            !std::filesystem::exists(table_path(dir_, sub)))
            missing.push_back(sub);
    if (missing.empty()) return;
    throw MissingSubtablesError(table_path(dir_, canonical).string() +
                                " reads its values through the tables one capture or promotion away, and " +
                                list_names(missing) + (missing.size() == 1 ? " is" : " are") +
                                " missing from " + dir_.string());
}

std::shared_ptr<const TableReader> Tablebase::open(const Material& canonical) const {
    std::lock_guard lock(mutex_);
    if (auto it = readers_.find(canonical); it != readers_.end()) return it->second;
    if (dir_.empty()) return nullptr;
    const auto path = table_path(dir_, canonical);
    if (!std::filesystem::exists(path)) return nullptr;
    auto reader = std::make_shared<const TableReader>(path, format::Metric::Dtm, cache_);
    require_subtables(canonical, reader->header());
    readers_[canonical] = reader;
    publish(canonical, nullptr, reader.get());
    return reader;
}

Bounded Tablebase::probe_ignoring_ep(const Position& pos, Need need) const {
    const int men = popcount(pos.occupied());
    if (men == 2) return {DTM_DRAW, true};
    if (men > MAX_MEN)
        throw TooManyMenError("the position has " + std::to_string(men) + " men; tables hold at most " +
                              std::to_string(MAX_MEN));
    // Fast path: a table or file already open, found without a lock.
    const uint64_t key = material_key(pos);
    for (const bool flip : {false, true})
        if (const Slot* slot = lookup(flip ? swapped_key(key) : key)) {
            if (const Table* t = slot->table.load(std::memory_order_acquire))
                return {flip ? t->value(pos.color_flipped()) : t->value(pos), true};
            if (const TableReader* r = slot->reader.load(std::memory_order_acquire))
                return value_from_file(*r, pos, flip, need);
        }
    const Material m = Material::of(pos);
    const Material canonical = m.canonical();
    {
        std::lock_guard lock(mutex_);
        if (auto it = tables_.find(canonical); it != tables_.end())
            return {probe_table(*it->second, pos), true};
    }
    const auto reader = open(canonical);
    if (!reader)
        throw MissingTableError("no table for " + canonical.name() +
                                (dir_.empty() ? std::string() : " in " + dir_.string()));
    return value_from_file(*reader, pos, !(m == canonical), need);
}

Bounded Tablebase::value_from_file(const TableReader& reader, const Position& pos, bool flipped,
                                   Need need) const {
    const auto exact = [&](const Position& next) { return probe(next); };
    if (reader.stores(pos, flipped)) {
        const Dtm stored = reader.value(pos, flipped);
        if (!reader.header().exits_settled()) return {stored, true};
        if (need == Need::Floor) return {stored, false};
        return {with_exits(pos, stored, exact), true};
    }
    // The shipping form's dropped side: one ply of minimax over the successors.
    return {one_ply_value_bounded(
                pos, [&](const Position& next) { return probe(next, Need::Floor); },
                [&](const Position& next, Dtm floor) { return with_exits(next, floor, exact); }),
            true};
}

Dtm Tablebase::probe(const Position& pos) const { return probe(pos, Need::Exact).value; }

Bounded Tablebase::probe(const Position& pos, Need need) const {
    Position plain = pos;
    plain.set_ep_square(NO_SQUARE);
    if (!has_legal_ep_capture(pos)) return probe_ignoring_ep(plain, need);
    // The index holds positions without the right; the right only adds the en passant captures.
    // When they are the only moves, the position without the right has none (a stalemate or a
    // mate there), and only the captures count.
    MoveList moves;
    generate_legal_moves(pos, moves);
    const bool only_en_passant =
        std::all_of(moves.begin(), moves.end(), [](const Move& m) { return m.en_passant; });
    Dtm best = only_en_passant ? Dtm(0) : probe_ignoring_ep(plain, Need::Exact).value;
    for (const Move& m : moves)
        if (m.en_passant) {
            const Dtm v = value_through(probe_ignoring_ep(make_move(pos, m), Need::Exact).value);
            if (better(v, best)) best = v;
        }
    return {best, true};
}

std::vector<std::pair<Move, Dtm>> Tablebase::rank_moves(const Position& pos) const {
    MoveList moves;
    generate_legal_moves(pos, moves);
    struct Ranked {
        Move move;
        Dtm value;
        std::string uci;
    };
    std::vector<Ranked> all;
    for (const Move& m : moves) all.push_back({m, value_through(probe(make_move(pos, m))), to_uci(m)});
    std::sort(all.begin(), all.end(), [](const Ranked& a, const Ranked& b) {
        return better(a.value, b.value) || (!better(b.value, a.value) && a.uci < b.uci);
    });
    std::vector<std::pair<Move, Dtm>> ranked;
    for (const Ranked& r : all) ranked.emplace_back(r.move, r.value);
    return ranked;
}

}  // namespace retro
