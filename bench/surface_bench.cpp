// The cost of the command surface: `spark run` per command, for one or more
// `spark` binaries measured in the same run (issue 9: before/after).
//
// Method. Each binary runs `spark run - --project DIR` as a child process fed
// JSON lines through a pipe; the bench waits for every answer line before it
// sends the next batch. The measure is the child's CPU time (user + sys), not
// wall time, so a busy machine does not add its waiting to the numbers (it
// still slows memory-bound work through shared caches: hence the rounds). A
// workload is `setup` lines (load a scene, import a mesh) then K `work` lines.
// Two figures per run:
//   in-run           = the child's CPU clock (clock_getcpuclockid) read after
//                      the setup answers and after the K answers, difference
//                      / K. The headline: it sees only the K commands;
//   setup-subtracted = (CPU of a process doing setup + K − CPU of a process
//                      doing setup alone, both from wait4's rusage) / K. The
//                      same quantity, but it carries the run-to-run noise of
//                      the setup (shown), which swamps commands of a few µs.
// Each workload runs in rounds; each round runs every contender once (a
// binary: setup alone, then setup + K) and the order rotates from one round
// to the next. Reported: the median over rounds and the min–max spread.
// Every answer line is parsed and must be {"ok": true, ...}; anything else
// stops the bench with the request and the answer.
//
// Workloads (the inputs are generated, seeded, identical for every binary;
// the request lines are left in DIR as requests-*.jsonl for profiling):
//   space3d.spawn       1,000 spawns (distinct names) into a loaded
//                       20,000-box scene;
//   nav.path            1,000 queries between seeded random cells on an
//                       imported 2D grid mesh of ~10^5 quads (a 334 × 334 grid
//                       with 10 % of the cells left out);
//   nav.path from = to  the same requests with the goal at the start: the
//                       command's own work is next to nothing, what is left is
//                       the surface and the handler's fixed costs;
//   scene2d.tiles.set   1,000 one-tile writes on a 16 × 16 tile scene, in a
//                       session that also holds that mesh (small, mutating);
//   space3d.load        one load of an n-box scene, n = 1,000, 5,000, 20,000,
//                       and 100,000 for binaries whose 20,000 load takes
//                       under 2 s.
// The command's own work for nav.path is measured here, in-process: the same
// document is built into a NavMesh with the library's buildNavMesh (checked:
// same hash as nav.import's answer) and nav::findPath, with one reused
// QueryScratch, answers the same pairs (checked: same path lengths as the
// binaries'). The library runs take their turn in the nav.path rounds: that
// work is memory-bound, so it must see the same machine as the binaries.
//
// Usage: surface_bench [--spark LABEL=PATH]... [--project DIR] [--repeats N] [--commands K] [--loads N,...]
// Without --spark it measures the `spark` built next to it (../cli/spark).
// scripts/surface-bench builds a base commit's spark in a worktree and runs both.

#include "spark/core/hash.h"
#include "spark/nav/navmesh.h"
#include "spark/nav/query.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace
{

// ---------------------------------------------------------------------------
// Settings

constexpr int kSceneObjects = 20000;       // scene the spawns go into
constexpr int kGridCells = 334;            // mesh grid edge, in cells (334² × 0.9 ≈ 100,400 quads)
constexpr uint32_t kHolePercent = 10;      // cells left out of the mesh
constexpr int kTileScene = 16;             // edge of the 2D tile scene of the small mutations
constexpr double kLoadCutoffSeconds = 2.0; // 100,000-object load only below this at 20,000
constexpr uint64_t kSeed = 0x5eed5eed2026ull;
const char* const kMeshFile = "grid-100k.navmesh.json";

struct Binary
{
    std::string label;
    std::string path;
    std::string version;
};

struct Options
{
    std::vector<Binary> binaries;
    fs::path project = "build/surface-bench-data";
    int repeats = 5;
    int commands = 1000;
    std::vector<int> loadSizes = {1000, 5000, 20000, 100000};
};

[[noreturn]] void die(const std::string& message)
{
    std::fprintf(stderr, "surface_bench: %s\n", message.c_str());
    std::exit(1);
}

// splitmix64: a fixed, documented sequence, the same on every machine.
struct SeededRng
{
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
};

std::string floatText(float v)
{
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, r.ptr);
}

