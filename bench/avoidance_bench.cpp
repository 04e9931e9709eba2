/// \file avoidance_bench.cpp
/// Spark's ORCA (spark::nav::Avoidance) on RVO2's and RVO2-3D's own example
/// scenarios, set up as upstream's example programs set them up, beside fixed
/// RVO2 figures (issue 35, "ORCA against RVO2, measured fairly"). RVO2 is not
/// a Debian package, so it does not run here: its figures are reference
/// numbers measured on this machine kind with RVO2 / RVO2-3D built -O3 -flto
/// from the same v2.0-text starts as below, printed as such, never re-measured.
///
/// Scenarios (upstream's 2.0.x / 1.0.x setup text, float arithmetic and types
/// as written there; later releases rewrote it, which moves the starts in
/// their last bits):
///  - circle-250: RVO2 examples/Circle.cc. timeStep 0.25; agent defaults
///    neighborDist 15, maxNeighbors 10, timeHorizon 10, timeHorizonObst 10,
///    radius 1.5, maxSpeed 2; agent i at 200.0f * RVO::Vector2(
///    std::cos(i * 2.0f * M_PI / 250.0f), std::sin(...)) (each cos/sin rounded
///    to float, then a float product), goal = −position. Reached: |p − g|² ≤ r².
///  - circle-1000: the same with 1000 agents, 800.0f and / 1000.0f.
///  - sphere-812: RVO2-3D examples/Sphere.cc. timeStep 0.125; defaults as the
///    circle's; for (float a = 0; a < M_PI; a += 0.1f) { z = 100.0f * cos(a);
///    r = 100.0f * sin(a); for (i = 0; i < r / 2.5f; ++i) { x = r * cos(i * 2.0f *
///    M_PI / (r / 2.5f)), y = r * sin(same) } }, goal = −position; 812 agents.
///    Reached: |p − g|² ≤ 4 r². RVO2-3D's (x, y, z) is Spark's (x, z, −y) (+Y up).
///  - blocks: RVO2 examples/Blocks.cc. timeStep 0.25; defaults neighborDist 15,
///    maxNeighbors 10, timeHorizon 5, timeHorizonObst 5, radius 2, maxSpeed 2;
///    4 × 25 agents in 5 × 5 blocks at (±(55 + 10 i), ±(55 + 10 j)) heading to
///    the opposite corner (∓75, ∓75); four 30 m squares (±10..±40) as
///    counter-clockwise polygons; each preferred velocity perturbed as upstream
///    does it, by std::rand() (glibc, std::srand(seed); upstream leaves it
///    unseeded: seed 1): angle = rand() * 2.0f * M_PI / RAND_MAX, dist = rand()
///    * 0.0001f / RAND_MAX, + dist * (cos, sin)(angle) in float. Reached:
///    |p − g|² ≤ 20².
/// Spark's side: the same neighbour distance, count, horizons, radius and max
/// speed (priority 1: each of a pair takes half, as in RVO2), the rest Spark's
/// defaults (overlapTolerance 0.05); the float starts convert exactly.
///
/// One step, as upstream's `setPreferredVelocities(); sim->doStep();`, is
/// sparkOrcaBenchStep2D / 3D (noinline, noipa: callgrind toggles on them):
/// preferred velocity = goal − position, divided by its length when its
/// squared length is > 1 (Blocks: perturbed); Avoidance::avoid / avoid3D; the
/// move (velocity = new velocity, position += velocity · timeStep). After each
/// step (not timed) the goal test; the run ends after the first step that
/// finds every agent reached, or at --max-steps.
///
/// Measured per scenario, every step until all arrive, in --repeats rounds,
/// each a run on one thread (AvoidanceDef::threads = 1) then one on all cores
/// (threads = --threads, 0 = every hardware thread), alternated; each figure
/// is the median over the rounds:
///  - total CPU to arrival (the headline, one thread): the sum over the steps
///    of the thread CPU time (CLOCK_THREAD_CPUTIME_ID) of each step; beside it
///    the median step. RVO2's total is its whole run's CPU the same way.
///  - all cores: the elapsed (steady clock) time to arrival, what a game
///    waits, beside RVO2's one-thread total CPU (RVO2's OpenMP path is off by
///    default); and the process CPU it took. A loaded machine inflates the
///    elapsed time (other sessions take the cores); the thread CPU not.
///  - the run hash (spark::Hasher over every position and velocity after every
///    step) of both runs: they must be equal (the bench stops if not).
///  - steps over shifted starts: --shifts runs with every start angle moved
///    by k · 0.001 rad (k = 0 .. shifts − 1; blocks: seeds 1 .. shifts): a
///    symmetric scenario's step count moves by 10–25 % with its last bits, so
///    one count is no figure of merit; min / median / max of them.
///  - min d/2r (first one-thread run): the smallest centre distance between two
///    agents at the start and after every step / 2r; pairs that upstream's
///    sphere starts closer than 2r are left out until first 2r apart.
///  - Ir/step (with --callgrind, one thread): instructions callgrind counts in
///    the step function / steps, from a re-run of this program as
///      valgrind --tool=callgrind --collect-atstart=no --toggle-collect='sparkOrcaBenchStep*'
///        <this program> --scenario=<s> --child [--max-steps=N]
///    (--callgrind-max-steps=N caps it).
///
/// Options: --scenario=circle-250|circle-1000|sphere-812|blocks|all (default
/// all), --repeats=N (3), --shifts=N (5), --threads=N (0), --max-steps=N
/// (100000), --callgrind, --callgrind-max-steps=N, --callgrind-dir=DIR (/tmp),
/// --no-min-distance.
#include "bench_stats.h"
#include "spark/core/hash.h"
#include "spark/nav/avoidance.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <numeric>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

