// avoidance_bench.cpp — ORCA avoidance on the classic scenarios (issue 6).
//
//   circle N:  N agents on a circle of radius 200·N/250 swap to the antipodes
//              (dt 0.25, neighbour distance 15, 10 neighbours, horizons 10,
//              radius 1.5, max speed 2, preferred = unit toward the goal,
//              shorter within 1 m of it), N = 250, 1000, 5000.
//   sphere:    fliers on rings of a sphere of radius R, ring i at polar angle
//              i·step, ceil(r / 2.5) fliers on a ring of radius r, swapping to
//              the antipodes (dt 0.125, the rest as the circle): R = 100 with
//              step 0.1 (~800 fliers), and R = 250 with step 0.04 (~5000 fliers,
//              same spacing between rings and along them).
//
// Reported per scenario: milliseconds per avoidance step (median over the first
// 1,000 steps, wall clock and thread CPU time; the move and the statistics are
// not timed), steps until every
// agent is within its radius of its goal (for the 250 circle and the 800
// sphere, which run to the end; the others stop after 1,000 steps), and the
// smallest centre distance over the run divided by 2 × radius.
#include "spark/core/det_math.h"
#include "spark/nav/avoidance.h"

#include <benchmark/benchmark.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <time.h>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

struct Row
{
    std::string name;
    std::size_t agents = 0;
    double msPerStep = 0.0;    ///< Wall clock.
    double cpuMsPerStep = 0.0; ///< This thread's CPU time (robust on a loaded machine).
    int stepsToArrive = -1; ///< -1: not run to the end.
    int stepsRun = 0;
    double minRatio = 0.0;
};

std::vector<Row> g_rows;

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

double median(std::vector<double>& v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

template <class V> double minPairDistance(const std::vector<V>& positions, double cut, std::vector<std::size_t>& order)
{
    order.resize(positions.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return positions[a].x < positions[b].x; });
    double best = 1e300;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size(); ++j)
        {
            const V& a = positions[order[i]];
            const V& b = positions[order[j]];
            if (b.x - a.x > cut)
                break;
            best = std::min(best, glm::length(a - b));
        }
    return best;
}

template <class V> V preferredToward(const V& from, const V& goal)
{
    const V d = goal - from;
    const double l = glm::length(d);
    return l < 1.0 ? d : d / l;
}

/// Runs one scenario; `Agent` is AvoidanceAgent or AvoidanceAgent3D.
template <class Agent, class V>
Row runScenario(const std::string& name, std::vector<Agent> agents, const std::vector<V>& goals, double dt,
                bool toTheEnd, int maxSteps)
{
    AvoidanceDef def = defaultAvoidanceDef();
    def.maxAgents = static_cast<int>(agents.size());
    def.neighborDistance = 15.0;
    def.maxNeighbors = 10;
    def.timeHorizon = 10.0;
    def.timeHorizonObstacles = 10.0;
    auto made = createAvoidance(def);
    if (!made.ok())
        return {};
    Avoidance& avoidance = *made;
    std::vector<V> out(agents.size()), positions(agents.size());
    std::vector<double> times, cpuTimes;
    std::vector<std::size_t> order;
    Row row;
    row.name = name;
    row.agents = agents.size();
    row.minRatio = 1e300;
    const double twoR = 2.0 * agents[0].radius;
    int step = 0;
    for (; step < maxSteps; ++step)
    {
        bool all = true;
        for (std::size_t i = 0; i < agents.size(); ++i)
        {
            if (glm::length(goals[i] - agents[i].position) >= agents[i].radius)
                all = false;
            agents[i].preferred = preferredToward(agents[i].position, goals[i]);
        }
        if (all)
        {
            row.stepsToArrive = step;
            break;
        }
        if (!toTheEnd && step >= 1000)
            break;
        const double c0 = threadCpuMs();
        const auto t0 = std::chrono::steady_clock::now();
        Status status;
        if constexpr (std::is_same_v<Agent, AvoidanceAgent>)
            status = avoidance.avoid(agents, {}, dt, out);
        else
            status = avoidance.avoid3D(agents, {}, dt, out);
        const auto t1 = std::chrono::steady_clock::now();
        const double c1 = threadCpuMs();
        if (!status.ok())
        {
            std::printf("%s: %s\n", name.c_str(), status.error().message.c_str());
            return {};
        }
        benchmark::DoNotOptimize(out.data());
        if (times.size() < 1000)
        {
            times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            cpuTimes.push_back(c1 - c0);
        }
        for (std::size_t i = 0; i < agents.size(); ++i)
        {
            agents[i].velocity = out[i];
            agents[i].position += out[i] * dt;
            positions[i] = agents[i].position;
        }
        row.minRatio = std::min(row.minRatio, minPairDistance(positions, twoR, order) / twoR);
    }
    row.stepsRun = step;
    row.msPerStep = median(times);
    row.cpuMsPerStep = median(cpuTimes);
    return row;
}

