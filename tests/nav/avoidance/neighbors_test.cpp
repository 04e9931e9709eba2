// The neighbour grids (libnav/src/avoidance/neighbor_grid_2d.cpp, neighbor_grid_3d.cpp) against brute force.
#include "avoidance_internal.h"

#include "spark/core/rng.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace spark;
using namespace spark::nav::detail;

namespace
{

template <class V> std::vector<Neighbor> bruteForce(const std::vector<V>& p, const std::vector<uint32_t>& ids,
                                                    std::size_t self, double range, std::size_t k)
{
    std::vector<Neighbor> all;
    for (std::size_t j = 0; j < p.size(); ++j)
    {
        if (j == self)
            continue;
        const double d = glm::dot(p[j] - p[self], p[j] - p[self]);
        if (d < range * range)
            all.push_back({d, static_cast<uint32_t>(j), ids[j]});
    }
    std::sort(all.begin(), all.end(), [](const Neighbor& a, const Neighbor& b) {
        if (a.distanceSquared != b.distanceSquared)
            return a.distanceSquared < b.distanceSquared;
        return a.id != b.id ? a.id < b.id : a.index < b.index;
    });
    if (all.size() > k)
        all.resize(k);
    return all;
}

bool same(const std::vector<Neighbor>& a, const std::vector<Neighbor>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].index != b[i].index || a[i].distanceSquared != b[i].distanceSquared)
            return false;
    return true;
}

} // namespace

TEST_CASE("the 2D neighbour grid returns the k nearest in (distance, id, index) order, as brute force does")
{
    Rng rng = rngFromSeed(7);
    std::vector<glm::dvec2> p;
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < 600; ++i)
    {
        // A dense cluster, a sparse field, and exact duplicates (ties by id).
        if (i < 300)
            p.push_back({rngNextDouble(rng) * 10.0, rngNextDouble(rng) * 10.0});
        else if (i < 580)
            p.push_back({rngNextDouble(rng) * 400.0 - 200.0, rngNextDouble(rng) * 400.0 - 200.0});
        else
            p.push_back({5.0, 5.0});
        ids.push_back(1000 - i);
    }
    NeighborGrid2D grid;
    grid.build(p, ids, 15.0);
    std::vector<Neighbor> out;
    for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t k : {std::size_t{1}, std::size_t{10}, std::size_t{64}})
        {
            grid.query(i, 15.0, k, out);
            CHECK(same(out, bruteForce(p, ids, i, 15.0, k)));
        }
}

TEST_CASE("on the plane, bands with empty strips between and at the table's ends answer as brute force")
{
    // The plane's query walks, per home strip, a list of the strips in reach
    // that hold agents (built with the grid). Bands across y leave empty
    // strips between them (left out of the lists) and strips at both ends of
    // the table (offsets past them left out); strips of each width the build
    // picks (by the expected count) reach 1 to 4 strips to each side; the
    // queries ask for the whole build range and less.
    Rng rng = rngFromSeed(41);
    std::vector<glm::dvec2> p;
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < 360; ++i)
    {
        // Six bands 2.5 m thick, 7 m apart in two groups of three 20 m apart.
        const double band = static_cast<double>(i % 6) * 7.0 + (i % 6 >= 3 ? 13.0 : 0.0);
        p.push_back({rngNextDouble(rng) * 40.0, band + rngNextDouble(rng) * 2.5});
        ids.push_back(i % 11);
    }
    const double range = 15.0;
    int wrong = 0, queries = 0;
    std::vector<Neighbor> out;
    for (const std::size_t expected : {std::size_t{0}, std::size_t{2}, std::size_t{10}, std::size_t{60}})
    {
        NeighborGrid2D grid;
        grid.build(p, ids, range, expected);
        for (const double queryRange : {range, range * 0.5, range * 0.15})
            for (const std::size_t k : {std::size_t{1}, std::size_t{10}, std::size_t{64}})
                for (std::size_t i = 0; i < p.size(); ++i, ++queries)
                {
                    grid.query(i, queryRange, k, out);
                    wrong += same(out, bruteForce(p, ids, i, queryRange, k)) ? 0 : 1;
                }
    }
    CHECK(wrong == 0);
    CHECK(queries == 4 * 3 * 3 * 360);
}

TEST_CASE("the 3D neighbour grid returns the k nearest, also when the agents span a huge extent")
{
    Rng rng = rngFromSeed(11);
    std::vector<glm::dvec3> p;
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < 400; ++i)
    {
        const double spread = i < 200 ? 20.0 : 2.0e6; // the far ones force wider cells
        p.push_back({(rngNextDouble(rng) - 0.5) * spread, (rngNextDouble(rng) - 0.5) * spread * 0.5,
                     (rngNextDouble(rng) - 0.5) * spread});
        ids.push_back(i);
    }
    NeighborGrid3D grid;
    grid.build(p, ids, 4.0);
    std::vector<Neighbor> out;
    for (std::size_t i = 0; i < p.size(); ++i)
    {
        grid.query(i, 4.0, 10, out);
        CHECK(same(out, bruteForce(p, ids, i, 4.0, 10)));
    }
}

