// The crowd step on several threads (libnav/src/crowd/crowd_phases.cpp):
// the same crowd stepped with 1, 2 and 7 threads hashes the same after every
// step, and the thread setting is checked.

#include "crowd_test_util.h"

#include "spark/core/hash.h"

#include <doctest/doctest.h>

#include <array>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

namespace
{

/// A 48 × 48 m hall with 2 × 2 m pillars every 8 m: every agent of a 1.3 m
/// grid clear of the pillars (over 900, enough for 7 workers of 128) is sent
/// to the point mirrored through the centre, so they meet in the middle
/// (arrival, make way, give way, keep right, detours all take part).
void buildHall(Scene& s)
{
    std::vector<Rect2D> pillars;
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j)
        {
            const float x = 7.0f + 8.0f * static_cast<float>(i), z = 7.0f + 8.0f * static_cast<float>(j);
            pillars.push_back(Rect2D{{x, z}, {x + 2.0f, z + 2.0f}});
        }
    putGround(s, bakeShapes(box(0, 0, 48, 48, pillars)));
    for (int r = 0; r < 36; ++r)
        for (int c = 0; c < 36; ++c)
        {
            const float x = 1.0f + 1.3f * static_cast<float>(c), z = 1.0f + 1.3f * static_cast<float>(r);
            bool clear = true;
            for (const Rect2D& p : pillars)
                clear = clear && !(x > p.min.x - 1.0f && x < p.max.x + 1.0f && z > p.min.y - 1.0f && z < p.max.y + 1.0f);
            if (clear)
                addWalker(s, x, z, 48.0f - x, 48.0f - z);
        }
}

} // namespace

TEST_CASE("a crowd stepped on 1, 2 and 7 threads hashes the same after every step")
{
    std::array<Scene, 3> scenes;
    const std::array<int, 3> threads = {1, 2, 7};
    for (size_t k = 0; k < scenes.size(); ++k)
    {
        buildHall(scenes[k]);
        REQUIRE(scenes[k].world.setCrowdThreads(threads[k]).ok());
        CHECK(scenes[k].world.crowdThreads() == threads[k]);
    }
    REQUIRE(scenes[0].agents.size() > 7 * 128);
    for (int step = 1; step <= 240; ++step)
    {
        // A carved pillar half-way: the corridors through it are planned again (in the per-agent phase).
        if (step == 120)
            for (Scene& s : scenes)
            {
                ObstacleDef def = defaultObstacleDef();
                def.shape.shape = FootprintShape::Box;
                def.shape.halfExtents = glm::vec2(1.5f, 1.5f);
                def.position = glm::vec3(24.0f, 0.0f, 24.0f);
                REQUIRE(s.world.addObstacle(s.mesh, def).ok());
            }
        for (Scene& s : scenes)
            REQUIRE(s.world.stepCrowds(kDt).ok());
        const uint64_t one = scenes[0].world.hashState();
        if (scenes[1].world.hashState() != one || scenes[2].world.hashState() != one)
        {
            FAIL_CHECK("the thread counts differ after step " << step);
            break;
        }
    }
    const CrowdCounts counts = scenes[0].world.crowdCounts();
    CHECK(counts.moving + counts.arrived == scenes[0].agents.size()); // they walk: the scene tests something
}

TEST_CASE("the crowd's thread count is 0 (every hardware thread) to kMaxCrowdThreads")
{
    NavWorld world;
    CHECK(world.crowdThreads() == 0);
    REQUIRE(world.setCrowdThreads(3).ok());
    for (int bad : {-1, kMaxCrowdThreads + 1})
    {
        const Status st = world.setCrowdThreads(bad);
        REQUIRE_FALSE(st.ok());
        CHECK(st.error().code == "E_INVALID_PARAMS");
        CHECK(st.error().field == "/threads");
        CHECK(world.crowdThreads() == 3); // unchanged
    }
    REQUIRE(world.setCrowdThreads(kMaxCrowdThreads).ok());
    REQUIRE(world.setCrowdThreads(0).ok());
    CHECK(world.crowdThreads() == 0);
}

TEST_CASE("with a plan budget that leaves requests waiting, 1, 2 and 7 threads hash the same after every step")
{
    // The plan queue's searches run in batches on the workers and the
    // answers past the budget are thrown away: which requests are served
    // must not depend on the thread count.
    std::array<Scene, 3> scenes;
    const std::array<int, 3> threads = {1, 2, 7};
    for (size_t k = 0; k < scenes.size(); ++k)
    {
        REQUIRE(scenes[k].world.setPlanNodesPerStep(3000).ok());
        REQUIRE(scenes[k].world.setCrowdThreads(threads[k]).ok());
        buildHall(scenes[k]);
    }
    uint32_t maxWaiting = 0, stepsWaiting = 0;
    for (int step = 1; step <= 120; ++step)
    {
        for (Scene& s : scenes)
            REQUIRE(s.world.stepCrowds(kDt).ok());
        const CrowdPlanStats& stats = scenes[0].world.lastPlanStats();
        maxWaiting = std::max(maxWaiting, stats.waiting);
        stepsWaiting += stats.waiting > 0 ? 1 : 0;
        for (size_t k = 1; k < scenes.size(); ++k)
        {
            const CrowdPlanStats& other = scenes[k].world.lastPlanStats();
            REQUIRE(other.served == stats.served);
            REQUIRE(other.nodes == stats.nodes);
            REQUIRE(other.waiting == stats.waiting);
        }
        const uint64_t one = scenes[0].world.hashState();
        if (scenes[1].world.hashState() != one || scenes[2].world.hashState() != one)
        {
            FAIL_CHECK("the thread counts differ after step " << step);
            break;
        }
    }
    // The budget did leave requests waiting over several steps.
    CHECK(maxWaiting > 128);
    CHECK(stepsWaiting >= 3);
    MESSAGE("most requests waiting: " << maxWaiting << ", steps with some waiting: " << stepsWaiting);
}