Row circle(int n, bool toTheEnd)
{
    std::vector<AvoidanceAgent> agents(static_cast<std::size_t>(n));
    std::vector<glm::dvec2> goals(agents.size());
    const double radius = 200.0 * n / 250.0;
    for (int i = 0; i < n; ++i)
    {
        double s = 0.0, c = 0.0;
        det::sinCos(det::kTwoPi * i / n, s, c);
        AvoidanceAgent& a = agents[static_cast<std::size_t>(i)];
        a.position = {radius * c, radius * s};
        a.radius = 1.5;
        a.maxSpeed = 2.0;
        a.id = static_cast<uint32_t>(i);
        goals[static_cast<std::size_t>(i)] = -a.position;
    }
    return runScenario("circle " + std::to_string(n), agents, goals, 0.25, toTheEnd, 20000);
}

Row sphere(double sphereRadius, double polarStep, bool toTheEnd)
{
    std::vector<AvoidanceAgent3D> agents;
    std::vector<glm::dvec3> goals;
    for (int ring = 0; ring * polarStep < det::kPi; ++ring)
    {
        double s = 0.0, c = 0.0;
        det::sinCos(ring * polarStep, s, c);
        const double r = sphereRadius * s;
        const int count = static_cast<int>(std::ceil(r / 2.5));
        for (int k = 0; k < count; ++k)
        {
            double s2 = 0.0, c2 = 0.0;
            det::sinCos(det::kTwoPi * k / count, s2, c2);
            AvoidanceAgent3D a;
            a.position = {r * c2, sphereRadius * c, r * s2};
            a.radius = 1.5;
            a.maxSpeed = 2.0;
            a.id = static_cast<uint32_t>(agents.size());
            agents.push_back(a);
            goals.push_back(-a.position);
        }
    }
    return runScenario("sphere " + std::to_string(agents.size()), agents, goals, 0.125, toTheEnd, 20000);
}

void report(benchmark::State& state, const Row& row)
{
    state.counters["agents"] = static_cast<double>(row.agents);
    state.counters["ms_per_step"] = row.msPerStep;
    state.counters["cpu_ms_per_step"] = row.cpuMsPerStep;
    state.counters["steps_to_arrive"] = row.stepsToArrive;
    state.counters["min_dist_over_2r"] = row.minRatio;
    g_rows.push_back(row);
}

void BM_Circle250(benchmark::State& state)
{
    for (auto _ : state)
        report(state, circle(250, true));
}
void BM_Circle1000(benchmark::State& state)
{
    for (auto _ : state)
        report(state, circle(1000, false));
}
void BM_Circle5000(benchmark::State& state)
{
    for (auto _ : state)
        report(state, circle(5000, false));
}
void BM_Sphere800(benchmark::State& state)
{
    for (auto _ : state)
        report(state, sphere(100.0, 0.1, true));
}
void BM_Sphere5000(benchmark::State& state)
{
    for (auto _ : state)
        report(state, sphere(250.0, 0.04, false));
}

BENCHMARK(BM_Circle250)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Circle1000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Circle5000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Sphere800)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Sphere5000)->Iterations(1)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();

    std::printf("\nORCA avoidance (spark::nav::Avoidance), one thread\n");
    std::printf("%-14s %8s %14s %13s %16s %10s %14s\n", "scenario", "agents", "ms/step wall", "ms/step cpu",
                "steps to arrive", "steps run", "min dist / 2r");
    for (const Row& r : g_rows)
    {
        const std::string arrive = r.stepsToArrive >= 0 ? std::to_string(r.stepsToArrive) : "(not run)";
        std::printf("%-14s %8zu %14.3f %13.3f %16s %10d %14.4f\n", r.name.c_str(), r.agents, r.msPerStep,
                    r.cpuMsPerStep, arrive.c_str(), r.stepsRun, r.minRatio);
    }
    std::printf("ms/step: median over the first 1,000 steps of Avoidance::avoid / avoid3D alone (wall clock, and\n"
                "this thread's CPU time, which a loaded machine does not inflate).\n");
#if defined(__OPTIMIZE__)
    const char* optimised = "yes";
#else
    const char* optimised = "no";
#endif
#if defined(NDEBUG)
    const char* asserts = "off";
#else
    const char* asserts = "on";
#endif
    std::printf("build: compiler %s, optimised %s, asserts %s; project flags -ffp-contract=off -fno-fast-math "
                "(CMAKE_BUILD_TYPE sets the -O level)\n",
                __VERSION__, optimised, asserts);
    return 0;
}
