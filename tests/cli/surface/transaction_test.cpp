// Transactions over the real command table: every mutating command, given bad
// input in a rich session, answers ok:false with its code and leaves the
// session state bit for bit as it was (`SessionState::hash()`).
//
// The table below is the contract. Every command the registry marks as
// mutating must have at least one row, so a new mutating command without error
// cases fails this test. Rows say which session they run in: the rich 3D
// session (a 3D scene, meshes and AI documents in its world, a 2D scene made
// before it whose meshes the 3D load dropped), the same stepped once so that
// its guard is an agent with a brain (plus a crowd agent without one), a
// 2D-only session (2D and polygon meshes and AI in a world without a 3D scene,
// a 2D scene), or an empty one (for "nothing loaded yet" errors).

#include "surface/dispatcher.h"

#include "arena_session.h"

#include "runners/scenario.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace spark::cli;
using spark::scene::SessionState;

namespace
{

enum class Session
{
    Rich,   ///< 3D scene with meshes and AI, and a 2D scene.
    TwoD,   ///< No 3D scene: a 2D scene, 2D and polygon meshes and AI.
    Empty,  ///< A fresh session.
    Agents, ///< Rich, stepped once: Guard is an agent with a brain; crowd agent 1048577 has none.
};

std::string sessionName(Session s)
{
    switch (s)
    {
    case Session::Rich:
        return "rich 3D session";
    case Session::TwoD:
        return "2D-only session";
    case Session::Empty:
        return "empty session";
    case Session::Agents:
        return "rich 3D session with agents";
    }
    return "?";
}

/// One error case: a command, its params, the code it must fail with, where.
struct ErrorCase
{
    std::string command;
    json params;
    std::string code;
    Session session = Session::Rich;
};

DispatchOptions options()
{
    DispatchOptions o;
    o.projectRoot = SPARK_SOURCE_DIR;
    o.checkResults = false; // the test checks the state itself
    return o;
}

// Runs a command that must succeed and returns its result.
json must(Dispatcher& d, SessionState& s, const std::string& id, const json& params)
{
    const json answer = d.call(s, id, params);
    INFO(id, " ", params.dump(), " -> ", answer.dump());
    REQUIRE(answer["ok"] == true);
    return answer["result"];
}

// The 2D part every non-empty session has: the maze scene, its mesh and a
// polygon mesh, and a tree (a 3D load drops the meshes and the tree, not the 2D scene).
void add2D(Dispatcher& d, SessionState& s)
{
    must(d, s, "scene2d.load", {{"path", "samples/scene2d/maze.scene2d.json"}});
    must(d, s, "nav.bake", {{"name", "maze"}, {"source", "scene2d"}, {"agent_radius", 0.3}});
    must(d, s, "nav.bake",
         {{"name", "pad"},
          {"source", "polygons"},
          {"cell_size", 0.5},
          {"bounds", {{"min", {0, 0}}, {"max", {4, 4}}}}});
    must(d, s, "ai.tree.load", {{"path", "samples/ai/guard.bt.json"}});
}

/// The crowd agent without a brain that the session with agents adds (the
/// guard's own crowd agent is the first, 1048576).
constexpr uint64_t kBrainlessAgent = 1048577;

SessionState makeSession(Dispatcher& d, Session kind)
{
    if (kind == Session::Agents)
    {
        SessionState s = makeSession(d, Session::Rich);
        const json stepped = must(d, s, "ai.step", {{"frames", 1}});
        REQUIRE(stepped["agents"] == 1);
        const json added = must(d, s, "nav.agent.add", {{"mesh", "arena"}, {"position", {-8, 0, 8}}});
        REQUIRE(added["agent"] == kBrainlessAgent);
        REQUIRE(s.world.agents().count("Guard") == 1);
        REQUIRE(s.world.ai().brains.contains("Guard"));
        REQUIRE(s.world.nav().agentCount() == 2);
        return s;
    }
    SessionState s;
    if (kind == Session::Empty)
        return s;
    add2D(d, s);
    if (kind == Session::TwoD)
    {
        REQUIRE_FALSE(s.world.hasScene());
        REQUIRE(s.world.nav().meshCount() == 2);
        REQUIRE(s.world.ai().trees.size() == 1);
        return s;
    }
    must(d, s, "space3d.load", {{"path", "samples/space3d/arena.space3d.json"}});
    must(d, s, "nav.bake",
         {{"name", "arena"}, {"source", "space3d"}, {"agent_radius", 0.4}, {"agent_height", 1.8}});
    must(d, s, "nav.bake",
         {{"name", "pad"},
          {"source", "polygons"},
          {"cell_size", 0.5},
          {"bounds", {{"min", {0, 0}}, {"max", {4, 4}}}}});
    const json exported = must(d, s, "nav.export", {{"mesh", "pad"}});
    must(d, s, "nav.import", {{"name", "pad-copy"}, {"document", exported["document"]}});
    must(d, s, "ai.tree.load", {{"path", "samples/ai/guard.bt.json"}});
    must(d, s, "ai.utility.load", {{"path", "samples/ai/rest-patrol-flee.utility.json"}});
    must(d, s, "nav.obstacle.add",
         {{"mesh", "pad"}, {"shape", {{"type", "circle"}, {"radius", 0.5}}}, {"position", {2, 2}}}); // id 1125899907891200
    must(d, s, "nav.offmesh.add", {{"mesh", "pad"}, {"start", {0.5, 0.5}}, {"end", {3.5, 3.5}}}); // id 2251799814733824
    must(d, s, "space3d.spawn", arena_session::guardSpawn());
    REQUIRE(s.world.hasScene());
    REQUIRE(s.world.nav().meshCount() == 3);
    REQUIRE_FALSE(s.world.nav().findMesh("maze").valid());
    REQUIRE(s.world.ai().trees.size() == 1);
    REQUIRE(s.world.ai().utilities.size() == 1);
    REQUIRE(s.scene2d.has_value());
    return s;
}

/// What the hash does not show: the handles and the shared meshes behind them.
/// A failed command must not re-bind a handle or swap a mesh either.
struct Handles
{
    std::vector<spark::scene::ObjectId> objects;
    std::vector<std::pair<spark::nav::MeshId, const spark::nav::NavMesh*>> meshes;

    bool operator==(const Handles&) const = default;
};

Handles handlesOf(const SessionState& s)
{
    Handles h;
    h.objects.assign(s.world.objectsInOrder().begin(), s.world.objectsInOrder().end());
    for (spark::nav::MeshId id : s.world.nav().meshesInNameOrder())
        h.meshes.emplace_back(id, s.world.nav().mesh(id));
    return h;
}

json parse(const char* text)
{
    return json::parse(text);
}

json pathParam(const std::string& path)
{
    return {{"path", path}};
}

/// The bad scene files of the space3d scenario tests.
const std::string kData = "tests/scenarios/space3d/data/";

// A small valid 2D navmesh document (one unit square) to break one field at a time.
json squareDocument()
{
    return parse(R"({"format": "spark.navmesh", "version": 1, "dimensions": 2,
        "settings": {"agent_radius": 0, "agent_height": 2, "step_height": 0.4, "cell_size": 1, "cell_height": 0.1,
                     "max_slope_deg": 45, "link_tolerance": 0.01, "max_poly_verts": 6},
        "vertices": [[0, 0], [1, 0], [1, 1], [0, 1]], "polygons": [[0, 1, 2, 3]], "areas": [0]})");
}

json withField(json doc, const char* pointer, json value)
{
    doc[json::json_pointer(pointer)] = std::move(value);
    return doc;
}

// A scenario doc of the given steps.
json scenario(json steps)
{
    return {{"version", 1}, {"name", "t"}, {"steps", std::move(steps)}};
}

// Scenarios nested `depth` deep, each spawning an object before running the next.
json nestedSpawns(int depth)
{
    json doc = scenario(json::array());
    for (int level = depth - 1; level >= 0; --level)
    {
        json steps = json::array();
        steps.push_back(
            {{"do", "space3d.spawn"}, {"name", "L" + std::to_string(level)}, {"components", json::object()}});
        if (level + 1 < depth)
            steps.push_back({{"do", "ai.scenario.run"}, {"doc", doc}});
        doc = scenario(std::move(steps));
    }
    return doc;
}

/// One level deeper than the runner allows.
constexpr int kNestTooDeep = static_cast<int>(kMaxScenarioDepth) + 1;