using spark::Status;
using spark::nav::AvoidanceAgent;
using spark::nav::AvoidanceAgent3D;
using spark::nav::AvoidanceObstacle;

/// One 2D run: the avoidance object, the agents (their velocity is the last
/// step's output), the goals, the obstacles, the output buffer.
struct OrcaRun2D
{
    spark::nav::Avoidance avoidance;
    std::vector<AvoidanceAgent> agents;
    std::vector<glm::dvec2> goals;
    std::vector<std::vector<glm::dvec2>> polygons; ///< The obstacles' points (their spans point here).
    std::vector<AvoidanceObstacle> obstacles;
    std::vector<glm::dvec2> out;
    double dt = 0.0;
    bool perturb = false; ///< Blocks: upstream's std::rand() perturbation of each preferred velocity.
};

/// One 3D run, as OrcaRun2D.
struct OrcaRun3D
{
    spark::nav::Avoidance avoidance;
    std::vector<AvoidanceAgent3D> agents;
    std::vector<glm::dvec3> goals;
    std::vector<glm::dvec3> out;
    double dt = 0.0;
};

/// RVO2's examples: goal − position, normalised when its squared length is > 1.
template <class V> inline V preferredToward(const V& position, const V& goal)
{
    V v = goal - position;
    const double lengthSq = glm::dot(v, v);
    if (lengthSq > 1.0)
        v /= std::sqrt(lengthSq);
    return v;
}

/// The timed step on the plane: preferred velocities, avoidance, move.
/// Global, noinline and noipa so that callgrind's --toggle-collect finds it by name.
__attribute__((noinline, noipa)) Status sparkOrcaBenchStep2D(OrcaRun2D& run)
{
    const std::size_t n = run.agents.size();
    for (std::size_t i = 0; i < n; ++i)
    {
        glm::dvec2 preferred = preferredToward(run.agents[i].position, run.goals[i]);
        if (run.perturb)
        {
            // Upstream's text: float angle = std::rand() * 2.0f * M_PI / RAND_MAX (a double
            // quotient narrowed); float dist = std::rand() * 0.0001f / RAND_MAX; the float
            // products dist * cos(angle), dist * sin(angle).
            const float angle = static_cast<float>(std::rand() * 2.0f * M_PI / RAND_MAX);
            const float dist = std::rand() * 0.0001f / RAND_MAX;
            preferred += glm::dvec2(dist * std::cos(angle), dist * std::sin(angle));
        }
        run.agents[i].preferred = preferred;
    }
    Status status = run.avoidance.avoid(run.agents, run.obstacles, run.dt, run.out);
    if (!status.ok())
        return status;
    for (std::size_t i = 0; i < n; ++i)
    {
        run.agents[i].velocity = run.out[i];
        run.agents[i].position += run.out[i] * run.dt;
    }
    return status;
}

/// The timed step in space, as sparkOrcaBenchStep2D.
__attribute__((noinline, noipa)) Status sparkOrcaBenchStep3D(OrcaRun3D& run)
{
    const std::size_t n = run.agents.size();
    for (std::size_t i = 0; i < n; ++i)
        run.agents[i].preferred = preferredToward(run.agents[i].position, run.goals[i]);
    Status status = run.avoidance.avoid3D(run.agents, {}, run.dt, run.out);
    if (!status.ok())
        return status;
    for (std::size_t i = 0; i < n; ++i)
    {
        run.agents[i].velocity = run.out[i];
        run.agents[i].position += run.out[i] * run.dt;
    }
    return status;
}

