#include "jobs/progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

namespace retro {

std::function<void(uint64_t, uint64_t)> percent_lines(std::string doing,
                                                      std::chrono::steady_clock::time_point& last_line,
                                                      std::function<void(const std::string&)> line,
                                                      TimeLeft time_left) {
    // The rate counts from the first call: a resumed step starts part way.
    return [doing = std::move(doing), &last_line, line = std::move(line), time_left,
            first = std::optional<std::pair<uint64_t, std::chrono::steady_clock::time_point>>()](
               uint64_t done, uint64_t entries) mutable {
        if (!first) first = {done, std::chrono::steady_clock::now()};
        if (done == entries || seconds_since(last_line) < PROGRESS_LINE_SECONDS) return;
        std::string text = doing + " " + format_percent(double(done) / double(entries)) + " of the entries";
        if (time_left == TimeLeft::Say && done > first->first)
            text += ", about " +
                    format_duration(seconds_since(first->second) * double(entries - done) /
                                    double(done - first->first)) +
                    " left";
        line(text);
        last_line = std::chrono::steady_clock::now();
    };
}

std::string format_percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
    return text;
}

std::string passes_text(const Control::PhaseSeconds& phases) {
    double total = 0;
    for (double seconds : phases) total += seconds;
    if (total < 1) return "";
    std::string out = "the solve's passes:";
    const char* separator = " ";
    for (int p = 0; p < Control::PHASES; ++p) {
        if (phases[size_t(p)] < 1e-3) continue;
        out += separator + std::string(Control::PHASE_NAMES[size_t(p)]) + " " +
               format_duration(phases[size_t(p)]);
        separator = ", ";
    }
    return out;
}

std::string format_duration(double seconds) {
    char buf[48];
    const long s = std::lround(std::max(0.0, seconds));
    if (seconds < 10)
        std::snprintf(buf, sizeof buf, "%.1f s", std::max(0.0, seconds));
    else if (s < 60)
        std::snprintf(buf, sizeof buf, "%ld s", s);
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%ld min %02ld s", s / 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
    return buf;
}

JobProgress::JobProgress(std::vector<std::pair<Material, uint64_t>> tables)
    : tables_(std::move(tables)), finished_(tables_.size(), false) {
    for (const auto& t : tables_) total_ += t.second;
}

void JobProgress::add_history(const Material& m, uint64_t entries, double seconds) {
    Rate& r = rates_[{m.total(), m.has_pawns()}];
    r.entries += entries;
    r.seconds += seconds;
}

int JobProgress::add_history_file(const std::filesystem::path& times) {
    std::ifstream in(times);
    std::string line;
    int taken = 0;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string name;
        uint64_t entries = 0;
        double seconds = 0;
        if (!(fields >> name >> entries >> seconds)) continue;
        try {
            add_history(Material::parse(name), entries, seconds);
            ++taken;
        } catch (const std::exception&) {
        }
    }
    return taken;
}

bool JobProgress::has_rate(const Material& m) const {
    const auto it = rates_.find({m.total(), m.has_pawns()});
    return it != rates_.end() && it->second.entries > 0 && it->second.seconds > 0;
}

size_t JobProgress::find_pending(const Material& m) const {
    for (size_t i = 0; i < tables_.size(); ++i)
        if (tables_[i].first == m && !finished_[i]) return i;
    return tables_.size();
}

void JobProgress::table_started(const Material& m, Clock::time_point now) {
    const size_t i = find_pending(m);
    if (i == tables_.size()) return;
    running_ = i;
    table_start_ = now;
    table_fraction_ = 0;
    slices_start_.reset();
    chain_.reset();
    chain_seconds_ = 0;
}

void JobProgress::chain_finished(Clock::time_point now) {
    if (running_ && chain_) chain_seconds_ = std::chrono::duration<double>(now - table_start_).count();
    chain_.reset();
}

void JobProgress::table_progress(double fraction, Clock::time_point now) {
    if (!running_) return;
    table_fraction_ = std::clamp(fraction, 0.0, 1.0);
    seconds_at_fraction_ = std::chrono::duration<double>(now - table_start_).count();
    if (!slices_start_) slices_start_ = {seconds_at_fraction_, table_fraction_};
}

std::optional<double> JobProgress::running_expected() const {
    const auto& [m, entries] = tables_[*running_];
    const auto by_rates = expected_seconds(m, entries);
    if (!slices_start_ || table_fraction_ >= 1) {
        if (by_rates) return chain_seconds_ + *by_rates;
        return std::nullopt;
    }
    const auto [start_seconds, start_fraction] = *slices_start_;
    if (table_fraction_ > start_fraction)
        return seconds_at_fraction_ + (seconds_at_fraction_ - start_seconds) * (1 - table_fraction_) /
                                          (table_fraction_ - start_fraction);
    if (by_rates) return start_seconds + *by_rates * (1 - start_fraction);
    return std::nullopt;
}