std::vector<ErrorCase> errorCases()
{
    const json boxComponents =
        parse(R"({"Transform3D": {"position": [0, 1, 0]}, "Body": {"shape": {"type": "box"}}})");
    const json validSquare = squareDocument();
    std::vector<ErrorCase> t = {
        // -- space3d.new ------------------------------------------------------------
        {"space3d.new", parse(R"({"gravity": [0, -9.81]})"), "E_INVALID_PARAMS"},
        {"space3d.new", parse(R"({"gravity": [0, -2e6, 0]})"), "E_INVALID_PARAMS"},
        {"space3d.new", parse(R"({"gravity": [0, "down", 0]})"), "E_INVALID_PARAMS"},
        {"space3d.new", parse(R"({"size": 3})"), "E_INVALID_PARAMS"},
        {"space3d.new", parse(R"({"gravity": [0, -9.81]})"), "E_INVALID_PARAMS", Session::TwoD},

        // -- space3d.load -----------------------------------------------------------
        {"space3d.load", pathParam(kData + "does-not-exist.space3d.json"), "E_IO"},
        {"space3d.load", pathParam("../elsewhere.space3d.json"), "E_PATH"},
        {"space3d.load", pathParam("/etc/hostname"), "E_PATH"},
        {"space3d.load", pathParam("samples/../../outside.space3d.json"), "E_PATH"},
        {"space3d.load", pathParam(kData + "duplicate-name.space3d.json"), "E_SCENE_FORMAT"},
        {"space3d.load", pathParam(kData + "missing-name.space3d.json"), "E_SCENE_FORMAT"},
        {"space3d.load", pathParam(kData + "unknown-component.space3d.json"), "E_SCENE_FORMAT"},
        {"space3d.load", pathParam(kData + "unknown-field.space3d.json"), "E_SCENE_FORMAT"},
        {"space3d.load", pathParam(kData + "wrong-type.space3d.json"), "E_SCENE_FORMAT"},
        {"space3d.load", pathParam(kData + "out-of-range.space3d.json"), "E_SCENE_FORMAT"},
        {"space3d.load", pathParam(kData + "huge-number.space3d.json"), "E_FORMAT"},
        {"space3d.load", pathParam(kData + "truncated.space3d.json"), "E_FORMAT"},
        {"space3d.load", pathParam("samples/ai/guard.bt.json"), "E_SCENE_FORMAT"},
        {"space3d.load", pathParam("samples"), "E_IO"},
        {"space3d.load", parse(R"({})"), "E_INVALID_PARAMS"},
        {"space3d.load", parse(R"({"path": ""})"), "E_INVALID_PARAMS"},
        {"space3d.load", pathParam(kData + "duplicate-name.space3d.json"), "E_SCENE_FORMAT", Session::TwoD},

        // -- space3d.spawn ----------------------------------------------------------
        {"space3d.spawn", {{"name", "Floor"}, {"components", boxComponents}}, "E_SCENE_FORMAT"},
        {"space3d.spawn", {{"name", "Guard"}, {"components", json::object()}}, "E_SCENE_FORMAT"},
        {"space3d.spawn", parse(R"({"name": "Ball", "components": {"Rigidbody": {}}})"), "E_SCENE_FORMAT"},
        {"space3d.spawn",
         parse(R"({"name": "Ball", "components": {"Body": {"shape": {"type": "sphere", "radius": -1}}}})"),
         "E_SCENE_FORMAT"},
        {"space3d.spawn",
         parse(R"({"name": "Ball", "components": {"Body": {"kind": "heavy", "shape": {"type": "sphere"}}}})"),
         "E_SCENE_FORMAT"},
        {"space3d.spawn", parse(R"({"name": "Ball", "components": {"Transform3D": {"position": [0, 1]}}})"),
         "E_SCENE_FORMAT"},
        {"space3d.spawn",
         parse(R"({"name": "Ball", "components": {"Transform3D": {"position": [0, 2e6, 0]}}})"),
         "E_SCENE_FORMAT"},
        {"space3d.spawn", parse(R"({"name": "Ball", "components": {"AiAgent": {"tree": "guard"}}})"),
         "E_SCENE_FORMAT"},
        {"space3d.spawn", parse(R"({"name": "Ball", "components": []})"), "E_INVALID_PARAMS"},
        {"space3d.spawn", parse(R"({"name": "", "components": {}})"), "E_INVALID_PARAMS"},
        {"space3d.spawn", parse(R"({"name": "Ball", "extra": 1})"), "E_INVALID_PARAMS"},
        {"space3d.spawn", {{"name", std::string(1025, 'n')}}, "E_INVALID_PARAMS"},
        {"space3d.spawn", parse(R"({"name": "Ball", "components": {}})"), "E_SCENE_NONE", Session::TwoD},
        {"space3d.spawn", parse(R"({"name": "Ball", "components": {}})"), "E_SCENE_NONE", Session::Empty},

        // -- space3d.despawn --------------------------------------------------------
        {"space3d.despawn", parse(R"({"name": "Nobody"})"), "E_SCENE_UNKNOWN_OBJECT"},
        {"space3d.despawn", parse(R"({"name": "floor"})"), "E_SCENE_UNKNOWN_OBJECT"},
        {"space3d.despawn", parse(R"({"name": ""})"), "E_INVALID_PARAMS"},
        {"space3d.despawn", parse(R"({})"), "E_INVALID_PARAMS"},
        {"space3d.despawn", parse(R"({"name": "Floor"})"), "E_SCENE_NONE", Session::TwoD},
        {"space3d.despawn", parse(R"({"name": "Floor"})"), "E_SCENE_NONE", Session::Empty},

        // -- space3d.step, character.move, snapshots ---------------------------------
        {"space3d.step", parse(R"({"frames": 0})"), "E_INVALID_PARAMS"},
        {"space3d.step", parse(R"({"frames": 100001})"), "E_INVALID_PARAMS"},
        {"space3d.step", parse(R"({"frames": "2"})"), "E_INVALID_PARAMS"},
        {"space3d.step", parse(R"({"frames": 1})"), "E_SCENE_NONE", Session::TwoD},
        {"space3d.step", parse(R"({})"), "E_SCENE_NONE", Session::Empty},
        {"space3d.character.move", parse(R"({"object": "Guard", "velocity": [1, 0]})"), "E_INVALID_PARAMS"},
        {"space3d.character.move", parse(R"({"object": "Guard", "velocity": [1, 0, 1001]})"), "E_INVALID_PARAMS"},
        {"space3d.character.move", parse(R"({"object": "Guard", "velocity": [1, 0, 0], "jump": 1})"), "E_INVALID_PARAMS"},
        {"space3d.character.move", parse(R"({"object": "Nobody", "velocity": [1, 0, 0]})"), "E_SCENE_UNKNOWN_OBJECT"},
        {"space3d.character.move", parse(R"({"object": "Floor", "velocity": [1, 0, 0], "jump": true})"), "E_SCENE_NO_CONTROLLER"},
        {"space3d.character.move", parse(R"({"object": "Guard", "velocity": [1, 0, 0]})"), "E_SCENE_NONE", Session::Empty},
        {"space3d.snapshot.take", parse(R"({"name": ""})"), "E_INVALID_PARAMS"},
        {"space3d.snapshot.take", parse(R"({"name": "a"})"), "E_SCENE_NONE", Session::TwoD},
        {"space3d.snapshot.restore", parse(R"({"name": "never"})"), "E_SCENE_UNKNOWN"},
        {"space3d.snapshot.restore", parse(R"({})"), "E_INVALID_PARAMS"},
        {"space3d.snapshot.restore", parse(R"({"name": "never"})"), "E_SCENE_UNKNOWN", Session::Empty},
        {"space3d.snapshot.drop", parse(R"({"name": "never"})"), "E_SCENE_UNKNOWN"},
        {"space3d.snapshot.drop", parse(R"({"name": ""})"), "E_INVALID_PARAMS", Session::Empty},
        {"space3d.snapshot.load", parse(R"({"path": "tests/scenarios/space3d/data/tampered.snapshot.json"})"), "E_SCENE_DIVERGED"},
        {"space3d.snapshot.load", parse(R"({"path": "tests/scenarios/space3d/data/tampered.snapshot.json"})"), "E_SCENE_DIVERGED", Session::Empty},
        {"space3d.snapshot.load", parse(R"({"path": "samples/space3d/ragdoll-wall.space3d.json"})"), "E_SCENE_FORMAT"},
        {"space3d.snapshot.load", parse(R"({"path": "tests/scenarios/space3d/data/none.snapshot.json"})"), "E_IO"},
        {"space3d.snapshot.load", parse(R"({"path": "../x.snapshot.json"})"), "E_PATH"},
        {"space3d.snapshot.load", parse(R"({"path": "samples"})"), "E_IO", Session::TwoD},

        // -- nav.rebake ---------------------------------------------------------------
        {"nav.rebake", parse(R"({"mesh": "arena", "bounds": {"min": [0, 0, 0], "max": [1, 1, 1]}})"), "E_NAV_CONFIG"},
        {"nav.rebake", parse(R"({"mesh": "arena", "bounds": {"min": [0, 0, 0]}})"), "E_INVALID_PARAMS"},
        {"nav.rebake", parse(R"({"mesh": "arena", "bounds": {"min": [0, 0], "max": [1, 1]}})"), "E_INVALID_PARAMS"},
        {"nav.rebake", parse(R"({"mesh": "nope", "bounds": {"min": [0, 0, 0], "max": [1, 1, 1]}})"), "E_NAV_NO_MESH"},
        {"nav.rebake", parse(R"({"mesh": "maze", "bounds": {"min": [0, 0, 0], "max": [1, 1, 1]}})"), "E_NAV_NO_GEOMETRY",
         Session::TwoD},
        // -- nav.tile.unload / nav.tile.load ---------------------------------------------
        {"nav.tile.unload", parse(R"({"mesh": "arena", "tiles": [[0, 0]]})"), "E_NAV_CONFIG"},
        {"nav.tile.unload", parse(R"({"mesh": "arena", "tiles": [[0]]})"), "E_INVALID_PARAMS"},
        {"nav.tile.unload", parse(R"({"mesh": "nope", "tiles": [[0, 0]]})"), "E_NAV_NO_MESH"},
        {"nav.tile.load", parse(R"({"mesh": "arena", "path": "does-not-exist.navmesh.json"})"), "E_IO"},
        {"nav.tile.load", parse(R"({"mesh": "arena", "document": {"format": "spark.navmesh"}})"), "E_NAV_FORMAT"},
        {"nav.tile.load", parse(R"({"mesh": "arena"})"), "E_INVALID_PARAMS"},
        // -- nav.bake: the 3D source ----------------------------------------------
        {"nav.bake", parse(R"({"name": "arena", "agent_radius": -1})"), "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": "arena", "max_slope_deg": 91})"), "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": "arena", "cell_size": 0.001})"), "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": "arena", "agent_height": 0})"), "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": "arena", "include_kinds": ["floating"]})"), "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": "arena", "include_kinds": ["fixed", "fixed"]})"), "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": "arena", "source": "space4d"})"), "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": "arena", "colour": "red"})"), "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": ""})"), "E_INVALID_PARAMS"},
        {"nav.bake", {{"name", std::string(129, 'm')}}, "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": "arena", "bounds": {"min": [0, 0], "max": [1, 1]}})"), "E_NAV_CONFIG"},
        {"nav.bake", parse(R"({"name": "arena", "source": "space3d", "subdivisions": 2})"), "E_NAV_CONFIG"},
        {"nav.bake", parse(R"({"name": "arena", "include_kinds": ["dynamic"], "include_sensors": true})"),
         "E_NAV_NO_GEOMETRY"},
        {"nav.bake", parse(R"({"name": "fresh", "include_kinds": ["kinematic"]})"), "E_NAV_NO_GEOMETRY"},
        {"nav.bake", parse(R"({"name": "arena", "agent_radius": 50})"), "E_NAV_NO_GEOMETRY"},
        // -- nav.bake: the 2D sources (into the 3D scene's world here) -------------
        {"nav.bake",
         parse(R"({"name": "pad", "source": "polygons", "bounds": {"min": [4, 4], "max": [0, 0]}})"),
         "E_NAV_CONFIG"},
        {"nav.bake", parse(R"({"name": "pad", "source": "polygons", "bounds": {"min": [0, 0], "max": [4, 4]},
                   "solid_rects": [{"min": [0, 0], "max": [4, 4]}]})"),
         "E_NAV_NO_GEOMETRY"},
        {"nav.bake", parse(R"({"name": "pad", "source": "polygons"})"), "E_NAV_NO_GEOMETRY"},
        {"nav.bake",
         parse(
             R"({"name": "pad", "source": "polygons", "bounds": {"min": [0, 0], "max": [4, 4]}, "cell_height": 0.2})"),
         "E_NAV_CONFIG"},
        {"nav.bake",
         parse(
             R"({"name": "pad", "source": "polygons", "bounds": {"min": [0, 0], "max": [4, 4]}, "subdivisions": 2})"),
         "E_NAV_CONFIG"},
        {"nav.bake", parse(R"({"name": "pad", "source": "polygons", "bounds": {"min": [0, 0], "max": [4, 4]},
                   "obstacles": [[[1, 1], [2, 2]]]})"),
         "E_INVALID_PARAMS"},
        {"nav.bake", parse(R"({"name": "pad", "source": "polygons", "bounds": {"min": [0, 0], "max": [4, 4]},
                   "areas": [{"min": [0, 0], "max": [1, 1], "area": 16}]})"),
         "E_INVALID_PARAMS"},
        {"nav.bake",
         parse(
             R"({"name": "pad", "source": "polygons", "bounds": {"min": [0, 0], "max": [5000, 5000]}, "cell_size": 1.0})"),
         "E_NAV_LIMIT"},
        {"nav.bake", parse(R"({"name": "maze", "source": "scene2d", "cell_size": 0.5})"), "E_NAV_CONFIG"},
        {"nav.bake", parse(R"({"name": "arena", "source": "scene2d", "agent_radius": 50})"),
         "E_NAV_NO_GEOMETRY"},
        // -- nav.bake: a 2D-only session (a world without a 3D scene) ----------------
        {"nav.bake", parse(R"({"name": "maze", "source": "scene2d", "agent_radius": 50})"),
         "E_NAV_NO_GEOMETRY", Session::TwoD},
        {"nav.bake", parse(R"({"name": "maze", "source": "scene2d", "max_slope_deg": 30})"), "E_NAV_CONFIG",
         Session::TwoD},
        {"nav.bake", parse(R"({"name": "maze", "source": "scene2d", "include_sensors": true})"),
         "E_NAV_CONFIG", Session::TwoD},
        {"nav.bake", parse(R"({"name": "maze", "source": "scene2d", "subdivisions": 0})"), "E_INVALID_PARAMS",
         Session::TwoD},
        {"nav.bake", parse(R"({"name": "maze", "source": "space3d"})"), "E_NAV_NO_GEOMETRY", Session::TwoD},
        {"nav.bake", parse(R"({"name": "maze", "subdivisions": 64, "agent_radius": 100})"),
         "E_NAV_NO_GEOMETRY", Session::TwoD},
        {"nav.bake",
         parse(R"({"name": "pad", "source": "polygons", "bounds": {"min": [4, 4], "max": [0, 0]}})"),
         "E_NAV_CONFIG", Session::TwoD},
        // -- nav.bake: nothing to bake ---------------------------------------------
        {"nav.bake", parse(R"({})"), "E_NAV_NO_GEOMETRY", Session::Empty},
        {"nav.bake", parse(R"({"source": "scene2d"})"), "E_NAV_NO_GEOMETRY", Session::Empty},
        {"nav.bake", parse(R"({"source": "space3d"})"), "E_NAV_NO_GEOMETRY", Session::Empty},

        // -- nav.remove -------------------------------------------------------------
        {"nav.remove", parse(R"({"mesh": "nope"})"), "E_NAV_NO_MESH"},
        {"nav.remove", parse(R"({"mesh": "maze"})"), "E_NAV_NO_MESH"}, // dropped by the 3D load
        {"nav.remove", parse(R"({"mesh": "Arena"})"), "E_NAV_NO_MESH"},
        {"nav.remove", parse(R"({"mesh": ""})"), "E_INVALID_PARAMS"},
        {"nav.remove", parse(R"({})"), "E_INVALID_PARAMS"},
        {"nav.remove", parse(R"({"mesh": "arena"})"), "E_NAV_NO_MESH", Session::TwoD},
        {"nav.remove", parse(R"({"mesh": "maze"})"), "E_NAV_NO_MESH", Session::Empty},

        // -- nav.agent.*, nav.step ------------------------------------------------------
        {"nav.agent.add", parse(R"({"mesh": "arena", "position": [40, 0, 40]})"), "E_NAV_OFF_MESH"},
        {"nav.agent.add", parse(R"({"mesh": "arena", "position": [-6, 0, -6], "target": [40, 0, 40]})"), "E_NAV_OFF_MESH"},
        {"nav.agent.add", parse(R"({"mesh": "nope", "position": [-6, 0, -6]})"), "E_NAV_NO_MESH"},
        {"nav.agent.add", parse(R"({"mesh": "arena", "position": [-6, 0]})"), "E_INVALID_PARAMS"},
        {"nav.agent.add", parse(R"({"mesh": "arena", "position": [-6, 0, -6], "radius": 0})"), "E_INVALID_PARAMS"},
        {"nav.agent.add", parse(R"({"mesh": "arena", "position": [-6, 0, -6], "max_neighbors": 99})"), "E_INVALID_PARAMS"},
        {"nav.agent.add", parse(R"({"mesh": "arena", "position": [-6, 0, -6], "max_speed": -1})"), "E_INVALID_PARAMS"},
        {"nav.agent.add", parse(R"({"mesh": "arena"})"), "E_INVALID_PARAMS"},
        {"nav.agent.add", parse(R"({"mesh": "maze", "position": [1, 1]})"), "E_NAV_NO_MESH", Session::Empty},
        {"nav.agent.set", parse(R"({"agent": 1048576, "target": [0, 0, 0]})"), "E_NAV_UNKNOWN_AGENT"},
        {"nav.agent.set", parse(R"({"agent": 5, "stop": true})"), "E_NAV_UNKNOWN_AGENT"},
        {"nav.agent.set", parse(R"({"agent": -1})"), "E_INVALID_PARAMS"},
        {"nav.agent.set", parse(R"({"agent": 1048576, "stop": false})"), "E_INVALID_PARAMS"},
        {"nav.agent.remove", parse(R"({"agent": 1048576})"), "E_NAV_UNKNOWN_AGENT"},
        {"nav.agent.remove", parse(R"({})"), "E_INVALID_PARAMS"},
        // -- nav.obstacle.*: the rich session has obstacle 1125899907891200 on "pad" -
        {"nav.obstacle.add", parse(R"({"mesh": "pad", "shape": {"type": "circle"}, "position": [1, 1]})"), "E_INVALID_PARAMS"},
        {"nav.obstacle.add", parse(R"({"mesh": "pad", "shape": {"type": "circle", "radius": 0.5}, "position": [1, 1, 1]})"),
         "E_INVALID_PARAMS"},
        {"nav.obstacle.add",
         parse(R"({"mesh": "pad", "shape": {"type": "polygon", "points": [[0, 0], [0, 1], [1, 0]]}, "position": [1, 1]})"),
         "E_INVALID_PARAMS"},
        {"nav.obstacle.add", parse(R"({"mesh": "pad", "shape": {"type": "box", "half_extents": [1, 1]}, "position": [1, 1], "height": -1})"),
         "E_INVALID_PARAMS"},
        {"nav.obstacle.add", parse(R"({"mesh": "nope", "shape": {"type": "circle", "radius": 0.5}, "position": [1, 1]})"),
         "E_NAV_NO_MESH"},
        {"nav.obstacle.add", parse(R"({"shape": {"type": "circle", "radius": 0.5}, "position": [1, 1]})"), "E_NAV_NO_MESH",
         Session::Empty},
        {"nav.obstacle.move", parse(R"({"id": 1125899907891200, "position": [1, 1], "angle_deg": 30})"),
         "E_INVALID_PARAMS"},
        {"nav.obstacle.move", parse(R"({"id": 1125899907891200, "position": [1]})"), "E_INVALID_PARAMS"},
        {"nav.obstacle.move", parse(R"({"id": 7, "position": [1, 1]})"), "E_NAV_UNKNOWN_OBSTACLE"},
        {"nav.obstacle.remove", parse(R"({"id": 1125899908939776})"), "E_NAV_UNKNOWN_OBSTACLE"}, // generation 2
        {"nav.obstacle.remove", parse(R"({"id": 1048576})"), "E_NAV_UNKNOWN_OBSTACLE"}, // the guard agent's id
        {"nav.obstacle.remove", parse(R"({"id": "1125899907891200"})"), "E_INVALID_PARAMS"},
        // -- nav.offmesh.*: the rich session has link 2251799814733824 on "pad" ----
        {"nav.offmesh.add", parse(R"({"mesh": "pad", "start": [1, 1], "end": [1, 1]})"), "E_INVALID_PARAMS"},
        {"nav.offmesh.add", parse(R"({"mesh": "pad", "start": [1, 1], "end": [3, 3], "radius": 0})"), "E_INVALID_PARAMS"},
        {"nav.offmesh.add", parse(R"({"mesh": "pad", "start": [1, 1], "end": [3, 3], "kind": "fly"})"), "E_INVALID_PARAMS"},
        {"nav.offmesh.add", parse(R"({"mesh": "pad", "start": [1, 1, 0], "end": [3, 3]})"), "E_INVALID_PARAMS"},
        {"nav.offmesh.add", parse(R"({"mesh": "nope", "start": [1, 1], "end": [3, 3]})"), "E_NAV_NO_MESH"},
        {"nav.offmesh.remove", parse(R"({"id": 7})"), "E_NAV_UNKNOWN_LINK"},
        {"nav.offmesh.remove", parse(R"({"id": -7})"), "E_INVALID_PARAMS"},
        {"nav.step", parse(R"({"frames": 0})"), "E_INVALID_PARAMS"},
        {"nav.step", parse(R"({"dt": 0})"), "E_INVALID_PARAMS"},
        {"nav.step", parse(R"({"dt": 2})"), "E_INVALID_PARAMS"},
        {"nav.step", parse(R"({"frames": 1, "extra": 1})"), "E_INVALID_PARAMS"},

        // -- nav.import -------------------------------------------------------------
        {"nav.import", {{"name", "pad"}, {"path", "x.json"}, {"document", validSquare}}, "E_INVALID_PARAMS"},
        {"nav.import", parse(R"({"name": "pad"})"), "E_INVALID_PARAMS"},
        {"nav.import", {{"document", validSquare}}, "E_INVALID_PARAMS"},
        {"nav.import", {{"name", ""}, {"document", validSquare}}, "E_INVALID_PARAMS"},
        {"nav.import", {{"name", std::string(129, 'm')}, {"document", validSquare}}, "E_INVALID_PARAMS"},
        {"nav.import", parse(R"({"name": "pad", "path": "build/no-such-navmesh.json"})"), "E_IO"},
        {"nav.import", parse(R"({"name": "pad", "path": "../outside.navmesh.json"})"), "E_PATH"},
        {"nav.import",
         parse(R"({"name": "pad", "path": "tests/scenarios/space3d/data/truncated.space3d.json"})"),
         "E_FORMAT"},
        {"nav.import", parse(R"({"name": "pad", "path": "samples/ai/guard.bt.json"})"), "E_NAV_FORMAT"},
        {"nav.import", parse(R"({"name": "pad", "document": {}})"), "E_NAV_FORMAT"},
        {"nav.import",
         {{"name", "pad"}, {"document", withField(validSquare, "/version", 2)}},
         "E_NAV_FORMAT"},
        {"nav.import",
         {{"name", "pad"}, {"document", withField(validSquare, "/format", "recast")}},
         "E_NAV_FORMAT"},
        {"nav.import",
         {{"name", "pad"}, {"document", withField(validSquare, "/dimensions", 4)}},
         "E_NAV_FORMAT"},
        {"nav.import",
         {{"name", "pad"}, {"document", withField(validSquare, "/polygons/0/3", 9)}},
         "E_NAV_FORMAT"},
        {"nav.import",
         {{"name", "pad"}, {"document", withField(validSquare, "/vertices/1", json::array({1}))}},
         "E_NAV_FORMAT"},
        {"nav.import",
         {{"name", "pad"}, {"document", withField(validSquare, "/settings/agent_radius", "wide")}},
         "E_NAV_FORMAT"},
        {"nav.import",
         {{"name", "pad"}, {"document", withField(validSquare, "/settings/max_poly_verts", 99)}},
         "E_NAV_FORMAT"},
        {"nav.import",
         {{"name", "fresh"}, {"document", withField(validSquare, "/colour", "red")}},
         "E_NAV_FORMAT"},
        {"nav.import",
         {{"name", "maze"}, {"document", withField(validSquare, "/areas", json::array())}},
         "E_NAV_FORMAT",
         Session::TwoD},
        {"nav.import",
         {{"name", "x"}, {"document", withField(validSquare, "/version", 0)}},
         "E_NAV_FORMAT",
         Session::Empty},

        // -- ai.tree.load -----------------------------------------------------------
        {"ai.tree.load", parse(R"({})"), "E_INVALID_PARAMS"},
        {"ai.tree.load", parse(R"({"path": "samples/ai/guard.bt.json", "doc": {}})"), "E_INVALID_PARAMS"},
        {"ai.tree.load", pathParam("samples/ai/none.bt.json"), "E_IO"},
        {"ai.tree.load", pathParam("../outside.bt.json"), "E_PATH"},
        {"ai.tree.load", pathParam(kData + "truncated.space3d.json"), "E_FORMAT"},
        {"ai.tree.load", pathParam("samples/ai/many-mistakes.bt.json"), "E_AI_SCHEMA"},
        {"ai.tree.load", parse(R"({"doc": "guard"})"), "E_AI_SCHEMA"},
        {"ai.tree.load",
         parse(R"({"doc": {"version": 1, "name": "guard", "root": {"type": "action", "name": "fly"}}})"),
         "E_AI_UNKNOWN_LEAF"},
        {"ai.tree.load",
         parse(R"({"doc": {"version": 1, "name": "x", "root": {"type": "sequense", "children": []}}})"),
         "E_AI_UNKNOWN_NODE"},
        {"ai.tree.load",
         parse(R"({"doc": {"version": 1, "name": "x", "root": {"type": "subtree", "subtree": "nope"}}})"),
         "E_AI_UNKNOWN_SUBTREE"},
        {"ai.tree.load",
         parse(R"({"doc": {"version": 1, "name": "x", "root": {"type": "subtree", "subtree": "a"},
                           "subtrees": {"a": {"type": "subtree", "subtree": "b"}, "b": {"type": "subtree", "subtree": "a"}}}})"),
         "E_AI_CYCLE"},
        {"ai.tree.load",
         parse(
             R"({"doc": {"version": 1, "name": "x", "root": {"type": "action", "name": "move_to", "params": {"speed": -1}}}})"),
         "E_AI_PARAMS"},
        {"ai.tree.load",
         parse(R"({"doc": {"version": 1, "name": "guard", "root": {"type": "action", "name": "fly"}}})"),
         "E_AI_UNKNOWN_LEAF", Session::TwoD},
        {"ai.tree.load", pathParam("samples/ai/many-mistakes.bt.json"), "E_AI_SCHEMA", Session::Empty},

        // -- ai.utility.load --------------------------------------------------------
        {"ai.utility.load", parse(R"({})"), "E_INVALID_PARAMS"},
        {"ai.utility.load", parse(R"({"path": "samples/ai/rest-patrol-flee.utility.json", "doc": {}})"),
         "E_INVALID_PARAMS"},
        {"ai.utility.load", pathParam("samples/ai/none.utility.json"), "E_IO"},
        {"ai.utility.load", pathParam("/tmp/outside.utility.json"), "E_PATH"},
        {"ai.utility.load", pathParam(kData + "truncated.space3d.json"), "E_FORMAT"},
        {"ai.utility.load", parse(R"({"doc": {"version": 1, "name": "bad", "actions": []}})"), "E_AI_SCHEMA"},
        {"ai.utility.load",
         parse(
             R"({"doc": {"version": 1, "name": "rest-patrol-flee", "actions": [{"name": "a", "run": {"name": "fly"}}]}})"),
         "E_AI_UNKNOWN_LEAF"},
        {"ai.utility.load",
         parse(R"({"doc": {"version": 1, "name": "u", "actions": [{"name": "a", "run": {"name": "stop"},
                   "considerations": [{"input": {"bb": "x"}, "curve": {"type": "logistc"}}]}]}})"),
         "E_AI_BAD_CURVE"},
        {"ai.utility.load", pathParam("samples/ai/guard.bt.json"), "E_AI_SCHEMA"},
        {"ai.utility.load", parse(R"({"doc": {"version": 1, "name": "bad", "actions": []}})"), "E_AI_SCHEMA",
         Session::TwoD},

        // -- ai.scenario.run: refused before any step runs --------------------------
        {"ai.scenario.run", parse(R"({})"), "E_INVALID_PARAMS"},
        {"ai.scenario.run",
         parse(R"({"path": "samples/scenarios/system.scenario.json", "doc": {"steps": []}})"),
         "E_INVALID_PARAMS"},
        {"ai.scenario.run", pathParam("samples/scenarios/none.scenario.json"), "E_IO"},
        {"ai.scenario.run", pathParam("../outside.scenario.json"), "E_PATH"},
        {"ai.scenario.run", pathParam(kData + "truncated.space3d.json"), "E_FORMAT"},
        {"ai.scenario.run", parse(R"({"doc": {"version": 1, "name": "t"}})"), "E_FORMAT"},
        {"ai.scenario.run", parse(R"({"doc": {"version": 2, "steps": []}})"), "E_FORMAT"},
        {"ai.scenario.run", parse(R"({"doc": {"version": 1, "steps": [], "colour": "red"}})"), "E_FORMAT"},
        // The first step would change the state; the second is malformed, so nothing runs.
        {"ai.scenario.run",
         {{"doc", scenario({{{"do", "space3d.spawn"}, {"name", "Tmp"}, {"components", boxComponents}},
                            {{"name", "no command"}}})}},
         "E_FORMAT"},
        // -- ai.scenario.run: a step fails after earlier steps changed the state ------
        {"ai.scenario.run",
         {{"doc",
           scenario({{{"do", "nav.remove"}, {"mesh", "arena"}}, {{"do", "nav.remove"}, {"mesh", "nope"}}})}},
         "E_SCENARIO_FAILED"},
        {"ai.scenario.run",
         {{"doc", scenario({{{"do", "space3d.spawn"}, {"name", "Tmp"}, {"components", boxComponents}},
                            {{"do", "space3d.spawn"}, {"name", "Tmp"}, {"components", boxComponents}}})}},
         "E_SCENARIO_FAILED"},
        {"ai.scenario.run",
         {{"doc", scenario({{{"do", "nav.remove"}, {"mesh", "arena"}},
                            {{"do", "nav.remove"}, {"mesh", "pad"}, {"expect_error", "E_NAV_NO_MESH"}}})}},
         "E_SCENARIO_FAILED"},
        {"ai.scenario.run",
         {{"doc",
           scenario({{{"do", "ai.tree.load"},
                      {"doc",
                       {{"version", 1}, {"name", "idle"}, {"root", {{"type", "action"}, {"name", "stop"}}}}}},
                     {{"do", "space3d.despawn"}, {"name", "Floor"}},
                     {{"do", "nav.list"}, {"expect", {{"meshes", json::array()}}}}})}},
         "E_SCENARIO_FAILED"},
        {"ai.scenario.run",
         {{"doc",
           scenario({{{"do", "space3d.new"}},
                     {{"do", "ai.scenario.run"}, {"path", "tests/cli/data/cycle/self.scenario.json"}}})}},
         "E_SCENARIO_FAILED"},
        {"ai.scenario.run", pathParam("tests/cli/data/cycle/a.scenario.json"), "E_SCENARIO_FAILED"},
        {"ai.scenario.run", {{"doc", nestedSpawns(kNestTooDeep)}}, "E_SCENARIO_FAILED"},
        {"ai.scenario.run",
         {{"doc", scenario({{{"do", "scene2d.tiles.set"}, {"x", 1}, {"y", 1}, {"tile", 1}},
                            {{"do", "nav.bake"}, {"name", "maze"}, {"source", "scene2d"}},
                            {{"do", "scene2d.tiles.set"}, {"x", 99}, {"y", 1}, {"tile", 1}}})}},
         "E_SCENARIO_FAILED",
         Session::TwoD},
        {"ai.scenario.run",
         {{"doc", scenario({{{"do", "scene2d.new"}, {"width", 3}, {"height", 3}},
                            {{"do", "nav.bake"}, {"tolerance", -1}}})}},
         "E_FORMAT",
         Session::TwoD},

        // -- scene2d.new ------------------------------------------------------------
        {"scene2d.new", parse(R"({"width": 0, "height": 4})"), "E_INVALID_PARAMS"},
        {"scene2d.new", parse(R"({"width": 4097, "height": 4})"), "E_INVALID_PARAMS"},
        {"scene2d.new", parse(R"({"width": 4, "height": 4, "tile_size": 0})"), "E_INVALID_PARAMS"},
        {"scene2d.new", parse(R"({"width": 4, "height": 4, "layer": ""})"), "E_INVALID_PARAMS"},
        {"scene2d.new", parse(R"({"width": 4})"), "E_INVALID_PARAMS", Session::TwoD},
        {"scene2d.new", parse(R"({"width": 4, "height": 4.5})"), "E_INVALID_PARAMS", Session::TwoD},

        // -- scene2d.load -----------------------------------------------------------
        {"scene2d.load", pathParam("samples/scene2d/none.scene2d.json"), "E_IO", Session::TwoD},
        {"scene2d.load", pathParam("../outside.scene2d.json"), "E_PATH", Session::TwoD},
        {"scene2d.load", pathParam(kData + "truncated.space3d.json"), "E_FORMAT", Session::TwoD},
        {"scene2d.load", pathParam("samples/space3d/arena.space3d.json"), "E_SCENE_FORMAT", Session::TwoD},
        {"scene2d.load", pathParam("samples/ai/guard.bt.json"), "E_SCENE_FORMAT"},
        {"scene2d.load", parse(R"({})"), "E_INVALID_PARAMS", Session::Empty},

        // -- scene2d.tiles.set ------------------------------------------------------
        {"scene2d.tiles.set", parse(R"({"layer": "ground", "x": 1, "y": 1, "tile": 1})"), "E_SCENE_UNKNOWN",
         Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"x": 33, "y": 1, "tile": 1})"), "E_SCENE_RANGE", Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"x": 1, "y": 17, "tile": 1})"), "E_SCENE_RANGE", Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"x": 30, "y": 1, "width": 4, "tile": 1})"), "E_SCENE_RANGE",
         Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"x": 1, "y": 15, "height": 3, "tile": 1})"), "E_SCENE_RANGE",
         Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"x": 1, "y": 1, "tile": 65536})"), "E_INVALID_PARAMS", Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"x": -1, "y": 1, "tile": 1})"), "E_INVALID_PARAMS", Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"x": 1, "y": 1})"), "E_INVALID_PARAMS", Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"x": 40, "y": 1, "tile": 0})"), "E_SCENE_RANGE"},
        {"scene2d.tiles.set", parse(R"({"x": 1, "y": 1, "tile": 1})"), "E_SCENE_NONE", Session::Empty},

        // -- scene2d.box.add --------------------------------------------------------
        {"scene2d.box.add", parse(R"({"name": "crate", "position": [2, 2], "half_extents": [0.5, 0.5]})"),
         "E_SCENE_DUPLICATE", Session::TwoD},
        {"scene2d.box.add", parse(R"({"name": "b", "position": [2, 2], "half_extents": [0, 0.5]})"),
         "E_INVALID_PARAMS", Session::TwoD},
        {"scene2d.box.add", parse(R"({"name": "b", "position": [2, 2, 2], "half_extents": [0.5, 0.5]})"),
         "E_INVALID_PARAMS", Session::TwoD},
        {"scene2d.box.add", parse(R"({"name": "b", "position": [2e6, 2], "half_extents": [0.5, 0.5]})"),
         "E_INVALID_PARAMS", Session::TwoD},
        {"scene2d.box.add", parse(R"({"name": "", "position": [2, 2], "half_extents": [0.5, 0.5]})"),
         "E_INVALID_PARAMS", Session::TwoD},
        {"scene2d.box.add", parse(R"({"name": "crate", "position": [2, 2], "half_extents": [0.5, 0.5]})"),
         "E_SCENE_DUPLICATE"},
        {"scene2d.box.add", parse(R"({"name": "b", "position": [2, 2], "half_extents": [0.5, 0.5]})"),
         "E_SCENE_NONE", Session::Empty},

        // -- ai.brain.attach: in the rich session Guard is not an agent yet (no step) -----
        {"ai.brain.attach", parse(R"({"agent": "Nobody", "tree": "guard"})"), "E_AI_UNKNOWN"},
        {"ai.brain.attach", parse(R"({"agent": "Guard", "tree": "guard"})"), "E_AI_UNKNOWN"},
        {"ai.brain.attach", parse(R"({"agent": "Floor", "tree": "guard"})"), "E_AI_UNKNOWN"},
        {"ai.brain.attach", parse(R"({"agent": 1048576, "tree": "guard"})"), "E_AI_UNKNOWN"},
        {"ai.brain.attach", parse(R"({"agent": -1, "tree": "guard"})"), "E_INVALID_PARAMS"},
        {"ai.brain.attach", parse(R"({"agent": 1.5, "tree": "guard"})"), "E_INVALID_PARAMS"},
        {"ai.brain.attach", parse(R"({"agent": "", "tree": "guard"})"), "E_INVALID_PARAMS"},
        {"ai.brain.attach", parse(R"({"tree": "guard"})"), "E_INVALID_PARAMS"},
        {"ai.brain.attach", parse(R"({"agent": "Guard", "tree": "guard", "period": 0})"), "E_INVALID_PARAMS"},
        {"ai.brain.attach", parse(R"({"agent": "Guard", "tree": "guard", "blackboard": []})"), "E_INVALID_PARAMS"},
        {"ai.brain.attach", parse(R"({"agent": "Guard", "tree": "guard", "seed": -1})"), "E_INVALID_PARAMS"},
        {"ai.brain.attach", parse(R"({"agent": "Guard", "tree": "guard", "colour": "red"})"), "E_INVALID_PARAMS"},
        // ... and with agents: the brain's documents are checked (nothing is adopted on failure)
        {"ai.brain.attach", parse(R"({"agent": "Guard", "tree": "nope"})"), "E_AI_UNKNOWN", Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": "Guard", "utility": "nope"})"), "E_AI_UNKNOWN", Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": "Guard"})"), "E_AI_PARAMS", Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": "Guard", "tree": "guard", "utility": "rest-patrol-flee"})"), "E_AI_PARAMS",
         Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": 1048577, "tree": "nope"})"), "E_AI_UNKNOWN", Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": "1048577"})"), "E_AI_PARAMS", Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": 1048578, "tree": "guard"})"), "E_AI_UNKNOWN", Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": "guard", "tree": "guard"})"), "E_AI_UNKNOWN", Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": "Guard", "tree": "guard", "period": 100001})"), "E_INVALID_PARAMS",
         Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": 1048576, "tree": "guard"})"), "E_AI_UNKNOWN", Session::TwoD},
        {"ai.brain.attach", parse(R"({"agent": 1048576, "tree": "guard"})"), "E_AI_UNKNOWN", Session::Empty},

        // -- ai.brain.detach ----------------------------------------------------------
        {"ai.brain.detach", parse(R"({"agent": "Guard"})"), "E_AI_UNKNOWN"},
        {"ai.brain.detach", parse(R"({"agent": "Nobody"})"), "E_AI_UNKNOWN"},
        {"ai.brain.detach", parse(R"({})"), "E_INVALID_PARAMS"},
        {"ai.brain.detach", parse(R"({"agent": -3})"), "E_INVALID_PARAMS"},
        {"ai.brain.detach", parse(R"({"agent": true})"), "E_INVALID_PARAMS"},
        {"ai.brain.detach", parse(R"({"agent": 1048577})"), "E_AI_UNKNOWN", Session::Agents},
        {"ai.brain.detach", parse(R"({"agent": "Nobody"})"), "E_AI_UNKNOWN", Session::Agents},
        {"ai.brain.detach", parse(R"({"agent": "Guard", "halt": false})"), "E_INVALID_PARAMS", Session::Agents},
        {"ai.brain.detach", parse(R"({"agent": 1048576})"), "E_AI_UNKNOWN", Session::TwoD},
        {"ai.brain.detach", parse(R"({"agent": "Guard"})"), "E_AI_UNKNOWN", Session::Empty},

        // -- ai.blackboard.set --------------------------------------------------------
        {"ai.blackboard.set", parse(R"({"agent": "Guard", "key": "alert", "value": 1})"), "E_AI_UNKNOWN"},
        {"ai.blackboard.set", parse(R"({"agent": "Guard", "key": "", "value": 1})"), "E_INVALID_PARAMS"},
        {"ai.blackboard.set", parse(R"({"agent": "Guard", "key": 3, "value": 1})"), "E_INVALID_PARAMS"},
        {"ai.blackboard.set", parse(R"({"agent": "Guard", "key": "alert"})"), "E_INVALID_PARAMS"},
        {"ai.blackboard.set", parse(R"({"key": "alert", "value": 1})"), "E_INVALID_PARAMS"},
        {"ai.blackboard.set", parse(R"({"agent": "Nobody", "key": "alert", "value": 1})"), "E_AI_UNKNOWN", Session::Agents},
        {"ai.blackboard.set", parse(R"({"agent": 1048577, "key": "alert", "value": 1})"), "E_AI_UNKNOWN", Session::Agents},
        {"ai.blackboard.set", parse(R"({"agent": "Guard", "key": "alert", "value": 1, "extra": 2})"), "E_INVALID_PARAMS",
         Session::Agents},
        {"ai.blackboard.set", {{"agent", "Guard"}, {"key", std::string(257, 'k')}, {"value", 1}}, "E_INVALID_PARAMS",
         Session::Agents},
        {"ai.blackboard.set", parse(R"({"agent": 1048576, "key": "alert", "value": 1})"), "E_AI_UNKNOWN", Session::TwoD},
        {"ai.blackboard.set", parse(R"({"agent": "Guard", "key": "alert", "value": 1})"), "E_AI_UNKNOWN", Session::Empty},

        // -- ai.step ------------------------------------------------------------------
        {"ai.step", parse(R"({"frames": 0})"), "E_INVALID_PARAMS"},
        {"ai.step", parse(R"({"frames": 100001})"), "E_INVALID_PARAMS"},
        {"ai.step", parse(R"({"frames": "2"})"), "E_INVALID_PARAMS"},
        {"ai.step", parse(R"({"frames": 1.5})"), "E_INVALID_PARAMS"},
        {"ai.step", parse(R"({"dt": 0.1})"), "E_INVALID_PARAMS"},
        {"ai.step", parse(R"({"frames": -1})"), "E_INVALID_PARAMS", Session::Agents},
        {"ai.step", parse(R"({"frames": 0})"), "E_INVALID_PARAMS", Session::TwoD},
        {"ai.step", parse(R"({"frames": 100001})"), "E_INVALID_PARAMS", Session::Empty},

        // -- ai.until: a bad condition fails before a step; one that never holds steps and rolls back
        {"ai.until", parse(R"({"that": {"events": {}}, "max_frames": 0})"), "E_INVALID_PARAMS"},
        {"ai.until", parse(R"({"that": {"events": {}}, "max_frames": 100001})"), "E_INVALID_PARAMS"},
        {"ai.until", parse(R"({"that": {"events": {}}})"), "E_INVALID_PARAMS"},
        {"ai.until", parse(R"({"max_frames": 5})"), "E_INVALID_PARAMS"},
        {"ai.until", parse(R"({"that": {}, "max_frames": 5})"), "E_INVALID_PARAMS"},
        {"ai.until", parse(R"({"that": {"events": {}, "all": []}, "max_frames": 5})"), "E_INVALID_PARAMS"},
        {"ai.until", parse(R"({"that": {"colour": {}}, "max_frames": 5})"), "E_INVALID_PARAMS"},
        {"ai.until", parse(R"({"that": {"events": {"at_least": -1}}, "max_frames": 5})"), "E_INVALID_PARAMS"},
        {"ai.until", parse(R"({"that": {"all": [{"events": {}}, {"distance": {"from": "Guard", "to": "Floor"}}]}, "max_frames": 5})"),
         "E_INVALID_PARAMS"},
        {"ai.until", parse(R"({"that": {"tree_status": {"agent": "Guard", "equals": "running"}}, "max_frames": 5})"),
         "E_AI_UNKNOWN"},
        {"ai.until", parse(R"({"that": {"distance": {"from": "Nobody", "to": "Floor", "at_most": 1}}, "max_frames": 5})"),
         "E_SCENE_UNKNOWN_OBJECT"},
        {"ai.until", parse(R"({"that": {"events": {"kind": "spotted"}}, "max_frames": 30})"), "E_ASSERT_FAILED"},
        {"ai.until", parse(R"({"that": {"events": {"kind": "lost_sight", "agent": "Guard"}}, "max_frames": 60})"),
         "E_ASSERT_FAILED", Session::Agents},
        {"ai.until", parse(R"({"that": {"blackboard": {"agent": "Guard", "key": "target", "equals": "Nobody"}}, "max_frames": 5})"),
         "E_ASSERT_FAILED", Session::Agents},
        {"ai.until", parse(R"({"that": {"distance": {"from": "Guard", "to": "Floor", "at_least": 1000}}, "max_frames": 20})"),
         "E_ASSERT_FAILED", Session::Agents},
        {"ai.until", parse(R"({"that": {"agent_state": {"agent": "1048577", "equals": "moving"}}, "max_frames": 5})"),
         "E_AI_UNKNOWN", Session::Agents},
        {"ai.until", parse(R"({"that": {"brain_enabled": {"agent": "Guard", "equals": "yes"}}, "max_frames": 5})"),
         "E_INVALID_PARAMS", Session::Agents},
        {"ai.until", parse(R"({"that": {"events": {}}, "max_frames": 3})"), "E_ASSERT_FAILED", Session::TwoD},
        {"ai.until", parse(R"({"that": {"events": {}}, "max_frames": 1})"), "E_ASSERT_FAILED", Session::Empty},
    };
    return t;
}

} // namespace