double seconds(const timeval& t)
{
    return double(t.tv_sec) + double(t.tv_usec) * 1e-6;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// ---------------------------------------------------------------------------
// Inputs

json boxObject(const std::string& name, double x, double y, double z, double half)
{
    return {{"name", name},
            {"components",
             {{"Transform3D", {{"position", {x, y, z}}}},
              {"Body",
               {{"kind", "fixed"}, {"shape", {{"type", "box"}, {"half_extents", {half, half, half}}}}}}}}};
}

/// A scene of n fixed boxes on a square grid, 2 m apart, streamed object by object.
void writeScene(const fs::path& file, int n)
{
    std::ofstream out(file, std::ios::binary);
    if (!out)
        die("cannot write " + file.string());
    const int side = int(std::ceil(std::sqrt(double(n))));
    out << R"({"version": 1, "gravity": [0, -9.81, 0], "objects": [)"
        << "\n";
    for (int i = 0; i < n; ++i)
    {
        const double x = 2.0 * (i % side) - side, z = 2.0 * (i / side) - side;
        out << boxObject("Box" + std::to_string(i), x, 0.5, z, 0.5).dump() << (i + 1 < n ? ",\n" : "\n");
    }
    out << "]}\n";
    if (!out)
        die("cannot write " + file.string());
}

struct GridMesh
{
    spark::nav::PolySoup soup;
    spark::nav::NavMeshDef def;
    std::vector<std::pair<int, int>> cells; // (x, z) of each polygon, in cells
};

/// A 2D grid of unit quads with kHolePercent of the cells left out (seeded),
/// counter-clockwise as the bakes write them, unused vertices never emitted.
GridMesh makeGridMesh()
{
    GridMesh g;
    g.def = spark::nav::defaultNavMeshDef();
    g.def.is2d = true;
    g.def.settings.cellSize = 1.0f;
    g.def.maxPolyVerts = 6;
    SeededRng rng{kSeed};
    std::vector<uint8_t> present(size_t(kGridCells) * kGridCells);
    for (auto& p : present)
        p = rng.below(100) >= kHolePercent;
    const int vSide = kGridCells + 1;
    std::vector<uint32_t> vertexId(size_t(vSide) * vSide, UINT32_MAX);
    auto vertex = [&](int x, int z)
    {
        uint32_t& id = vertexId[size_t(z) * vSide + x];
        if (id == UINT32_MAX)
        {
            id = uint32_t(g.soup.vertices.size());
            g.soup.vertices.emplace_back(float(x), 0.0f, float(z));
        }
        return id;
    };
    g.soup.polyStarts.push_back(0);
    for (int z = 0; z < kGridCells; ++z)
        for (int x = 0; x < kGridCells; ++x)
        {
            if (!present[size_t(z) * kGridCells + x])
                continue;
            for (uint32_t v : {vertex(x, z), vertex(x + 1, z), vertex(x + 1, z + 1), vertex(x, z + 1)})
                g.soup.indices.push_back(v);
            g.soup.polyStarts.push_back(uint32_t(g.soup.indices.size()));
            g.soup.areas.push_back(0);
            g.cells.emplace_back(x, z);
        }
    return g;
}

/// The navmesh document of nav.export (format spark.navmesh, version 1, 2D), without the optional hash.
void writeMeshDocument(const fs::path& file, const GridMesh& g)
{
    std::ofstream out(file, std::ios::binary);
    if (!out)
        die("cannot write " + file.string());
    const auto& s = g.def.settings;
    out << R"({"format": "spark.navmesh", "version": 1, "dimensions": 2, "settings": {)"
        << "\"agent_radius\": " << floatText(s.agentRadius)
        << ", \"agent_height\": " << floatText(s.agentHeight)
        << ", \"step_height\": " << floatText(s.stepHeight) << ", \"cell_size\": " << floatText(s.cellSize)
        << ", \"cell_height\": " << floatText(s.cellHeight)
        << ", \"max_slope_deg\": " << floatText(s.maxSlopeDeg)
        << ", \"link_tolerance\": " << floatText(g.def.linkTolerance)
        << ", \"max_poly_verts\": " << g.def.maxPolyVerts << "},\n\"vertices\": [";
    for (size_t i = 0; i < g.soup.vertices.size(); ++i)
        out << (i ? "," : "") << "[" << floatText(g.soup.vertices[i].x) << ","
            << floatText(g.soup.vertices[i].z) << "]";
    out << "],\n\"polygons\": [";
    for (size_t p = 0; p + 1 < g.soup.polyStarts.size(); ++p)
    {
        out << (p ? ",[" : "[");
        for (uint32_t k = g.soup.polyStarts[p]; k < g.soup.polyStarts[p + 1]; ++k)
            out << (k > g.soup.polyStarts[p] ? "," : "") << g.soup.indices[k];
        out << "]";
    }
    out << "],\n\"areas\": [";
    for (size_t p = 0; p < g.soup.areas.size(); ++p)
        out << (p ? "," : "") << int(g.soup.areas[p]);
    out << "]}\n";
    if (!out)
        die("cannot write " + file.string());
}

struct PathPair
{
    double fromX, fromY, toX, toY; // 2D points: multiples of 1/16, exact in float and in JSON
};

std::vector<PathPair> makePairs(const GridMesh& g, int count)
{
    SeededRng rng{kSeed ^ 0xfeedull};
    auto point = [&](double& x, double& y)
    {
        const auto [cx, cz] = g.cells[rng.below(uint32_t(g.cells.size()))];
        x = cx + 0.5 + (int(rng.below(9)) - 4) / 16.0;
        y = cz + 0.5 + (int(rng.below(9)) - 4) / 16.0;
    };
    std::vector<PathPair> pairs(static_cast<size_t>(count));
    for (PathPair& p : pairs)
    {
        point(p.fromX, p.fromY);
        point(p.toX, p.toY);
    }
    return pairs;
}

std::string request(const std::string& command, json params)
{
    return json{{"command", command}, {"params", std::move(params)}}.dump();
}

// ---------------------------------------------------------------------------
// Running a binary

struct ChildRun
{
    double cpuTotal = 0.0; ///< user + sys of the whole process (wait4). [Units: s]
    double cpuWork = 0.0;  ///< CPU clock delta over the work lines. [Units: s]
    long maxRssKb = 0; ///< VmHWM of the child after exec (wait4's ru_maxrss would count the forked bench).
    std::vector<json> setupAnswers;
    std::vector<json> workAnswers;
};

struct Workload
{
    std::string name;
    std::vector<std::string> setup;
    std::vector<std::string> work;
};

double childCpu(clockid_t clock)
{
    timespec ts{};
    if (clock_gettime(clock, &ts) != 0)
        die(std::string("clock_gettime on the child's CPU clock: ") + std::strerror(errno));
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

/// Feeds `lines` to the child and reads one answer line per request, without
/// deadlocking on full pipes (the writes are non-blocking, interleaved with reads).
std::vector<json> exchange(int toChild, int fromChild, std::string& pending,
                           const std::vector<std::string>& lines, const Binary& bin, const Workload& w)
{
    std::string buffer;
    for (const std::string& l : lines)
        buffer += l + "\n";
    size_t written = 0;
    std::vector<json> answers;
    answers.reserve(lines.size());
    char chunk[1 << 16];
    while (answers.size() < lines.size())
    {
        pollfd fds[2] = {{fromChild, POLLIN, 0}, {toChild, POLLOUT, 0}};
        const int n = poll(fds, written < buffer.size() ? 2 : 1, -1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            die(std::string("poll: ") + std::strerror(errno));
        if (written < buffer.size() && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP)))
        {
            const ssize_t k = write(toChild, buffer.data() + written, buffer.size() - written);
            if (k < 0 && errno != EAGAIN && errno != EINTR)
                die(bin.label + " (" + w.name + "): the child stopped reading: " + std::strerror(errno));
            if (k > 0)
                written += size_t(k);
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
        {
            const ssize_t k = read(fromChild, chunk, sizeof(chunk));
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                die(bin.label + " (" + w.name + "): the child closed its output after " +
                    std::to_string(answers.size()) + " of " + std::to_string(lines.size()) + " answers");
            pending.append(chunk, size_t(k));
            size_t start = 0, eol;
            while ((eol = pending.find('\n', start)) != std::string::npos)
            {
                const std::string line = pending.substr(start, eol - start);
                start = eol + 1;
                const size_t i = answers.size();
                if (i >= lines.size())
                    die(bin.label + " (" + w.name + "): more answer lines than requests: " + line);
                json answer = json::parse(line, nullptr, false);
                if (answer.is_discarded() || !answer.is_object() || answer.value("ok", false) != true)
                    die(bin.label + " (" + w.name + "): request " + std::to_string(i) +
                        " failed\n  request: " + lines[i].substr(0, 400) +
                        "\n  answer:  " + line.substr(0, 800));
                answers.push_back(std::move(answer));
            }
            pending.erase(0, start);
        }
    }
    return answers;
}

ChildRun runChild(const Binary& bin, const fs::path& project, const Workload& w, bool withWork)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
        die(std::string("pipe: ") + std::strerror(errno));
    const std::string projectText = project.string();
    const pid_t pid = fork();
    if (pid < 0)
        die(std::string("fork: ") + std::strerror(errno));
    if (pid == 0)
    {
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (chdir(projectText.c_str()) != 0)
            _exit(126);
        const char* argv[] = {bin.path.c_str(), "run", "-", "--project", projectText.c_str(), nullptr};
        execv(bin.path.c_str(), const_cast<char* const*>(argv));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    clockid_t clock{};
    if (clock_getcpuclockid(pid, &clock) != 0)
        die("clock_getcpuclockid failed");

    ChildRun run;
    std::string pending;
    run.setupAnswers = exchange(in[1], out[0], pending, w.setup, bin, w);
    if (withWork)
    {
        const double t0 = childCpu(clock);
        run.workAnswers = exchange(in[1], out[0], pending, w.work, bin, w);
        run.cpuWork = childCpu(clock) - t0;
    }
    std::ifstream procStatus("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(procStatus, line);)
        if (line.rfind("VmHWM:", 0) == 0)
            run.maxRssKb = std::atol(line.c_str() + 6);
    close(in[1]);
    char chunk[4096];
    ssize_t k;
    while ((k = read(out[0], chunk, sizeof(chunk))) > 0 || (k < 0 && errno == EINTR))
        if (k > 0)
            pending.append(chunk, size_t(k));
    close(out[0]);
    int status = 0;
    rusage ru{};
    if (wait4(pid, &status, 0, &ru) != pid)
        die(std::string("wait4: ") + std::strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        die(bin.label + " (" + w.name + "): spark run exited with status " + std::to_string(status) +
            (WIFEXITED(status) && WEXITSTATUS(status) == 127 ? " (cannot execute " + bin.path + ")" : ""));
    if (!pending.empty())
        die(bin.label + " (" + w.name + "): unexpected output: " + pending.substr(0, 400));
    run.cpuTotal = seconds(ru.ru_utime) + seconds(ru.ru_stime);
    return run;
}

// ---------------------------------------------------------------------------
// Rounds

struct Samples
{
    std::vector<double> perCommandUs; // subtraction of two processes
    std::vector<double> inRunUs;      // CPU clock delta inside the run
    std::vector<double> setupCpu;     // CPU of the setup-alone processes [s]
    long maxRssKb = 0;
    size_t answersOk = 0;
    size_t answers = 0;
    std::vector<json> lastWorkAnswers;
    std::vector<json> lastSetupAnswers;
};

struct RoundPlan
{
    int minRounds = 3;
    int maxRounds = 5;
    double budgetSeconds = 60.0; // no new round once the rounds so far, extrapolated, would pass it
};

/// Something measured in this process, taking turns with the binaries: returns CPU µs per command.
struct InProcess
{
    std::string label;
    std::function<double()> run;
};

std::map<std::string, Samples> measure(const std::vector<const Binary*>& bins, const fs::path& project,
                                       const Workload& w, RoundPlan plan,
                                       const std::vector<InProcess>& extras = {})
{
    std::map<std::string, Samples> out;
    const auto start = std::chrono::steady_clock::now();
    plan.minRounds = std::min(plan.minRounds, plan.maxRounds);
    for (int round = 0; round < plan.maxRounds; ++round)
    {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (round >= plan.minRounds && elapsed * (round + 1) / round > plan.budgetSeconds)
            break;
        const size_t contenders = bins.size() + extras.size();
        for (size_t i = 0; i < contenders; ++i)
        {
            const size_t which = (i + size_t(round)) % contenders;
            if (which >= bins.size())
            {
                const InProcess& e = extras[which - bins.size()];
                out[e.label].inRunUs.push_back(e.run());
                continue;
            }
            const Binary& bin = *bins[which];
            const ChildRun base = runChild(bin, project, w, false);
            ChildRun full = runChild(bin, project, w, true);
            Samples& s = out[bin.label];
            const double k = double(w.work.size());
            s.perCommandUs.push_back((full.cpuTotal - base.cpuTotal) / k * 1e6);
            s.inRunUs.push_back(full.cpuWork / k * 1e6);
            s.setupCpu.push_back(base.cpuTotal);
            s.maxRssKb = std::max(s.maxRssKb, full.maxRssKb);
            s.answers += base.setupAnswers.size() + full.setupAnswers.size() + full.workAnswers.size();
            s.answersOk = s.answers; // a failed answer stops the bench in exchange()
            s.lastWorkAnswers = std::move(full.workAnswers);
            s.lastSetupAnswers = std::move(full.setupAnswers);
        }
        std::fprintf(stderr, "  %s: round %d done (%.1f s)\n", w.name.c_str(), round + 1,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return out;
}

std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
    return buf;
}

/// µs with a sensible number of digits.
std::string us(double v)
{
    return fixed(v, std::fabs(v) >= 100 ? 0 : std::fabs(v) >= 10 ? 1 : 2);
}

std::string spread(const std::vector<double>& v)
{
    return us(*std::min_element(v.begin(), v.end())) + "–" + us(*std::max_element(v.begin(), v.end()));
}

// ---------------------------------------------------------------------------
// The library's own work for nav.path

/// The mesh nav.import builds from the document, built here by the library from the same soup.
struct Library
{
    spark::nav::NavMesh mesh;
    std::string hash;
    std::vector<float> lengths; // per pair
    int complete = 0;
};

double processCpu()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

void libraryPath(const Library& lib, spark::nav::QueryScratch& scratch, const PathPair& p,
                 spark::nav::PathResult& out)
{
    using namespace spark::nav;
    const glm::vec3 from(float(p.fromX), 0.0f, float(p.fromY)), to(float(p.toX), 0.0f, float(p.toY));
    if (!findPath(lib.mesh, scratch, from, to, QueryFilter{}, defaultQueryExtents(lib.mesh), out).ok())
        die("findPath failed in-process");
}

Library buildLibrary(const GridMesh& g, const std::vector<PathPair>& pairs)
{
    using namespace spark::nav;
    auto built = buildNavMesh(g.soup, g.def);
    if (!built.ok())
        die("buildNavMesh: " + built.error().code + " " + built.error().message);
    Library lib;
    lib.mesh = std::move(built.value());
    lib.hash = spark::hashToHex(hashNavMesh(lib.mesh));
    QueryScratch scratch;
    for (const PathPair& p : pairs)
    {
        PathResult r;
        libraryPath(lib, scratch, p, r);
        lib.lengths.push_back(r.length);
        lib.complete += r.complete;
    }
    return lib;
}

/// CPU µs per query over every pair, one scratch for all (grown before the clock starts);
/// `stay`: from = to = the pair's start (the nav.path from = to workload).
double timeLibrary(const Library& lib, const std::vector<PathPair>& pairs, bool stay)
{
    using namespace spark::nav;
    QueryScratch scratch;
    PathResult r;
    libraryPath(lib, scratch, pairs.front(), r);
    const double c0 = processCpu();
    for (PathPair p : pairs)
    {
        if (stay)
            p.toX = p.fromX, p.toY = p.fromY;
        libraryPath(lib, scratch, p, r);
    }
    return (processCpu() - c0) / double(pairs.size()) * 1e6;
}

// ---------------------------------------------------------------------------

Options parseOptions(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        auto value = [&]() -> std::string
        {
            if (i + 1 >= argc)
                die(a + " needs a value");
            return argv[++i];
        };
        if (a == "--spark")
        {
            const std::string v = value();
            const size_t eq = v.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
                die("--spark takes LABEL=PATH");
            o.binaries.push_back({v.substr(0, eq), fs::absolute(v.substr(eq + 1)).string(), ""});
        }
        else if (a == "--project")
            o.project = value();
        else if (a == "--repeats")
            o.repeats = std::max(1, std::atoi(value().c_str()));
        else if (a == "--commands")
            o.commands = std::max(1, std::atoi(value().c_str()));
        else if (a == "--loads")
        {
            o.loadSizes.clear();
            const std::string list = value();
            for (size_t at = 0; at < list.size();)
            {
                const size_t comma = std::min(list.find(',', at), list.size());
                const int n = std::atoi(list.substr(at, comma - at).c_str());
                if (n < 1 || n > 100000)
                    die("--loads takes object counts 1..100000, comma-separated");
                o.loadSizes.push_back(n);
                at = comma + 1;
            }
        }
        else if (a == "-h" || a == "--help")
        {
            std::printf(
                "usage: surface_bench [--spark LABEL=PATH]... [--project DIR] [--repeats N] [--commands K] "
                "[--loads N,...]\n"
                "  --spark     a spark binary to measure (repeat for before/after); default ../cli/spark\n"
                "  --project   scratch folder for the generated inputs (default build/surface-bench-data)\n"
                "  --repeats   most rounds per workload (default 5; at least 3 unless fewer asked)\n"
                "  --commands  K commands per workload (default 1000)\n"
                "  --loads     scene sizes of the load table (default 1000,5000,20000,100000;\n"
                "              sizes over 20000 only for binaries whose 20000 load is under 2 s)\n");
            std::exit(0);
        }
        else
            die("unknown argument " + a + " (see --help)");
    }
    if (o.binaries.empty())
    {
        std::error_code ec;
        const fs::path self = fs::read_symlink("/proc/self/exe", ec);
        const fs::path sibling = self.parent_path().parent_path() / "cli" / "spark";
        if (ec || !fs::exists(sibling))
            die("no --spark given and no spark next to this program (" + sibling.string() + ")");
        o.binaries.push_back({"this-build", sibling.string(), ""});
    }
    for (const Binary& b : o.binaries)
        if (access(b.path.c_str(), X_OK) != 0)
            die("cannot execute " + b.path);
    return o;
}

std::string versionOf(const std::string& path)
{
    std::string cmd = "'" + path + "' --version 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p)
        return "?";
    char buf[256] = {0};
    std::string v = fgets(buf, sizeof(buf), p) ? buf : "?";
    pclose(p);
    while (!v.empty() && (v.back() == '\n' || v.back() == '\r'))
        v.pop_back();
    return v;
}

} // namespace

int main(int argc, char** argv)
{
    signal(SIGPIPE, SIG_IGN);
    Options opt = parseOptions(argc, argv);
    const auto started = std::chrono::steady_clock::now();
    fs::create_directories(opt.project);
    opt.project = fs::absolute(opt.project);
    const int K = opt.commands;

    // Inputs.
    std::fprintf(stderr, "generating inputs in %s\n", opt.project.c_str());
    std::vector<int> loadSizes = opt.loadSizes;
    if (std::find(loadSizes.begin(), loadSizes.end(), kSceneObjects) == loadSizes.end())
        loadSizes.push_back(kSceneObjects); // the spawn workload's scene, and the 100,000 gate
    std::sort(loadSizes.begin(), loadSizes.end());
    for (int n : loadSizes)
        writeScene(opt.project / ("scene-" + std::to_string(n) + ".space3d.json"), n);
    const GridMesh grid = makeGridMesh();
    writeMeshDocument(opt.project / kMeshFile, grid);
    const std::vector<PathPair> pairs = makePairs(grid, K);

    const std::string importMesh = request("nav.import", {{"name", "grid"}, {"path", kMeshFile}});
    Workload spawn{
        "space3d.spawn",
        {request("space3d.load", {{"path", "scene-" + std::to_string(kSceneObjects) + ".space3d.json"}})},
        {}};
    for (int i = 0; i < K; ++i)
    {
        json obj = boxObject("Spawned" + std::to_string(i), 0.25 * (i % 40), 3.0, 0.25 * (i / 40), 0.125);
        spawn.work.push_back(
            request("space3d.spawn", {{"name", obj["name"]}, {"components", obj["components"]}}));
    }
    Workload path{"nav.path", {importMesh}, {}};
    for (const PathPair& p : pairs)
        path.work.push_back(
            request("nav.path", {{"mesh", "grid"}, {"from", {p.fromX, p.fromY}}, {"to", {p.toX, p.toY}}}));
    Workload stay{"nav.path from = to", {importMesh}, {}};
    for (const PathPair& p : pairs)
        stay.work.push_back(request(
            "nav.path", {{"mesh", "grid"}, {"from", {p.fromX, p.fromY}}, {"to", {p.fromX, p.fromY}}}));
    Workload mutate{"scene2d.tiles.set",
                    {importMesh, request("scene2d.new", {{"width", kTileScene}, {"height", kTileScene}})},
                    {}};
    for (int i = 0; i < K; ++i)
        mutate.work.push_back(
            request("scene2d.tiles.set", {{"x", i % kTileScene},
                                          {"y", (i / kTileScene) % kTileScene},
                                          {"tile", 1 + (i / (kTileScene * kTileScene)) % 2}}));

    // The request lines, for profiling one binary by hand: `spark run requests-nav.path.jsonl --project DIR`.
    for (const Workload* w : {&spawn, &path, &stay, &mutate})
    {
        std::string file = "requests-" + w->name + ".jsonl";
        std::replace(file.begin(), file.end(), ' ', '_');
        std::ofstream out(opt.project / file, std::ios::binary);
        for (const auto* lines : {&w->setup, &w->work})
            for (const std::string& l : *lines)
                out << l << "\n";
    }

    std::vector<const Binary*> all;
    for (Binary& b : opt.binaries)
    {
        b.version = versionOf(b.path);
        all.push_back(&b);
    }
    // Warm-up: page in each binary and the generated files once, untimed.
    {
        Workload warm{"warm-up", {request("system.version", json::object())}, {importMesh}};
        for (const Binary* b : all)
            runChild(*b, opt.project, warm, true);
    }

    // The command's own work for nav.path, in-process, taking turns with the binaries in the nav.path rounds
    // (memory-bound work: a busy machine slows it too, so it must share the rounds).
    std::fprintf(stderr, "library: buildNavMesh + findPath on %zu polygons\n", grid.soup.polygonCount());
    const Library lib = buildLibrary(grid, pairs);
    const std::string libLabel = "library findPath (in-process)";
    const std::vector<InProcess> libraryPaths = {{libLabel, [&] { return timeLibrary(lib, pairs, false); }}};
    const std::vector<InProcess> libraryStays = {{libLabel, [&] { return timeLibrary(lib, pairs, true); }}};

    // The command workloads.
    const RoundPlan commandPlan{3, opt.repeats, 60.0};
    std::vector<std::pair<std::string, std::map<std::string, Samples>>> results;
    for (const Workload* w : {&spawn, &path, &stay, &mutate})
    {
        std::fprintf(stderr, "workload %s\n", w->name.c_str());
        results.emplace_back(w->name, measure(all, opt.project, *w, commandPlan,
                                              w == &path   ? libraryPaths
                                              : w == &stay ? libraryStays
                                                           : std::vector<InProcess>{}));
    }
    const std::map<std::string, Samples>& pathResults = results[1].second;
    const std::map<std::string, Samples>& stayResults = results[2].second;

    // Same work: the imported mesh is the library's mesh, the path lengths are the library's.
    std::map<std::string, std::string> sameWork;
    for (const Binary* b : all)
    {
        const Samples& s = pathResults.at(b->label);
        const std::string hash = s.lastSetupAnswers.at(0)["result"].value("hash", std::string());
        size_t same = 0;
        for (size_t i = 0; i < s.lastWorkAnswers.size(); ++i)
        {
            const json& r = s.lastWorkAnswers[i]["result"];
            if (r.contains("length") && float(r["length"].get<double>()) == lib.lengths[i])
                ++same;
        }
        sameWork[b->label] =
            (hash == lib.hash ? "mesh hash = library's" : "MESH HASH " + hash + " ≠ library's " + lib.hash) +
            ", " + std::to_string(same) + "/" + std::to_string(s.lastWorkAnswers.size()) +
            " lengths = library's";
        if (hash != lib.hash || same != s.lastWorkAnswers.size())
            std::fprintf(stderr, "WARNING: %s: %s\n", b->label.c_str(), sameWork[b->label].c_str());
    }

    // Load scaling.
    struct LoadRow
    {
        int n;
        std::string label;
        Samples samples;
    };
    std::vector<LoadRow> loads;
    std::map<std::string, double> load20k;
    for (int n : loadSizes)
    {
        if (std::find(opt.loadSizes.begin(), opt.loadSizes.end(), n) == opt.loadSizes.end() &&
            n != kSceneObjects)
            continue;
        std::vector<const Binary*> bins;
        for (const Binary* b : all)
            if (n <= kSceneObjects || (load20k.count(b->label) && load20k[b->label] < kLoadCutoffSeconds))
                bins.push_back(b);
        if (bins.empty())
            continue;
        Workload load{"space3d.load n=" + std::to_string(n),
                      {request("system.version", json::object())},
                      {request("space3d.load", {{"path", "scene-" + std::to_string(n) + ".space3d.json"}})}};
        std::fprintf(stderr, "workload %s\n", load.name.c_str());
        const RoundPlan plan = n <= kSceneObjects ? RoundPlan{3, opt.repeats, 20.0}
                                                  : RoundPlan{1, std::min(3, opt.repeats), 30.0};
        for (auto& [label, s] : measure(bins, opt.project, load, plan))
        {
            const json& r = s.lastWorkAnswers.at(0)["result"];
            if (r.value("objects", -1) != n)
                die(label + ": space3d.load answered " + r.dump() + " for " + std::to_string(n) + " objects");
            if (n == kSceneObjects)
                load20k[label] = median(s.inRunUs) * 1e-6;
            loads.push_back({n, label, std::move(s)});
        }
    }

    // Report.
    std::printf("\n## spark run: CPU µs per command (%d commands per run)\n\n", K);
    for (const Binary* b : all)
        std::printf("- `%s`: %s (`spark --version`: %s)\n", b->label.c_str(), b->path.c_str(),
                    b->version.c_str());
    std::printf("- inputs: %s (scene %d boxes; mesh %zu polygons, %zu vertices)\n\n", opt.project.c_str(),
                kSceneObjects, grid.soup.polygonCount(), grid.soup.vertices.size());
    std::printf(
        "| workload | binary | µs/command in-run (median) | spread (min–max) | µs/command setup-subtracted "
        "(median) | spread (min–max) | setup noise µs/command | runs | max RSS MB | answers ok |\n");
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (const auto& [name, byLabel] : results)
    {
        for (const Binary* b : all)
        {
            const Samples& s = byLabel.at(b->label);
            const double noise = (*std::max_element(s.setupCpu.begin(), s.setupCpu.end()) -
                                  *std::min_element(s.setupCpu.begin(), s.setupCpu.end())) /
                                 double(K) * 1e6;
            std::printf("| %s | %s | %s | %s | %s | %s | %s | %zu | %.0f | %zu/%zu |\n", name.c_str(),
                        b->label.c_str(), us(median(s.inRunUs)).c_str(), spread(s.inRunUs).c_str(),
                        us(median(s.perCommandUs)).c_str(), spread(s.perCommandUs).c_str(), us(noise).c_str(),
                        s.perCommandUs.size(), s.maxRssKb / 1024.0, s.answersOk, s.answers);
        }
        if (byLabel.count(libLabel))
        {
            const std::vector<double>& v = byLabel.at(libLabel).inRunUs;
            std::printf("| %s | %s | %s | %s | | | | %zu | | |\n", name.c_str(), libLabel.c_str(),
                        us(median(v)).c_str(), spread(v).c_str(), v.size());
        }
    }
    std::printf(
        "\nin-run: the child's CPU clock across the K commands of one process. setup-subtracted: CPU of a "
        "process doing setup + K minus one doing setup alone (wait4), / K; it carries the setup's "
        "run-to-run noise (setup noise = max − min of the setup-alone CPU, / K), so it means something "
        "only well above that.\n");

    std::printf("\n### nav.path: surface overhead = (µs/command − library µs) / library µs\n\n");
    std::printf(
        "Library: this build's libnav, findPath with one reused QueryScratch, same mesh, same pairs, in "
        "the same rounds. %d of %d pairs give complete paths. from = to: the same requests with the goal at "
        "the start, so the command's own work is next to nothing and what is left is the surface "
        "(read, parse, validate, dispatch, answer, write) plus the handler's fixed costs.\n\n",
        lib.complete, K);
    const double libPath = median(pathResults.at(libLabel).inRunUs);
    const double libStay = median(stayResults.at(libLabel).inRunUs);
    std::printf("| binary | nav.path µs | library µs | overhead | from = to µs | library from = to µs | "
                "fixed cost / library path | same work |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (const Binary* b : all)
    {
        const double c = median(pathResults.at(b->label).inRunUs);
        const double fixedCost = median(stayResults.at(b->label).inRunUs) - libStay;
        std::printf("| %s | %s | %s | %+.1f %% | %s | %s | %.1f %% | %s |\n", b->label.c_str(), us(c).c_str(),
                    us(libPath).c_str(), (c - libPath) / libPath * 100.0,
                    us(median(stayResults.at(b->label).inRunUs)).c_str(), us(libStay).c_str(),
                    fixedCost / libPath * 100.0, sameWork[b->label].c_str());
    }

    std::printf("\n## space3d.load: CPU per load of an n-box scene\n\n");
    std::printf("Growth exponent b: time ∝ n^b between this n and the previous one (1 = linear, "
                "n log n ≈ 1.1–1.2 here, 2 = quadratic). 100,000 only where 20,000 took under %.0f s.\n\n",
                kLoadCutoffSeconds);
    std::printf("| n | binary | ms/load in-run (median) | spread (min–max) | setup-subtracted ms | µs/object "
                "| growth b | runs | max RSS MB |\n");
    std::printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    std::map<std::string, std::pair<int, double>> previous;
    for (const LoadRow& row : loads)
    {
        const double ms = median(row.samples.inRunUs) / 1000.0;
        std::vector<double> msAll;
        for (double v : row.samples.inRunUs)
            msAll.push_back(v / 1000.0);
        std::string growth = "";
        if (previous.count(row.label))
        {
            const auto [pn, pms] = previous[row.label];
            growth = fixed(std::log(ms / pms) / std::log(double(row.n) / pn), 2);
        }
        previous[row.label] = {row.n, ms};
        std::printf("| %d | %s | %s | %s–%s | %s | %s | %s | %zu | %.0f |\n", row.n, row.label.c_str(),
                    fixed(ms, 1).c_str(), fixed(*std::min_element(msAll.begin(), msAll.end()), 1).c_str(),
                    fixed(*std::max_element(msAll.begin(), msAll.end()), 1).c_str(),
                    fixed(median(row.samples.perCommandUs) / 1000.0, 1).c_str(),
                    us(ms * 1000.0 / row.n).c_str(), growth.c_str(), row.samples.perCommandUs.size(),
                    row.samples.maxRssKb / 1024.0);
    }
    double load1 = 0.0;
    getloadavg(&load1, 1);
    std::printf("\nTotal %.0f s wall; load average at the end %.2f (CPU time is what is measured).\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), load1);
    return 0;
}
