// Progress and cancellation of long commands (spark/core/work.h) through the dispatcher:
// a command stopped at a safe point answers E_CANCELLED and leaves the session bit for
// bit as it was; a control that never stops changes no result; `max_ms` stops a long step.

#include "surface/dispatcher.h"

#include "arena_session.h"

#include "spark/core/work.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace spark::cli;
using spark::scene::SessionState;

// A named namespace: the unity build puts this file next to others with helpers of the same names.
namespace cancel_tests
{

DispatchOptions options()
{
    DispatchOptions o;
    o.projectRoot = SPARK_SOURCE_DIR;
    o.checkResults = true;
    return o;
}

json must(Dispatcher& d, SessionState& s, const std::string& id, const json& params)
{
    json answer = d.call(s, id, params);
    REQUIRE_MESSAGE(answer["ok"].get<bool>(), id << ": " << answer.dump());
    return answer["result"];
}

// A 3D session whose steps move things: the arena, its mesh, a guard with a brain, a
// detached polygon mesh with an agent walking across it.
SessionState movingSession(Dispatcher& d)
{
    SessionState s;
    must(d, s, "nav.bake",
         {{"name", "pad"}, {"source", "polygons"}, {"cell_size", 0.5}, {"bounds", {{"min", {0, 0}}, {"max", {8, 8}}}}});
    must(d, s, "nav.agent.add", {{"mesh", "pad"}, {"position", {0.5, 0.5}}, {"target", {7.5, 7.5}}});
    must(d, s, "space3d.load", {{"path", "samples/space3d/arena.space3d.json"}});
    must(d, s, "nav.bake", {{"name", "arena"}, {"source", "space3d"}, {"agent_radius", 0.4}, {"agent_height", 1.8}});
    must(d, s, "ai.tree.load", {{"path", "samples/ai/guard.bt.json"}});
    must(d, s, "space3d.spawn", arena_session::guardSpawn());
    must(d, s, "nav.agent.add", {{"mesh", "arena"}, {"position", {-8, 0, 8}}, {"target", {6, 0, -6}}});
    return s;
}

struct Long
{
    const char* id;
    json params;
};

std::vector<Long> longCommands()
{
    const json steps = json::array({{{"do", "space3d.step"}, {"frames", 4}},
                                    {{"do", "ai.step"}, {"frames", 4}},
                                    {{"do", "space3d.step"}, {"frames", 4}},
                                    {{"do", "space3d.step"}, {"frames", 4}}});
    return {
        {"space3d.step", {{"frames", 30}}},
        {"ai.step", {{"frames", 30}}},
        {"nav.step", {{"frames", 30}}},
        {"ai.until", {{"that", {{"events", {{"kind", "spotted"}, {"agent", "Guard"}}}}}, {"max_frames", 30}}},
        {"nav.bake", {{"name", "arena"}, {"source", "space3d"}, {"agent_radius", 0.3}, {"agent_height", 1.8}}},
        {"ai.scenario.run", {{"doc", {{"version", 1}, {"name", "steps"}, {"steps", steps}}}}},
    };
}

} // namespace cancel_tests


TEST_CASE("a long command stopped at a safe point answers E_CANCELLED and changes nothing")
{
    Dispatcher d(cancel_tests::options());
    for (const cancel_tests::Long& c : cancel_tests::longCommands())
    {
        CAPTURE(c.id);
        SessionState s = cancel_tests::movingSession(d);
        const uint64_t before = s.hash();
        spark::WorkControl control;
        int reports = 0;
        std::vector<std::string> stages;
        control.setProgress(
            [&](std::string_view stage, uint64_t, uint64_t)
            {
                stages.emplace_back(stage);
                if (++reports == 3) // after some frames or bake stages are done
                    control.requestCancel();
            });
        json answer;
        {
            spark::WorkScope scope(&control);
            answer = d.call(s, c.id, c.params);
        }
        CHECK(reports >= 3);
        REQUIRE_MESSAGE(answer["ok"] == false, answer.dump().substr(0, 300));
        CHECK(answer["error"]["code"] == "E_CANCELLED");
        CHECK(answer["error"]["data"]["reason"] == "cancelled");
        CHECK(!answer["error"]["hint"].get<std::string>().empty());
        CHECK(control.stopped() == spark::WorkStop::Cancel);
        CHECK(s.hash() == before);
        CHECK(s.world.frame() == 0);
    }
}

TEST_CASE("a control that never stops changes no result (same answers and hashes as without one)")
{
    Dispatcher d(cancel_tests::options());
    for (const cancel_tests::Long& c : cancel_tests::longCommands())
    {
        CAPTURE(c.id);
        SessionState plain = cancel_tests::movingSession(d);
        SessionState watched = cancel_tests::movingSession(d);
        const json a = d.call(plain, c.id, c.params);
        spark::WorkControl control;
        uint64_t reports = 0;
        control.setProgress([&](std::string_view, uint64_t, uint64_t) { ++reports; });
        json b;
        {
            spark::WorkScope scope(&control);
            b = d.call(watched, c.id, c.params);
        }
        CHECK(reports > 0);
        CHECK(a == b);
        CHECK(plain.hash() == watched.hash());
    }
}

TEST_CASE("a cancel before the first safe point stops even a one-frame step, changing nothing")
{
    Dispatcher d(cancel_tests::options());
    SessionState s = cancel_tests::movingSession(d);
    const uint64_t before = s.hash();
    spark::WorkControl control;
    control.requestCancel();
    spark::WorkScope scope(&control);
    for (const char* id : {"space3d.step", "ai.step", "nav.step"})
    {
        CAPTURE(id);
        const json answer = d.call(s, id, {{"frames", 1}});
        CHECK(answer["error"]["code"] == "E_CANCELLED");
        CHECK(s.hash() == before);
    }
    // Commands without safe points are not affected.
    CHECK(d.call(s, "space3d.hash", json::object())["ok"] == true);
}

TEST_CASE("max_ms: a request's time limit stops a long step at a safe point (spark run requests)")
{
    Dispatcher d(cancel_tests::options());
    SessionState s = cancel_tests::movingSession(d);
    const uint64_t before = s.hash();
    // 100,000 frames of the arena take far longer than 20 ms.
    const json answer = d.execute(s, {{"command", "space3d.step"}, {"params", {{"frames", 100000}}}, {"max_ms", 20}});
    CHECK(answer["error"]["code"] == "E_CANCELLED");
    CHECK(answer["error"]["data"]["reason"] == "max_ms");
    CHECK(answer["error"]["message"].get<std::string>().find("time limit") != std::string::npos);
    CHECK(s.hash() == before);
    // A limit the command keeps: the same result as without one.
    SessionState twin = cancel_tests::movingSession(d);
    const json limited = d.execute(s, {{"command", "space3d.step"}, {"params", {{"frames", 3}}}, {"max_ms", 600000}});
    CHECK(limited == d.execute(twin, {{"command", "space3d.step"}, {"params", {{"frames", 3}}}}));
    for (const json& bad : {json(0), json(-5), json(1.5), json("10"), json(86400001)})
    {
        CAPTURE(bad);
        const json refused = d.execute(s, {{"command", "space3d.step"}, {"params", json::object()}, {"max_ms", bad}});
        CHECK(refused["error"]["code"] == "E_INVALID_PARAMS");
        CHECK(refused["error"]["data"]["path"] == "/max_ms");
    }
}