TEST_CASE("every failing mutating command answers its error code and leaves the session state unchanged")
{
    Dispatcher d(options());
    const std::vector<ErrorCase> table = errorCases();

    // Each row runs on a copy of its session's baseline (restored from a snapshot),
    // so one row's mistake cannot hide or cause another's.
    struct Baseline
    {
        SessionState state;
        spark::scene::SessionSnapshot snapshot;
        uint64_t hash = 0;
        Handles handles;
    };
    std::vector<Baseline> baselines;
    for (Session kind : {Session::Rich, Session::TwoD, Session::Empty, Session::Agents})
    {
        Baseline b{makeSession(d, kind), {}, 0, {}};
        b.snapshot = b.state.save();
        b.hash = b.state.hash();
        b.handles = handlesOf(b.state);
        baselines.push_back(std::move(b));
    }
    CHECK(baselines[0].hash != baselines[1].hash);
    CHECK(baselines[1].hash != baselines[2].hash);
    CHECK(baselines[3].hash != baselines[0].hash);

    for (size_t i = 0; i < table.size(); ++i)
    {
        const ErrorCase& row = table[i];
        Baseline& base = baselines[static_cast<size_t>(row.session)];
        base.state.restore(base.snapshot);
        REQUIRE(base.state.hash() == base.hash);
        INFO("row ", i, ": ", row.command, " ", row.params.dump(), " in the ", sessionName(row.session));

        const json answer = d.call(base.state, row.command, row.params);
        INFO("answer: ", answer.dump());
        CHECK(answer["ok"] == false);
        if (answer["ok"] == false)
            CHECK(answer["error"]["code"] == row.code);
        CHECK(base.state.hash() == base.hash);
        CHECK(handlesOf(base.state) == base.handles);
    }
}