namespace
{

constexpr const char* kStepPattern = "sparkOrcaBenchStep*";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// RVO2's figures from issue 35 (RVO2 / RVO2-3D -O3 -flto, v2.0-text starts,
/// this machine kind); NaN = not given there.
struct Reference
{
    const char* scenario;
    int steps;
    double totalSeconds; ///< CPU to arrival, one thread.
    double medianMs;     ///< Median step.
};
const Reference kRvo2[] = {
    {"circle-250", 3087, 0.310, 0.0782},
    {"circle-1000", 10170, kNaN, kNaN},
    {"sphere-812", 2371, 2.53, kNaN},
    {"blocks", 8320, 0.333, 0.0343},
};

struct Options
{
    std::string scenario = "all";
    int maxSteps = 100000;
    int repeats = 3;
    int shifts = 5;
    int threads = 0; ///< Of the all-cores runs (0: every hardware thread).
    bool callgrind = false;
    int callgrindMaxSteps = 0; ///< 0: the whole run.
    std::string callgrindDir = "/tmp"; // as path_bench and ai_bench: nothing left in the working tree
    bool minDistance = true;
    bool child = false;
};

/// A scenario's setup: radius, max speed, horizons, step, goal distance.
struct Setup
{
    double radius;
    double maxSpeed;
    double horizon;
    double dt;
    double reachedSq;
};

spark::nav::Avoidance makeAvoidance(std::size_t agents, const Setup& setup, int threads)
{
    spark::nav::AvoidanceDef def = spark::nav::defaultAvoidanceDef();
    def.maxAgents = static_cast<int>(agents);
    def.neighborDistance = 15.0;
    def.maxNeighbors = 10;
    def.timeHorizon = setup.horizon;
    def.timeHorizonObstacles = setup.horizon;
    def.threads = threads;
    auto made = spark::nav::createAvoidance(def);
    if (!made.ok())
    {
        std::fprintf(stderr, "createAvoidance: %s\n", made.error().message.c_str());
        std::exit(1);
    }
    return std::move(*made);
}

constexpr Setup kCircle{1.5, 2.0, 10.0, 0.25, 1.5 * 1.5};
constexpr Setup kSphere{1.5, 2.0, 10.0, 0.125, 4.0 * 1.5 * 1.5};
constexpr Setup kBlocks{2.0, 2.0, 5.0, 0.25, 20.0 * 20.0};

/// RVO2 examples/Circle.cc with n agents on a circle of `radius` (250 / 200.0f
/// upstream; 1000 / 800.0f for circle-1000), every angle moved by `shift` rad.
OrcaRun2D makeCircle(std::size_t n, float radius, double shift, int threads)
{
    OrcaRun2D run{makeAvoidance(n, kCircle, threads), {}, {}, {}, {}, {}, kCircle.dt, false};
    const float count = static_cast<float>(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        // Upstream: 200.0f * RVO::Vector2(std::cos(i * 2.0f * M_PI / 250.0f), std::sin(...)):
        // the double cos/sin narrow to float in Vector2's constructor, then a float product.
        const float cx = static_cast<float>(std::cos(i * 2.0f * M_PI / count + shift));
        const float cy = static_cast<float>(std::sin(i * 2.0f * M_PI / count + shift));
        const float x = radius * cx;
        const float y = radius * cy;
        AvoidanceAgent a;
        a.position = {x, y};
        a.radius = kCircle.radius;
        a.maxSpeed = kCircle.maxSpeed;
        a.id = static_cast<uint32_t>(i);
        run.agents.push_back(a);
        run.goals.push_back({-x, -y});
    }
    run.out.resize(n);
    return run;
}

/// RVO2-3D examples/Sphere.cc, every ring angle moved by `shift` rad.
OrcaRun3D makeSphere(double shift, int threads)
{
    std::vector<AvoidanceAgent3D> agents;
    std::vector<glm::dvec3> goals;
    for (float a = 0; a < M_PI; a += 0.1f)
    {
        const float z = 100.0f * std::cos(a);
        const float r = 100.0f * std::sin(a);
        for (std::size_t i = 0; i < r / 2.5f; ++i)
        {
            const float x = static_cast<float>(r * std::cos(i * 2.0f * M_PI / (r / 2.5f) + shift));
            const float y = static_cast<float>(r * std::sin(i * 2.0f * M_PI / (r / 2.5f) + shift));
            AvoidanceAgent3D agent;
            agent.position = {x, z, -static_cast<double>(y)};
            agent.radius = kSphere.radius;
            agent.maxSpeed = kSphere.maxSpeed;
            agent.id = static_cast<uint32_t>(agents.size());
            agents.push_back(agent);
            goals.push_back(-agent.position);
        }
    }
    if (agents.size() != 812)
    {
        std::fprintf(stderr, "sphere-812: upstream's setup gave %zu agents, not 812\n", agents.size());
        std::exit(1);
    }
    OrcaRun3D run{makeAvoidance(agents.size(), kSphere, threads), std::move(agents), std::move(goals), {},
                  kSphere.dt};
    run.out.resize(run.agents.size());
    return run;
}

/// RVO2 examples/Blocks.cc; std::srand(seed) for its perturbation.
OrcaRun2D makeBlocks(unsigned seed, int threads)
{
    OrcaRun2D run{makeAvoidance(100, kBlocks, threads), {}, {}, {}, {}, {}, kBlocks.dt, true};
    const auto add = [&](float x, float y, float gx, float gy)
    {
        AvoidanceAgent a;
        a.position = {x, y};
        a.radius = kBlocks.radius;
        a.maxSpeed = kBlocks.maxSpeed;
        a.id = static_cast<uint32_t>(run.agents.size());
        run.agents.push_back(a);
        run.goals.push_back({gx, gy});
    };
    for (std::size_t i = 0; i < 5; ++i)
        for (std::size_t j = 0; j < 5; ++j)
        {
            add(55.0f + i * 10.0f, 55.0f + j * 10.0f, -75.0f, -75.0f);
            add(-55.0f - i * 10.0f, 55.0f + j * 10.0f, 75.0f, -75.0f);
            add(55.0f + i * 10.0f, -55.0f - j * 10.0f, -75.0f, 75.0f);
            add(-55.0f - i * 10.0f, -55.0f - j * 10.0f, 75.0f, 75.0f);
        }
    // Upstream's four obstacles, counter-clockwise.
    run.polygons = {{{-10.0, 40.0}, {-40.0, 40.0}, {-40.0, 10.0}, {-10.0, 10.0}},
                    {{10.0, 40.0}, {10.0, 10.0}, {40.0, 10.0}, {40.0, 40.0}},
                    {{10.0, -40.0}, {40.0, -40.0}, {40.0, -10.0}, {10.0, -10.0}},
                    {{-10.0, -40.0}, {-10.0, -10.0}, {-40.0, -10.0}, {-40.0, -40.0}}};
    for (const std::vector<glm::dvec2>& points : run.polygons)
    {
        AvoidanceObstacle o;
        o.shape = spark::nav::ObstacleShape::Polygon;
        o.points = points;
        run.obstacles.push_back(o);
    }
    run.out.resize(run.agents.size());
    std::srand(seed);
    return run;
}

/// The smallest centre distance so far, between agents that are not in a start
/// overlap: sort on x, sweep each agent's followers while their x gap is below
/// the smallest distance found. Upstream's sphere puts ceil(r / 2.5) fliers on
/// a ring at angle steps of 2π / (r / 2.5), so where r / 2.5 is just above an
/// integer the ring's last flier starts almost on its first; a pair closer than
/// 2r at the start is left out until it is first 2r apart, and reported apart.
class ClosestPair
{
public:
    explicit ClosestPair(double twoR) : m_twoRSq(twoR * twoR) {}