TEST_CASE("a 3D neighbour tying the k-th is found though dx² + its strip's distance across rounds above")
{
    // Cells 1 m wide (range 3.5, no expected count). A sits 2^-27 m below
    // the corner of its column; B, in the next column diagonally, lies 1 m
    // along x and 2^-27 m across in y and z: its squared distance
    // (1 + 2^-54) + 2^-54 rounds to 1, but dx² + the strip's distance
    // across, 1 + 2^-53, does not. C, in A's column, lies exactly 1 m away
    // and is found first; B's lower id puts it first in the order. A scan
    // that tested dx² against the bound minus the distance across, with no
    // margin for the rounding, would skip B and answer C.
    const double e = std::ldexp(1.0, -27);
    const std::vector<glm::dvec3> p{
        {100.0, 0.0, 0.0}, {0.0, 1.0 - e, 1.0 - e}, {-1.0, 1.0 - e, 1.0 - e}, {1.0, 1.0, 1.0}};
    const std::vector<uint32_t> ids{10, 11, 13, 12};
    NeighborGrid3D grid;
    grid.build(p, ids, 3.5);
    std::vector<Neighbor> out;
    grid.query(1, 3.5, 1, out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].index == 3);
    CHECK(out[0].distanceSquared == 1.0);
    CHECK(same(out, bruteForce(p, ids, 1, 3.5, 1)));
}

TEST_CASE("a grid rebuilt every step (from its last order) still answers as brute force, also after a shuffle")
{
    // The build starts each strip from the last build's order: agents drift a
    // little per step (nearly sorted strips), then the x coordinates are
    // mirrored (every strip reversed: the insertion sort gives up for
    // std::sort), then the count changes (index order again). Twenty agents
    // share one x (ties, broken by index). A strip out of x order would stop
    // the scans early and lose neighbours.
    Rng rng = rngFromSeed(23);
    std::vector<glm::dvec2> p;
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < 300; ++i)
    {
        p.push_back({rngNextDouble(rng) * 60.0, rngNextDouble(rng) * 60.0});
        ids.push_back(i % 7);
    }
    for (uint32_t i = 0; i < 20; ++i)
        p[i].x = 30.0; // one x for twenty agents
    NeighborGrid2D grid;
    std::vector<Neighbor> out;
    int wrong = 0, queries = 0;
    const auto checkAll = [&]
    {
        grid.build(p, ids, 6.0, 10);
        for (std::size_t i = 0; i < p.size(); ++i, ++queries)
        {
            grid.query(i, 6.0, 10, out);
            wrong += same(out, bruteForce(p, ids, i, 6.0, 10)) ? 0 : 1;
        }
        // The grid order is a permutation of the agents.
        std::vector<int> seen(p.size(), 0);
        for (std::size_t slot = 0; slot < p.size(); ++slot)
            ++seen[grid.agentAt(slot)];
        wrong += std::count(seen.begin(), seen.end(), 1) == static_cast<std::ptrdiff_t>(p.size()) ? 0 : 1;
    };
    for (int step = 0; step < 12; ++step)
    {
        checkAll();
        for (std::size_t i = 20; i < p.size(); ++i)
            p[i] += glm::dvec2(rngNextRange(rng, -0.5, 0.5), rngNextRange(rng, -0.5, 0.5));
    }
    for (glm::dvec2& q : p)
        q.x = 60.0 - q.x;
    checkAll();
    p.resize(250);
    ids.resize(250);
    checkAll();
    checkAll();
    CHECK(wrong == 0);
    CHECK(queries == 15 * 300 - 2 * 50);
}

TEST_CASE("the first bound a search tries (its guess of where the k nearest lie) changes no answer")
{
    // The avoidance starts each search at a guess: an agent's own k-th
    // distance of the last step, grown, the last agent's, or (in space, after
    // fewer than k were found) none, the whole range. Too small, exact (the
    // k-th on the bound), a little or far too large, past the range, or
    // none: the same list as brute force. A dense cluster and a sparse field
    // (agents with fewer than k within the range).
    Rng rng = rngFromSeed(31);
    const auto check = [&](auto& grid, const auto& p, const std::vector<uint32_t>& ids, double range)
    {
        constexpr std::size_t k = 10;
        std::vector<Neighbor> room(k);
        int wrong = 0, fewer = 0;
        for (std::size_t i = 0; i < p.size(); ++i)
        {
            const std::vector<Neighbor> truth = bruteForce(p, ids, i, range, k);
            fewer += truth.size() < k ? 1 : 0;
            const double kth = truth.empty() ? 1.0 : truth.back().distanceSquared;
            for (const double guess : {0.0, kth * 0.5, kth, kth * 1.05, kth * 4.0, range * range * 2.0})
            {
                const std::size_t found = grid.query(i, range, k, room.data(), guess);
                const std::vector<Neighbor> got(room.begin(), room.begin() + static_cast<std::ptrdiff_t>(found));
                wrong += same(got, truth) ? 0 : 1;
            }
        }
        CHECK(wrong == 0);
        CHECK(fewer > 20);
        CHECK(fewer < static_cast<int>(p.size()) - 20);
    };
    std::vector<uint32_t> ids;
    std::vector<glm::dvec2> p2;
    std::vector<glm::dvec3> p3;
    for (uint32_t i = 0; i < 400; ++i)
    {
        const double spread = i < 200 ? 12.0 : 150.0;
        p2.push_back({rngNextDouble(rng) * spread, rngNextDouble(rng) * spread});
        p3.push_back(
            {rngNextDouble(rng) * spread, rngNextDouble(rng) * spread * 0.5, rngNextDouble(rng) * spread});
        ids.push_back(i % 13);
    }
    NeighborGrid2D grid2;
    grid2.build(p2, ids, 8.0, 10);
    check(grid2, p2, ids, 8.0);
    NeighborGrid3D grid3;
    grid3.build(p3, ids, 8.0, 10);
    check(grid3, p3, ids, 8.0);
}