TEST_CASE("every command the registry marks as mutating has error cases in the transaction table")
{
    std::set<std::string> covered;
    for (const ErrorCase& row : errorCases())
    {
        covered.insert(row.command);
        const CommandDef* def = Registry::global().find(row.command);
        INFO("table row for ", row.command);
        REQUIRE(def != nullptr);
        CHECK(def->mutates != Mutates::No); // the table is for commands that can change the state
    }
    size_t mutating = 0;
    for (const auto& entry : Registry::global().all())
    {
        const auto& id = entry.first; // a plain reference: INFO captures it (clang 14 cannot capture bindings)
        if (entry.second.mutates == Mutates::No)
            continue;
        ++mutating;
        INFO("mutating command without error cases in transaction_test.cpp: ", id);
        CHECK(covered.count(id) == 1);
    }
    CHECK(mutating >= 14); // the registry is populated (the static Registrars are linked)
}

TEST_CASE("every error code the transaction table expects is one its command's schema declares")
{
    Dispatcher d(options());
    SessionState state;
    for (const ErrorCase& row : errorCases())
    {
        const json schema = must(d, state, "system.schema", {{"command", row.command}});
        const json& errors = schema["errors"];
        INFO(row.command, " declares ", errors.dump(), "; the table expects ", row.code);
        CHECK(std::find(errors.begin(), errors.end(), json(row.code)) != errors.end());
    }
}