    template <class Agent> void start(const std::vector<Agent>& agents)
    {
        for (std::size_t i = 0; i < agents.size(); ++i)
            for (std::size_t j = i + 1; j < agents.size(); ++j)
            {
                const auto d = agents[j].position - agents[i].position;
                const double dSq = glm::dot(d, d);
                if (dSq < m_twoRSq)
                {
                    m_held.push_back({i, j});
                    m_startMinSq = std::min(m_startMinSq, dSq);
                }
            }
        m_startOverlaps = static_cast<int>(m_held.size());
        update(agents, 0);
    }

    template <class Agent> void update(const std::vector<Agent>& agents, int step)
    {
        for (std::size_t k = 0; k < m_held.size();)
        {
            const auto d = agents[m_held[k].second].position - agents[m_held[k].first].position;
            if (glm::dot(d, d) >= m_twoRSq)
            {
                m_held[k] = m_held.back();
                m_held.pop_back();
                m_releasedBy = step;
            }
            else
                ++k;
        }
        if (m_order.size() != agents.size())
        {
            m_order.resize(agents.size());
            std::iota(m_order.begin(), m_order.end(), std::size_t{0});
        }
        // The order barely changes between steps: insertion sort is near-linear.
        for (std::size_t i = 1; i < m_order.size(); ++i)
        {
            const std::size_t k = m_order[i];
            const double x = agents[k].position.x;
            std::size_t j = i;
            for (; j > 0 && agents[m_order[j - 1]].position.x > x; --j)
                m_order[j] = m_order[j - 1];
            m_order[j] = k;
        }
        for (std::size_t i = 0; i < m_order.size(); ++i)
        {
            const auto& p = agents[m_order[i]].position;
            for (std::size_t j = i + 1; j < m_order.size(); ++j)
            {
                const auto& q = agents[m_order[j]].position;
                const double dx = q.x - p.x;
                if (dx * dx >= m_bestSq)
                    break;
                const auto d = q - p;
                const double dSq = glm::dot(d, d);
                if (dSq < m_bestSq && !held(m_order[i], m_order[j]))
                {
                    m_bestSq = dSq;
                    m_step = step;
                }
            }
        }
    }
    double best() const { return std::sqrt(m_bestSq); }
    int step() const { return m_step; }
    int startOverlaps() const { return m_startOverlaps; }
    double startMin() const { return std::sqrt(m_startMinSq); }
    int releasedBy() const { return m_releasedBy; }

private:
    bool held(std::size_t a, std::size_t b) const
    {
        const std::pair<std::size_t, std::size_t> pair{std::min(a, b), std::max(a, b)};
        return std::find(m_held.begin(), m_held.end(), pair) != m_held.end();
    }

