// Generating from Python: retrograde.generate runs the library's job runner on a thread of its own
// while the caller waits without the GIL. The caller's thread hands the job's progress to the Python
// callback (so a notebook widget is updated from the thread that owns it) and checks for Ctrl-C; an
// exception from either sets the job's stop flag, the solver checkpoints and stops, and the exception
// is raised once the job has ended.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "bindings.hpp"
#include "jobs/estimates.hpp"
#include "jobs/plan_report.hpp"
#include "jobs/runner.hpp"
#include "jobs/settings.hpp"
#include "jobs/threads.hpp"

namespace py = pybind11;

namespace retro::python {

namespace {

// How often the waiting caller looks for Ctrl-C when the job says nothing.
constexpr auto POLL = std::chrono::milliseconds(100);

std::vector<Material> materials_arg(py::handle arg) {
    std::vector<Material> out;
    if (py::isinstance<py::str>(arg))
        out.push_back(Material::parse(arg.cast<std::string>()).canonical());
    else
        for (py::handle name : py::iter(arg)) out.push_back(Material::parse(py::str(name)).canonical());
    return out;
}

// The job's side: what it has said and not yet handed over, and how it ended.
struct Channel {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<JobStatus> pending;
    bool finished = false;
    JobResult result;
    std::exception_ptr error;
};

// A size from Python: bytes as an int, or a text such as "16G" (parse_bytes); None leaves the default.
std::optional<uint64_t> bytes_arg(py::handle arg, const char* name) {
    if (arg.is_none()) return std::nullopt;
    if (py::isinstance<py::str>(arg)) return parse_bytes(arg.cast<std::string>());
    if (!py::isinstance<py::int_>(arg) || py::isinstance<py::bool_>(arg))
        throw py::type_error(std::string(name) + " must be a number of bytes, a size such as '16G', or None");
    if (arg.cast<py::int_>() < py::int_(0)) throw py::value_error(std::string(name) + " must be 0 or more");
    return arg.cast<uint64_t>();
}

// The keywords generate and plan share, as tbgen's options: the defaults are the library's.
JobSettings settings_arg(int threads, py::handle memory_limit, py::handle cache) {
    if (threads < 0) throw py::value_error("threads must be 0 (all cores) or more");
    JobSettings settings;
    settings.threads = threads;
    settings.memory_limit = bytes_arg(memory_limit, "memory_limit");
    settings.cache = bytes_arg(cache, "cache");
    return settings;
}

// Plans the job with tbgen's policy (writable directory, memory, disk) and runs it; it shares the
// directory with other jobs as tbgen does.
JobResult run(const std::vector<Material>& targets, const std::filesystem::path& dir,
              const JobSettings& settings, const std::atomic<bool>& stop, Channel& channel) {
    check_writable_dir(dir);
    const JobPlan plan = make_plan(targets, dir, settings);
    if (const auto why = refusal(plan)) throw JobError("refused: " + *why);
    JobOptions options;
    options.stop = &stop;
    options.status = [&](const JobStatus& s) {
        const std::lock_guard hold(channel.mutex);
        channel.pending.push_back(s);
        channel.changed.notify_one();
    };
    return with_threads(settings.threads, [&] { return run_job(plan, options); });
}

JobResult generate(py::handle materials, const std::filesystem::path& dir, int threads, py::object progress,
                   py::handle memory_limit, py::handle cache) {
    const JobSettings settings = settings_arg(threads, memory_limit, cache);
    if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
        throw py::type_error("progress must be callable");
    const std::vector<Material> targets = materials_arg(materials);
    Channel channel;
    std::atomic<bool> stop{false};
    std::thread job([&] {
        JobResult result;
        std::exception_ptr error;
        try {
            result = run(targets, dir, settings, stop, channel);
        } catch (...) {
            error = std::current_exception();
        }
        const std::lock_guard hold(channel.mutex);
        channel.result = std::move(result);
        channel.error = error;
        channel.finished = true;
        channel.changed.notify_one();
    });
    std::exception_ptr raised;  // by the callback or a signal handler; the job is told to stop
    for (bool finished = false; !finished;) {
        std::deque<JobStatus> said;
        {
            py::gil_scoped_release unlocked;
            std::unique_lock hold(channel.mutex);
            channel.changed.wait_for(hold, POLL,
                                     [&] { return channel.finished || !channel.pending.empty(); });
            said.swap(channel.pending);
            finished = channel.finished;
        }
        if (raised) continue;
        try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (!progress.is_none())
                for (const JobStatus& s : said) progress(s);
        } catch (...) {
            raised = std::current_exception();
            stop = true;
        }
    }
    job.join();
    if (raised) std::rethrow_exception(raised);
    if (channel.error) std::rethrow_exception(channel.error);
    return channel.result;
}

// What generate would do, as tbgen --dry-run says it.
struct PlanLines {
    std::vector<std::string> lines;
    std::optional<std::string> refusal;
};

PlanLines plan(py::handle materials, const std::filesystem::path& dir, int threads, py::handle memory_limit,
               py::handle cache) {
    const JobSettings settings = settings_arg(threads, memory_limit, cache);
    const std::vector<Material> targets = materials_arg(materials);
    py::gil_scoped_release unlocked;  // the files already there are read and checked
    const JobPlan planned = make_plan(targets, dir, settings);
    return {plan_report(planned), refusal(planned)};
}

std::vector<std::string> built_names(const JobResult& r) {
    std::vector<std::string> names;
    for (const BuiltTable& t : r.built) names.push_back(t.material.name());
    return names;
}

}  // namespace