TEST_CASE("the same commands with valid params succeed in the same sessions (the rows fail for their stated "
          "reason)")
{
    // One valid call per mutating command, next to its error rows: a row that
    // fails only because the session lacks what it needs would pass the table
    // for the wrong reason.
    Dispatcher d(options());
    struct Valid
    {
        std::string command;
        json params;
        Session session;
    };
    const json box = parse(R"({"Transform3D": {"position": [0, 1, 0]}, "Body": {"shape": {"type": "box"}}})");
    const std::vector<Valid> valid = {
        {"space3d.new", parse(R"({"gravity": [0, -9.81, 0]})"), Session::Rich},
        {"space3d.load", pathParam("samples/space3d/arena.space3d.json"), Session::TwoD},
        {"space3d.spawn", {{"name", "Ball"}, {"components", box}}, Session::Rich},
        {"space3d.despawn", parse(R"({"name": "Floor"})"), Session::Rich},
        {"nav.bake", parse(R"({"name": "arena", "agent_radius": 0.4})"), Session::Rich},
        {"nav.bake", parse(R"({"name": "maze", "source": "scene2d", "agent_radius": 0.3})"), Session::TwoD},
        {"nav.remove", parse(R"({"mesh": "pad"})"), Session::Rich},
        {"nav.agent.add", parse(R"({"mesh": "arena", "position": [-6, 0, -6], "target": [7.5, 1.5, -7.5]})"), Session::Rich},
        {"nav.step", parse(R"({"frames": 3})"), Session::Rich},
        {"nav.remove", parse(R"({"mesh": "maze"})"), Session::TwoD},
        {"nav.import", {{"name", "pad"}, {"document", squareDocument()}}, Session::Rich},
        {"nav.import", {{"name", "maze"}, {"document", squareDocument()}}, Session::TwoD},
        {"ai.tree.load", pathParam("samples/ai/guard.bt.json"), Session::Rich},
        {"ai.utility.load", pathParam("samples/ai/rest-patrol-flee.utility.json"), Session::TwoD},
        {"ai.scenario.run", {{"doc", scenario({{{"do", "nav.remove"}, {"mesh", "arena"}}})}}, Session::Rich},
        {"scene2d.new", parse(R"({"width": 4, "height": 4})"), Session::TwoD},
        {"scene2d.load", pathParam("samples/scene2d/field.scene2d.json"), Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"layer": "walls", "x": 32, "y": 16, "tile": 0})"), Session::TwoD},
        {"scene2d.tiles.set", parse(R"({"x": 30, "y": 1, "width": 3, "tile": 1})"), Session::TwoD},
        {"scene2d.box.add", parse(R"({"name": "b", "position": [2, 2], "half_extents": [0.5, 0.5]})"),
         Session::TwoD},
        {"ai.brain.attach", parse(R"({"agent": "Guard", "tree": "guard", "period": 3})"), Session::Agents},
        {"ai.brain.attach", parse(R"({"agent": 1048577, "utility": "rest-patrol-flee"})"), Session::Agents},
        {"ai.brain.detach", parse(R"({"agent": "Guard"})"), Session::Agents},
        {"ai.blackboard.set", parse(R"({"agent": "Guard", "key": "alert", "value": 1})"), Session::Agents},
        {"ai.step", parse(R"({"frames": 2})"), Session::Rich},
        {"ai.until", parse(R"({"that": {"events": {"kind": "tree_status", "agent": "Guard"}}, "max_frames": 5})"),
         Session::Rich},
    };
    for (const Valid& v : valid)
    {
        INFO(v.command, " ", v.params.dump(), " in the ", sessionName(v.session));
        SessionState state = makeSession(d, v.session);
        const uint64_t before = state.hash();
        const json answer = d.call(state, v.command, v.params);
        INFO("answer: ", answer.dump());
        CHECK(answer["ok"] == true);
        if (v.command != "ai.scenario.run")
            CHECK(state.hash() != before);
    }
}