    double m_twoRSq;
    std::vector<std::size_t> m_order;
    std::vector<std::pair<std::size_t, std::size_t>> m_held;
    double m_bestSq = std::numeric_limits<double>::infinity();
    double m_startMinSq = std::numeric_limits<double>::infinity();
    int m_step = -1;
    int m_startOverlaps = 0;
    int m_releasedBy = -1;
};

/// Folds every agent's position and velocity bits into `hash` (spark::Hasher):
/// two runs with the same hash made the same steps.
template <class Run> void hashRun(const Run& run, spark::Hasher& hash)
{
    for (const auto& a : run.agents)
        for (int d = 0; d < a.position.length(); ++d)
        {
            hash.addF64(a.position[d]);
            hash.addF64(a.velocity[d]);
        }
}

template <class Run> bool allReached(const Run& run, double reachedSq)
{
    for (std::size_t i = 0; i < run.agents.size(); ++i)
    {
        const auto d = run.agents[i].position - run.goals[i];
        if (glm::dot(d, d) > reachedSq) // upstream: absSq(p − g) > threshold → not reached
            return false;
    }
    return true;
}

/// One run of a scenario to arrival (or --max-steps).
struct Run
{
    int steps = 0;
    bool arrived = false;
    bool failed = false;
    uint64_t hash = 0;
    double threadSeconds = 0.0;  ///< Sum of the steps' thread CPU.
    double medianThreadMs = 0.0; ///< Median step, thread CPU.
    double wallSeconds = 0.0;    ///< Sum of the steps' elapsed time.
    double medianWallMs = 0.0;   ///< Median step, elapsed.
    double processSeconds = 0.0; ///< Sum of the steps' process CPU (every thread).
    double minRatio = kNaN;      ///< Smallest centre distance / 2r (when measured).
    int minStep = -1;
    int startOverlaps = 0;
    double startOverlapRatio = kNaN;
    int overlapsReleasedBy = -1;
};

double processSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Runs `run` to the end, timing each step.
template <class R, class Step>
Run runToArrival(R& run, const Setup& setup, Step step, int maxSteps, bool minDistance)
{
    Run out;
    std::vector<double> threadMs, wallMs;
    threadMs.reserve(20000);
    wallMs.reserve(20000);
    ClosestPair closest(2.0 * setup.radius);
    if (minDistance)
        closest.start(run.agents);
    spark::Hasher hash;
    while (out.steps < maxSteps)
    {
        const auto w0 = std::chrono::steady_clock::now();
        const double p0 = processSeconds();
        const double t0 = spark::bench::threadSeconds();
        Status status = step(run);
        const double t1 = spark::bench::threadSeconds();
        const double p1 = processSeconds();
        const auto w1 = std::chrono::steady_clock::now();
        if (!status.ok())
        {
            std::fprintf(stderr, "step %d: %s (%s)\n", out.steps + 1, status.error().message.c_str(),
                         status.error().field.c_str());
            out.failed = true;
            break;
        }
        ++out.steps;
        threadMs.push_back((t1 - t0) * 1e3);
        wallMs.push_back(std::chrono::duration<double, std::milli>(w1 - w0).count());
        out.processSeconds += p1 - p0;
        hashRun(run, hash);
        if (minDistance)
            closest.update(run.agents, out.steps);
        if (allReached(run, setup.reachedSq))
        {
            out.arrived = true;
            break;
        }
    }
    out.hash = hash.digest();
    out.threadSeconds = std::accumulate(threadMs.begin(), threadMs.end(), 0.0) * 1e-3;
    out.wallSeconds = std::accumulate(wallMs.begin(), wallMs.end(), 0.0) * 1e-3;
    out.medianThreadMs = spark::bench::median(threadMs);
    out.medianWallMs = spark::bench::median(wallMs);
    if (minDistance)
    {
        out.minRatio = closest.best() / (2.0 * setup.radius);
        out.minStep = closest.step();
        out.startOverlaps = closest.startOverlaps();
        out.startOverlapRatio = closest.startMin() / (2.0 * setup.radius);
        out.overlapsReleasedBy = closest.releasedBy();
    }
    return out;
}

/// Scenario `name` with its starts shifted by k · 0.001 rad (blocks: seed 1 + k) on `threads`.
Run runNamed(const std::string& name, int k, int threads, int maxSteps, bool minDistance)
{
    const double shift = k * 0.001;
    if (name == "circle-250" || name == "circle-1000")
    {
        const bool small = name == "circle-250";
        OrcaRun2D run = makeCircle(small ? 250 : 1000, small ? 200.0f : 800.0f, shift, threads);
        return runToArrival(run, kCircle, sparkOrcaBenchStep2D, maxSteps, minDistance);
    }
    if (name == "blocks")
    {
        OrcaRun2D run = makeBlocks(static_cast<unsigned>(1 + k), threads);
        return runToArrival(run, kBlocks, sparkOrcaBenchStep2D, maxSteps, minDistance);
    }
    OrcaRun3D run = makeSphere(shift, threads);
    return runToArrival(run, kSphere, sparkOrcaBenchStep3D, maxSteps, minDistance);
}

/// A scenario's table row: medians over the rounds.
struct Row
{
    std::string name;
    std::size_t agents = 0;
    Run first; ///< The first one-thread run (steps, hash, min distance).
    double totalSeconds = 0.0, medianMs = 0.0;      ///< One thread.
    double wallSeconds = 0.0, wallMedianMs = 0.0;   ///< All cores, elapsed.
    double processSeconds = 0.0;                    ///< All cores, process CPU.
    unsigned threadsUsed = 0;
    std::vector<int> shiftedSteps; ///< k = 0 .. shifts − 1 (-1: did not arrive).
    double irPerStep = kNaN;
    int irSteps = 0;
    bool irArrived = false;
};

std::size_t agentCount(const std::string& name)
{
    return name == "circle-250" ? 250 : name == "circle-1000" ? 1000 : name == "blocks" ? 100 : 812;
}

std::string grouped(double value, int decimals = 0)
{
    if (std::isnan(value))
        return "-";
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
    std::string s = buffer;
    const std::size_t dot = s.find('.');
    std::size_t end = dot == std::string::npos ? s.size() : dot;
    const std::size_t begin = s[0] == '-' ? 1 : 0;
    for (std::size_t i = end; i > begin + 3; i -= 3)
        s.insert(i - 3, ",");
    return s;
}

std::string fixed(double value, int decimals)
{
    if (std::isnan(value))
        return "-";
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
    return buffer;
}

std::string selfPath()
{
    char buffer[4096];
    const ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
    if (n <= 0)
        return {};
    buffer[n] = '\0';
    return buffer;
}

/// Runs this program under callgrind for one scenario (one thread); fills row.irPerStep.
void measureInstructions(Row& row, const Options& options)
{
    const std::string out = options.callgrindDir + "/callgrind." + row.name + ".out";
    const std::string log = options.callgrindDir + "/callgrind." + row.name + ".stdout";
    std::string command = "valgrind --tool=callgrind --collect-atstart=no --toggle-collect='" +
                          std::string(kStepPattern) + "' --callgrind-out-file='" + out + "' '" + selfPath() +
                          "' --scenario=" + row.name + " --child";
    if (options.callgrindMaxSteps > 0)
        command += " --max-steps=" + std::to_string(options.callgrindMaxSteps);
    command += " > '" + log + "' 2> '" + log + ".stderr'";
    std::printf("callgrind: %s\n", command.c_str());
    std::fflush(stdout);
    if (std::system(command.c_str()) != 0)
    {
        std::fprintf(stderr, "callgrind run failed (see %s.stderr)\n", log.c_str());
        return;
    }
    std::ifstream childOut(log);
    std::string line;
    int steps = -1, arrived = 0;
    while (std::getline(childOut, line))
        if (std::sscanf(line.c_str(), "child steps=%d arrived=%d", &steps, &arrived) == 2)
            break;
    const long long totals = spark::bench::callgrindTotal(out);
    if (steps <= 0 || totals < 0)
    {
        std::fprintf(stderr, "callgrind: could not read the steps or the totals of %s\n", out.c_str());
        return;
    }
    row.irSteps = steps;
    row.irArrived = arrived != 0;
    row.irPerStep = static_cast<double>(totals) / steps;
}

const Reference* referenceFor(const std::string& name)
{
    for (const Reference& r : kRvo2)
        if (name == r.scenario)
            return &r;
    return nullptr;
}

bool parseInt(const char* text, int& value, int lowest)
{
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lowest || v > 100000000)
        return false;
    value = static_cast<int>(v);
    return true;
}

