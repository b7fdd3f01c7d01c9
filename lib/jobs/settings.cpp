#include "jobs/settings.hpp"

#include "jobs/estimates.hpp"
#include "jobs/heap.hpp"
#include "jobs/threads.hpp"

namespace retro {

JobResources job_resources(const JobSettings& settings) {
    JobResources r;
    r.memory_limit = settings.memory_limit ? *settings.memory_limit : available_memory_bytes().value_or(0);
    r.cache = settings.cache ? *settings.cache : r.memory_limit ? r.memory_limit / 2 : UINT64_MAX;
    r.threads = thread_count(settings.threads);
    r.codecs = codec_bytes(settings.write, r.threads) + kept_heap_bytes(r.threads);
    return r;
}

std::optional<uint64_t> free_disk_bytes(const std::filesystem::path& dir) {
    std::filesystem::path existing = std::filesystem::absolute(dir);
    while (!std::filesystem::exists(existing) && existing.has_relative_path())
        existing = existing.parent_path();
    std::error_code ec;
    const auto space = std::filesystem::space(existing, ec);
    if (ec) return std::nullopt;
    return space.available;
}

}  // namespace retro