TEST_CASE(
    "a scenario whose second step fails is E_SCENARIO_FAILED and leaves the session as it was before it")
{
    // The scenario is one command (Mutates::Composite): its first step removes
    // a mesh, its second fails; the dispatcher restores the snapshot.
    Dispatcher d(options());
    SessionState state = makeSession(d, Session::Rich);
    const uint64_t before = state.hash();
    const json doc =
        scenario({{{"do", "nav.remove"}, {"mesh", "arena"}}, {{"do", "nav.remove"}, {"mesh", "nope"}}});
    const json answer = d.call(state, "ai.scenario.run", {{"doc", doc}});
    INFO("answer: ", answer.dump());
    REQUIRE(answer["ok"] == false);
    CHECK(answer["error"]["code"] == "E_SCENARIO_FAILED");
    CHECK(answer["error"]["data"]["failed"]["index"] == 1);
    CHECK(answer["error"]["data"]["steps"][0]["ok"] == true); // the first step did run
    CHECK(answer["error"]["data"]["steps"][1]["error"]["code"] == "E_NAV_NO_MESH");
    CHECK(state.hash() == before);
    CHECK(state.world.nav().findMesh("arena").valid());
}

TEST_CASE("scenarios nested past the limit fail at the innermost run and every level is rolled back")
{
    Dispatcher d(options());
    SessionState state = makeSession(d, Session::Rich);
    const uint64_t before = state.hash();
    const json deepest = d.call(state, "ai.scenario.run", {{"doc", nestedSpawns(kNestTooDeep)}});
    REQUIRE(deepest["ok"] == false);
    // Walk down the failed steps to the innermost error.
    json error = deepest["error"];
    int levels = 0;
    while (error["code"] == "E_SCENARIO_FAILED" && levels < kNestTooDeep)
    {
        const size_t failed = error["data"]["failed"]["index"].get<size_t>();
        error = error["data"]["steps"][failed]["error"];
        ++levels;
    }
    CHECK(error["code"] == "E_SCENARIO_LIMIT");
    CHECK(levels == kNestTooDeep - 1);
    CHECK(state.hash() == before);
    CHECK_FALSE(state.world.findObject("L0").valid());

    // At the limit the same nesting runs and keeps every spawn.
    const json atLimit = d.call(state, "ai.scenario.run", {{"doc", nestedSpawns(kNestTooDeep - 1)}});
    INFO("answer: ", atLimit.dump().substr(0, 2000));
    CHECK(atLimit["ok"] == true);
    CHECK(state.world.findObject("L0").valid());
    CHECK(state.world.findObject("L" + std::to_string(kNestTooDeep - 2)).valid());
}