void bind_generation(py::module_& m) {
    py::class_<JobStatus>(m, "Progress",
                          "Where a generation job stands, handed to generate's progress callback. "
                          "str() gives the line tbgen prints.")
        .def_property_readonly(
            "material", [](const JobStatus& s) { return s.material.name(); }, "the table being built")
        .def_readonly("table", &JobStatus::table, "its place among the tables to build, from 1")
        .def_readonly("tables", &JobStatus::tables, "how many tables the job builds")
        .def_readonly("fraction", &JobStatus::fraction,
                      "the job's index entries in the tables finished so far, 0 to 1")
        .def_readonly("message", &JobStatus::message, "the line tbgen prints")
        .def("__str__", [](const JobStatus& s) { return s.message; })
        .def("__repr__", [](const JobStatus& s) {
            return "<retrograde.Progress " + s.material.name() + " " + std::to_string(s.table) + "/" +
                   std::to_string(s.tables) + ": " + s.message + ">";
        });
    py::class_<JobResult>(m, "JobResult", "What a generation job did.")
        .def_property_readonly("built", &built_names, "the materials built by this call, in order")
        .def_readonly("skipped", &JobResult::skipped, "how many tables were complete already")
        .def_readonly("seconds", &JobResult::seconds, "wall time of the job")
        .def("__repr__", [](const JobResult& r) {
            std::string names;
            for (const std::string& name : built_names(r)) {
                if (!names.empty()) names += ' ';
                names += name;
            }
            return "<retrograde.JobResult built [" + names + "], " + std::to_string(r.skipped) + " skipped>";
        });
    py::class_<PlanLines>(
        m, "Plan", "What a generation job would do, as `tbgen --dry-run` prints it. str() gives its lines.")
        .def_readonly("lines", &PlanLines::lines,
                      "the lines tbgen prints before a job: tables to build, estimated memory and disk, "
                      "projected time")
        .def_readonly("refusal", &PlanLines::refusal, "why the job would be refused, or None")
        .def("__str__", [](const PlanLines& p) {
            std::string text;
            for (const std::string& line : p.lines) text += line + "\n";
            if (p.refusal) text += "refused: " + *p.refusal + "\n";
            return text;
        });
    m.def("generate", &generate, py::arg("materials"), py::arg("directory") = "tables",
          py::arg("threads") = 0, py::arg("progress") = py::none(), py::kw_only(),
          py::arg("memory_limit") = py::none(), py::arg("cache") = py::none(),
          "Builds the tables of `materials` ('KQvKR' or a list of names) and every table they need into "
          "`directory`, skipping the complete ones and resuming from checkpoints, as `tbgen` does. "
          "`threads`: worker threads (0: one per core). `progress(p)` is called with a "
          "retrograde.Progress for every line of the job, on the calling thread. An exception from "
          "the callback, or Ctrl-C, stops the job cleanly (its solved plies stay in a checkpoint, so "
          "the same call resumes) and is raised. `memory_limit` and `cache` (bytes, or a size such as "
          "'16G') are tbgen's --memory-limit and --cache, with the same defaults (None): the available "
          "memory, and half the limit; memory_limit=0 sets none. A job that does not fit raises "
          "retrograde.GenerationError. Returns a retrograde.JobResult.");
    m.def("plan", &plan, py::arg("materials"), py::arg("directory") = "tables", py::arg("threads") = 0,
          py::kw_only(), py::arg("memory_limit") = py::none(), py::arg("cache") = py::none(),
          "What generate(materials, directory, ...) with these settings would do, built nothing: a "
          "retrograde.Plan, the lines `tbgen --dry-run` prints.");
}

}  // namespace retro::python