double JobProgress::job_fraction() const {
    if (!total_) return 1.0;
    const double running = running_ ? table_fraction_ * double(tables_[*running_].second) : 0;
    return (double(done_) + running) / double(total_);
}

void JobProgress::table_finished(Clock::time_point now) {
    if (!running_) return;
    const auto& [m, entries] = tables_[*running_];
    Rate& r = rates_[{m.total(), m.has_pawns()}];
    r.entries += entries;
    r.seconds += std::chrono::duration<double>(now - table_start_).count() - chain_seconds_;
    done_ += entries;
    finished_[*running_] = true;
    ++tables_done_;
    running_.reset();
}

void JobProgress::table_built_elsewhere(const Material& m) {
    const size_t i = find_pending(m);
    if (i == tables_.size() || running_ == i) return;
    done_ += tables_[i].second;
    finished_[i] = true;
    ++tables_done_;
}

std::optional<double> JobProgress::rate_for(const Material& m) const {
    auto rate = [](uint64_t entries, double seconds) -> std::optional<double> {
        if (entries == 0 || seconds <= 0) return std::nullopt;
        return double(entries) / seconds;
    };
    if (auto it = rates_.find({m.total(), m.has_pawns()}); it != rates_.end())
        if (auto r = rate(it->second.entries, it->second.seconds)) return r;
    Rate same_men, all;
    for (const auto& [kind, r] : rates_) {
        all.entries += r.entries, all.seconds += r.seconds;
        if (kind.first == m.total()) same_men.entries += r.entries, same_men.seconds += r.seconds;
    }
    if (auto r = rate(same_men.entries, same_men.seconds)) return r;
    return rate(all.entries, all.seconds);
}

std::optional<double> JobProgress::expected_seconds(const Material& m, uint64_t entries) const {
    if (!has_rate(m))
        if (const auto prior = priors_.find(m.name()); prior != priors_.end()) return prior->second;
    const auto r = rate_for(m);
    if (!r) return std::nullopt;
    return double(entries) / *r;
}

std::optional<double> JobProgress::table_eta(Clock::time_point now) const {
    if (!running_) return 0.0;
    const auto expected = running_expected();
    if (!expected) return std::nullopt;
    const double left = *expected - std::chrono::duration<double>(now - table_start_).count();
    if (left < 0) return std::nullopt;
    return left;
}

std::optional<double> JobProgress::pending_seconds() const {
    double seconds = 0;
    for (size_t i = 0; i < tables_.size(); ++i) {
        if (finished_[i] || running_ == i) continue;
        const auto e = expected_seconds(tables_[i].first, tables_[i].second);
        if (!e) return std::nullopt;
        seconds += *e;
    }
    return seconds;
}

std::optional<double> JobProgress::job_eta(Clock::time_point now) const {
    double left = 0;
    if (running_ && chain_) {  // its solve is still to come, after the chain's unknown rest
        const auto& [m, entries] = tables_[*running_];
        const auto expected = expected_seconds(m, entries);
        if (!expected) return std::nullopt;
        left = *expected;
    } else if (running_) {
        const auto expected = running_expected();
        if (!expected) return std::nullopt;
        // A table over its estimate counts as nearly done.
        left = std::max(0.0, *expected - std::chrono::duration<double>(now - table_start_).count());
    }
    const auto pending = pending_seconds();
    if (!pending) return std::nullopt;
    return left + *pending / processes_;
}

std::string JobProgress::status(Clock::time_point now) const {
    std::string out;
    bool overrun = false;  // the current table took longer than expected: its end is unknown
    if (running_) {
        const double elapsed = std::chrono::duration<double>(now - table_start_).count();
        out = "table " + format_duration(elapsed);
        if (chain_) {
            out += ", completing its sub-tables (" + std::to_string(chain_->first) + " of " +
                   std::to_string(chain_->second) + " done), job " + format_percent(job_fraction());
            const auto eta = job_eta(now);
            return out + (eta ? " (ETA: the sub-tables left, then ~" + format_duration(*eta) + ")"
                              : std::string(" (ETA unknown yet)"));
        }
        if (const auto e = running_expected()) {
            out += " of ~" + format_duration(*e);
            overrun = elapsed > *e;
        }
        out += ", ";
    }
    out += "job " + format_percent(job_fraction());
    const auto eta = job_eta(now);
    if (!eta)
        out += " (ETA unknown yet)";
    else if (!overrun)
        out += " (ETA " + format_duration(*eta) +
               (processes_ > 1 ? ", shared with " + std::to_string(processes_ - 1) + " other process" +
                                     (processes_ > 2 ? "es" : "")
                               : "") +
               ")";
    else if (tables_done_ + 1 < int(tables_.size()))
        out += " (ETA: this table past its estimate, then ~" + format_duration(*eta) + ")";
    else
        out += " (ETA unknown: this table is past its estimate)";
    return out;
}

}  // namespace retro
