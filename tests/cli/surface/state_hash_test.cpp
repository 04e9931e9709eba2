// The session hash keeps what rarely changes: the hash of the AI documents
// (until a tree or utility document is loaded: AiState::documentsHash) and
// of each named snapshot (taken with it: WorldSnapshot). Held here to the
// hash taken from scratch after every kind of change, to moving with each
// change and to staying put through failed commands; and issue 42's "AI hash
// per change" reproducer (ai.blackboard.set with 1,000 brains of 2,048
// nodes took 270-290 ms a call), bounded.

#include "surface/dispatcher.h"

#include "arena_session.h"

#include "spark/core/hash.h"

#include <doctest/doctest.h>

#include <ctime>
#include <fstream>
#include <string>

// A named namespace: the unity build puts other tests' helpers beside these.
namespace state_hash_test
{

using namespace spark::cli;
using spark::scene::SessionState;

DispatchOptions checking()
{
    DispatchOptions o;
    o.projectRoot = SPARK_SOURCE_DIR;
    o.checkResults = true; // results against their schemas; a failed mutating command must leave the hash
    return o;
}

json run(Dispatcher& d, SessionState& s, const std::string& id, const json& params)
{
    const json answer = d.call(s, id, params);
    INFO(id, " ", params.dump(), " -> ", answer.dump().substr(0, 2000));
    REQUIRE(answer["ok"] == true);
    return answer["result"];
}

void refused(Dispatcher& d, SessionState& s, const std::string& id, const json& params, const std::string& code)
{
    const json answer = d.call(s, id, params);
    INFO(id, " ", params.dump(), " -> ", answer.dump().substr(0, 2000));
    REQUIRE(answer["ok"] == false);
    CHECK(answer["error"]["code"] == code);
}

/// The hash of a saved world with nothing kept: the AI documents and every
/// brain hashed anew.
void hashWorldAfresh(spark::Hasher& h, const spark::scene::WorldState& state)
{
    spark::scene::World probe;
    probe.restoreState(state);
    probe.ai().documentsHash.reset();
    (void)probe.ai().brains.begin(); // clears every brain's kept digest
    probe.hashState(h);
}

/// SessionState::hash as it was before it kept anything: every snapshot
/// restored into a world and hashed, every AI document hashed as JSON.
uint64_t sessionHashAfresh(const SessionState& s)
{
    spark::Hasher h;
    h.addString("session/2");
    hashWorldAfresh(h, s.world.saveState());
    h.addBool(s.scene2d.has_value());
    if (s.scene2d)
        h.addU64(spark::scene::hashScene2D(*s.scene2d));
    h.addU64(s.snapshots.size());
    for (const auto& [name, snapshot] : s.snapshots)
    {
        h.addString(name);
        spark::Hasher w;
        hashWorldAfresh(w, snapshot.state());
        h.addU64(w.digest());
    }
    return h.digest();
}

json guardDoc(double range)
{
    std::ifstream in(std::string(SPARK_SOURCE_DIR) + "/samples/ai/guard.bt.json");
    json doc = json::parse(in);
    doc["root"]["children"][0]["children"][0]["params"]["range"] = range;
    return doc;
}

json utilityDoc(double inertia)
{
    std::ifstream in(std::string(SPARK_SOURCE_DIR) + "/samples/ai/rest-patrol-flee.utility.json");
    json doc = json::parse(in);
    doc["inertia"] = inertia;
    return doc;
}

/// A tree of `nodes` nodes: a sequence of stop actions.
json wideTree(const std::string& name, int nodes)
{
    json doc = {{"version", 1}, {"name", name}, {"root", {{"type", "sequence"}, {"children", json::array()}}}};
    for (int i = 1; i < nodes; ++i)
        doc["root"]["children"].push_back({{"type", "action"}, {"name", "stop"}});
    return doc;
}

TEST_CASE("the kept AI document and snapshot hashes give the hash taken from scratch, and move with every change")
{
    Dispatcher d(checking());
    SessionState s;
    run(d, s, "space3d.load", {{"path", "samples/space3d/arena.space3d.json"}});
    run(d, s, "nav.bake", {{"name", "arena"}, {"source", "space3d"}, {"agent_radius", 0.4}});
    run(d, s, "ai.tree.load", {{"doc", guardDoc(10)}});
    run(d, s, "ai.utility.load", {{"doc", utilityDoc(0.1)}});
    run(d, s, "space3d.spawn", arena_session::guardSpawn());
    run(d, s, "ai.step", {{"frames", 1}});
    REQUIRE(s.world.ai().brains.contains("Guard"));

    uint64_t last = s.hash();
    CHECK(last == sessionHashAfresh(s));
    // Runs a command that must succeed and change the hash, or fail and not; both equal to the fresh hash.
    auto changes = [&](const std::string& id, const json& params) {
        run(d, s, id, params);
        const uint64_t now = s.hash();
        INFO(id, " ", params.dump().substr(0, 200));
        CHECK(now != last);
        CHECK(now == sessionHashAfresh(s));
        last = now;
    };
    auto failsAndKeeps = [&](const std::string& id, const json& params, const std::string& code) {
        refused(d, s, id, params, code);
        INFO(id, " ", params.dump().substr(0, 200));
        CHECK(s.hash() == last);
        CHECK(sessionHashAfresh(s) == last);
    };

    // The AI documents: a kept hasher, the same object until one is loaded.
    REQUIRE(s.world.ai().documentsHash);
    const spark::Hasher* kept = s.world.ai().documentsHash.get();
    changes("ai.blackboard.set", {{"agent", "Guard"}, {"key", "alert"}, {"value", 1}});
    changes("ai.blackboard.set", {{"agent", "Guard"}, {"key", "alert"}, {"value", 2}});
    CHECK(s.world.ai().documentsHash.get() == kept);
    changes("ai.tree.load", {{"doc", guardDoc(11)}}); // the same tree again, one number changed
    CHECK(s.world.ai().documentsHash.get() != kept);
    changes("ai.tree.load", {{"doc", wideTree("other", 3)}});
    changes("ai.utility.load", {{"doc", utilityDoc(0.2)}});
    changes("ai.step", {{"frames", 2}});
    failsAndKeeps("ai.tree.load", {{"doc", wideTree("bad", 5000)}}, "E_AI_LIMIT");
    failsAndKeeps("ai.utility.load", {{"doc", {{"version", 1}, {"name", "u"}}}}, "E_AI_SCHEMA");
    failsAndKeeps("ai.blackboard.set", {{"agent", "Nobody"}, {"key", "alert"}, {"value", 1}}, "E_AI_UNKNOWN");

    // The snapshots: each one's hash is taken with it.
    changes("space3d.snapshot.take", {{"name", "a"}});
    changes("ai.step", {{"frames", 1}});
    changes("space3d.snapshot.take", {{"name", "b"}});
    changes("ai.blackboard.set", {{"agent", "Guard"}, {"key", "alert"}, {"value", 3}});
    changes("space3d.snapshot.take", {{"name", "a"}}); // replaced by a different world
    CHECK(s.snapshots.at("a").hash() != s.snapshots.at("b").hash());
    changes("space3d.snapshot.restore", {{"name", "b"}});
    CHECK(s.world.hashState() == s.snapshots.at("b").hash());
    changes("space3d.snapshot.drop", {{"name", "a"}});
    failsAndKeeps("space3d.snapshot.drop", {{"name", "a"}}, "E_SCENE_UNKNOWN");
    d.options().snapshotByteBudget = 1;
    failsAndKeeps("space3d.snapshot.take", {{"name", "c"}}, "E_SCENE_LIMIT");
    d.options().snapshotByteBudget = spark::scene::kMaxSnapshotBytes;

    // A saved and restored session hashes the same; its snapshots are shared, not copied.
    const spark::scene::SessionSnapshot saved = s.save();
    CHECK(&saved.snapshots.at("b").state() == &s.snapshots.at("b").state());
    SessionState copy;
    copy.restore(saved);
    CHECK(copy.hash() == last);
    changes("space3d.new", json::object()); // drops the snapshots
    CHECK(s.snapshots.empty());
}

TEST_CASE("ai.blackboard.set with 1,000 brains of 2,048 nodes is bounded (issue 42: 270-290 ms a call)")
{
    DispatchOptions o = checking();
    o.checkResults = false; // as `spark` runs: the command alone
    Dispatcher d(o);
    SessionState s;
    run(d, s, "nav.bake",
         {{"name", "pad"}, {"source", "polygons"}, {"cell_size", 0.5}, {"bounds", {{"min", {0, 0}}, {"max", {40, 40}}}}});
    run(d, s, "ai.tree.load", {{"doc", wideTree("big", 2048)}});
    REQUIRE(s.world.ai().trees.at("big").nodes.size() == 2048);
    std::vector<uint64_t> agents;
    for (int i = 0; i < 1000; ++i)
    {
        const json added =
            run(d, s, "nav.agent.add", {{"mesh", "pad"}, {"position", {0.5 + (i % 40), 0.5 + (i / 40)}}});
        agents.push_back(added["agent"].get<uint64_t>());
        run(d, s, "ai.brain.attach", {{"agent", agents.back()}, {"tree", "big"}});
    }
    REQUIRE(s.world.ai().brains.size() == 1000);

    const int calls = 50;
    const std::clock_t start = std::clock();
    for (int i = 0; i < calls; ++i)
    {
        const json r = run(d, s, "ai.blackboard.set", {{"agent", agents[static_cast<size_t>(i * 17 % 1000)]},
                                                         {"key", "alert"},
                                                         {"value", i}});
        CHECK(r["replaced"] == false);
    }
    const double perCall = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC / calls;
    MESSAGE("ai.blackboard.set with 1,000 brains of 2,048 nodes: ", perCall * 1000.0, " ms a call");
    CHECK(perCall < 0.02);
    // The checked hash (a tests' dispatcher hashes the session before every mutating command) agrees.
    CHECK(s.hash() == sessionHashAfresh(s));
}

} // namespace state_hash_test