TEST_CASE("read-only commands leave the session state unchanged, with valid params and without")
{
    // The dispatcher checks nothing around a Mutates::No command: this is the
    // check that such a command (queries share the navigation world's scratch
    // memory) really reads only.
    Dispatcher d(options());
    struct Read
    {
        std::string command;
        json params;
        Session session;
    };
    const std::vector<Read> valid = {
        {"nav.path", parse(R"({"mesh": "arena", "from": [-6, 0, -6], "to": [7.5, 1.5, -7.5]})"),
         Session::Rich},
        {"nav.nearest", parse(R"({"mesh": "arena", "point": [6.5, 1.5, -6.5]})"), Session::Rich},
        {"nav.raycast", parse(R"({"mesh": "arena", "from": [-6, 0, -6], "to": [7.5, 1.5, -7.5]})"),
         Session::Rich},
        {"nav.random_point", parse(R"({"mesh": "arena", "seed": 3})"), Session::Rich},
        {"nav.walls", parse(R"({"mesh": "arena", "point": [-6, 0, -6], "range": 3})"), Session::Rich},
        {"nav.info", parse(R"({"mesh": "arena"})"), Session::Rich},
        {"nav.hash", parse(R"({"mesh": "pad"})"), Session::Rich},
        {"nav.export", parse(R"({"mesh": "pad"})"), Session::Rich},
        {"nav.list", parse(R"({})"), Session::Rich},
        {"space3d.get", parse(R"({"name": "Guard"})"), Session::Rich},
        {"space3d.list", parse(R"({})"), Session::Rich},
        {"ai.tree.get", parse(R"({"name": "guard"})"), Session::Rich},
        {"ai.tree.list", parse(R"({})"), Session::Rich},
        {"ai.hash", parse(R"({})"), Session::Rich},
        {"ai.utility.evaluate",
         parse(R"({"name": "rest-patrol-flee", "blackboard": {"fatigue": 10, "health": 100},
                   "sensors": {"distance_to_target": 20}})"),
         Session::Rich},
        {"ai.validate", pathParam("samples/ai/guard.bt.json"), Session::Rich},
        {"nav.path", parse(R"({"mesh": "maze", "from": [1.5, 1.5], "to": [30.5, 15.5]})"), Session::TwoD},
        {"nav.walls", parse(R"({"mesh": "maze", "point": [1.5, 1.5], "range": 2})"), Session::TwoD},
        {"nav.random_point", parse(R"({"mesh": "pad", "seed": 9})"), Session::TwoD},
    };
    for (Session kind : {Session::Rich, Session::TwoD})
    {
        SessionState state = makeSession(d, kind);
        const uint64_t before = state.hash();
        const Handles handles = handlesOf(state);
        for (const Read& r : valid)
        {
            if (r.session != kind)
                continue;
            INFO(r.command, " ", r.params.dump(), " in the ", sessionName(kind));
            const json answer = d.call(state, r.command, r.params);
            INFO("answer: ", answer.dump().substr(0, 1000));
            CHECK(answer["ok"] == true);
            CHECK(state.hash() == before);
        }
        for (const auto& entry : Registry::global().all())
        {
            const auto& id = entry.first; // a plain reference: INFO captures it
            if (entry.second.mutates != Mutates::No)
                continue;
            INFO(id, " {} in the ", sessionName(kind));
            (void)d.call(state, id, json::object());
            CHECK(state.hash() == before);
        }
        CHECK(handlesOf(state) == handles);
    }
}