/// "min / median / max" of the shifted starts' step counts.
std::string spread(std::vector<int> steps)
{
    if (std::find(steps.begin(), steps.end(), -1) != steps.end())
        return "not all arrived";
    std::sort(steps.begin(), steps.end());
    return grouped(steps.front()) + " / " + grouped(steps[steps.size() / 2]) + " / " + grouped(steps.back());
}

void printTable(const std::vector<Row>& rows, const Options& options)
{
    std::printf("\nSpark ORCA (spark::nav::Avoidance) on RVO2's / RVO2-3D's example scenarios, %d round(s).\n",
                options.repeats);
    std::printf("RVO2 columns: REFERENCE figures from issue 35 (RVO2 / RVO2-3D -O3 -flto, v2.0-text starts, "
                "this machine kind; not run here).\n\n");
    std::printf("%-11s %6s | %7s %7s | %8s %7s %6s | %7s %7s %6s | %8s %6s %7s %7s | %9s | %-22s | %8s\n",
                "scenario", "agents", "steps", "RVO2", "CPU s", "RVO2 s", "ratio", "ms/step", "RVO2", "ratio",
                "wall s", "ratio", "ms/step", "CPU s", "Ir/step", "steps, shifted starts", "min d/2r");
    std::printf("%-11s %6s | %15s | %-22s | %-22s | %-31s | %9s | %-22s |\n", "", "", "", "one thread: to arrival",
                "one thread: median", "all cores: to arrival, median", "1 thread", "min / median / max");
    for (const Row& r : rows)
    {
        const Reference* ref = referenceFor(r.name);
        const std::string steps = r.first.arrived ? grouped(r.first.steps) : ">" + grouped(r.first.steps);
        std::printf("%-11s %6zu | %7s %7s | %8s %7s %6s | %7s %7s %6s | %8s %6s %7s %7s | %9s | %-22s | %8s\n",
                    r.name.c_str(), r.agents, steps.c_str(), grouped(ref->steps).c_str(),
                    fixed(r.totalSeconds, 3).c_str(), fixed(ref->totalSeconds, 3).c_str(),
                    fixed(r.totalSeconds / ref->totalSeconds, 2).c_str(), fixed(r.medianMs, 4).c_str(),
                    fixed(ref->medianMs, 4).c_str(), fixed(r.medianMs / ref->medianMs, 2).c_str(),
                    fixed(r.wallSeconds, 3).c_str(), fixed(r.wallSeconds / ref->totalSeconds, 2).c_str(),
                    fixed(r.wallMedianMs, 4).c_str(), fixed(r.processSeconds, 3).c_str(),
                    grouped(r.irPerStep).c_str(), spread(r.shiftedSteps).c_str(), fixed(r.first.minRatio, 4).c_str());
    }
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    std::printf("\nCPU s: thread CPU to arrival (sum over the steps); ms/step: the median step (thread CPU on one "
                "thread, elapsed on all cores).\n"
                "all cores: AvoidanceDef::threads = %d (%u hardware threads; a call uses one per 128 agents at most);\n"
                "  wall s = elapsed to arrival, its ratio against RVO2's one-thread CPU; CPU s = process CPU (every "
                "thread).\n"
                "  Every all-cores run gave the one-thread run's bits (run hashes compared).\n",
                options.threads, hardware);
    // Elapsed time counts the cores other programs took: say how busy the machine was.
    double load = kNaN;
    if (std::FILE* f = std::fopen("/proc/loadavg", "r"))
    {
        if (std::fscanf(f, "%lf", &load) != 1)
            load = kNaN;
        std::fclose(f);
    }
    if (!std::isnan(load))
        std::printf("  Load average at the end: %.1f on %u hardware threads%s.\n", load, hardware,
                    load > hardware ? " (BUSY: other programs shared the cores, the elapsed figures overstate "
                                      "an idle machine's)"
                                    : "");
    std::printf("steps, shifted starts: %d runs, every start angle + k * 0.001 rad (blocks: srand seeds 1..%d).\n",
                options.shifts, options.shifts);
    if (options.callgrind)
    {
        std::printf("Ir/step counted over:");
        for (const Row& r : rows)
            if (!std::isnan(r.irPerStep))
                std::printf(" %s %d steps%s", r.name.c_str(), r.irSteps, r.irArrived ? " (whole run)" : " (capped)");
        std::printf(".\n");
    }
    std::printf("min d/2r: smallest centre distance at the start and after every step / 2r.\n");
    for (const Row& r : rows)
        if (r.first.startOverlaps > 0)
            std::printf("  %s: upstream's setup starts %d pair(s) closer than 2r (smallest %.4f x 2r), left out "
                        "until all are 2r apart (after step %d).\n",
                        r.name.c_str(), r.first.startOverlaps, r.first.startOverlapRatio,
                        r.first.overlapsReleasedBy);
    std::printf("\nIssue 35 goals: total CPU to arrival <= 0.7x RVO2's on one thread, elapsed <= 0.4x on all cores:\n");
    for (const Row& r : rows)
    {
        const Reference* ref = referenceFor(r.name);
        if (std::isnan(ref->totalSeconds))
        {
            std::printf("  %-11s no RVO2 total given (steps %s against RVO2's %s)\n", r.name.c_str(),
                        grouped(r.first.steps).c_str(), grouped(ref->steps).c_str());
            continue;
        }
        const double one = r.totalSeconds / ref->totalSeconds, all = r.wallSeconds / ref->totalSeconds;
        std::printf("  %-11s one thread %.2fx %s; all cores %.2fx %s\n", r.name.c_str(), one,
                    one <= 0.7 ? "met" : "NOT met", all, all <= 0.4 ? "met" : "NOT met");
    }
#if defined(NDEBUG)
    const char* asserts = "off";
#else
    const char* asserts = "on";
#endif
    std::printf("\nbuild: compiler %s, asserts %s; project flags -ffp-contract=off -fno-fast-math, no LTO "
                "(CMAKE_BUILD_TYPE sets the -O level: Release is -O2)\n",
                __VERSION__, asserts);
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    for (int i = 1; i < argc; ++i)
    {
        const char* arg = argv[i];
        bool ok = true;
        if (std::strncmp(arg, "--scenario=", 11) == 0)
            options.scenario = arg + 11;
        else if (std::strncmp(arg, "--max-steps=", 12) == 0)
            ok = parseInt(arg + 12, options.maxSteps, 1);
        else if (std::strncmp(arg, "--repeats=", 10) == 0)
            ok = parseInt(arg + 10, options.repeats, 1);
        else if (std::strncmp(arg, "--shifts=", 9) == 0)
            ok = parseInt(arg + 9, options.shifts, 1);
        else if (std::strncmp(arg, "--threads=", 10) == 0)
            ok = parseInt(arg + 10, options.threads, 0) && options.threads <= spark::nav::kMaxAvoidanceThreads;
        else if (std::strcmp(arg, "--callgrind") == 0)
            options.callgrind = true;
        else if (std::strncmp(arg, "--callgrind-max-steps=", 22) == 0)
            ok = parseInt(arg + 22, options.callgrindMaxSteps, 1);
        else if (std::strncmp(arg, "--callgrind-dir=", 16) == 0)
            options.callgrindDir = arg + 16;
        else if (std::strcmp(arg, "--no-min-distance") == 0)
            options.minDistance = false;
        else if (std::strcmp(arg, "--child") == 0)
            options.child = true;
        else
            ok = false;
        if (!ok)
        {
            std::fprintf(stderr,
                         "usage: avoidance_bench [--scenario=circle-250|circle-1000|sphere-812|blocks|all] "
                         "[--repeats=N] [--shifts=N] [--threads=N] [--max-steps=N] [--callgrind] "
                         "[--callgrind-max-steps=N] [--callgrind-dir=DIR] [--no-min-distance]\n(bad argument: %s)\n",
                         arg);
            return 2;
        }
    }
    std::vector<std::string> names;
    if (options.scenario == "all")
        names = {"circle-250", "circle-1000", "sphere-812", "blocks"};
    else if (referenceFor(options.scenario))
        names = {options.scenario};
    else
    {
        std::fprintf(stderr, "unknown scenario %s (circle-250, circle-1000, sphere-812, blocks, all)\n",
                     options.scenario.c_str());
        return 2;
    }
    if (options.child)
    {
        // Under callgrind: one one-thread run, no distances.
        const Run r = runNamed(names[0], 0, 1, options.maxSteps, false);
        std::printf("child steps=%d arrived=%d\n", r.steps, r.arrived ? 1 : 0);
        return r.failed ? 1 : 0;
    }

    std::vector<Row> rows;
    for (const std::string& name : names)
    {
        Row row;
        row.name = name;
        row.agents = agentCount(name);
        std::vector<double> total, median, wall, wallMedian, process;
        for (int round = 0; round < options.repeats; ++round)
        {
            const Run one = runNamed(name, 0, 1, options.maxSteps, options.minDistance && round == 0);
            const Run all = runNamed(name, 0, options.threads, options.maxSteps, false);
            if (one.failed || all.failed)
                return 1;
            if (one.hash != all.hash || one.steps != all.steps)
            {
                std::fprintf(stderr, "%s: one thread and all cores differ (hash %016llx, %d steps against %016llx, "
                                     "%d steps)\n",
                             name.c_str(), static_cast<unsigned long long>(one.hash), one.steps,
                             static_cast<unsigned long long>(all.hash), all.steps);
                return 1;
            }
            if (round == 0)
                row.first = one;
            total.push_back(one.threadSeconds);
            median.push_back(one.medianThreadMs);
            wall.push_back(all.wallSeconds);
            wallMedian.push_back(all.medianWallMs);
            process.push_back(all.processSeconds);
            std::printf("%s round %d: %d steps%s, one thread %.3f s CPU (median %.4f ms/step), all cores %.3f s "
                        "elapsed (median %.4f ms/step, %.3f s CPU), run hash %016llx\n",
                        name.c_str(), round + 1, one.steps, one.arrived ? " (all reached)" : " (NOT all reached)",
                        one.threadSeconds, one.medianThreadMs, all.wallSeconds, all.medianWallMs,
                        all.processSeconds, static_cast<unsigned long long>(one.hash));
            std::fflush(stdout);
        }
        row.totalSeconds = spark::bench::median(total);
        row.medianMs = spark::bench::median(median);
        row.wallSeconds = spark::bench::median(wall);
        row.wallMedianMs = spark::bench::median(wallMedian);
        row.processSeconds = spark::bench::median(process);
        row.shiftedSteps.push_back(row.first.arrived ? row.first.steps : -1);
        for (int k = 1; k < options.shifts; ++k)
        {
            const Run shifted = runNamed(name, k, options.threads, options.maxSteps, false);
            if (shifted.failed)
                return 1;
            row.shiftedSteps.push_back(shifted.arrived ? shifted.steps : -1);
            std::printf("%s shifted k=%d: %d steps%s\n", name.c_str(), k, shifted.steps,
                        shifted.arrived ? "" : " (NOT all reached)");
        }
        rows.push_back(std::move(row));
    }
    if (options.callgrind)
        for (Row& r : rows)
            measureInstructions(r, options);
    printTable(rows, options);
    return 0;
}
