// Fuzz target: the runtime. An input is decoded into up to 24 commands on a
// stepping world — a small scene of its own (a 12 x 12 m floor, a wall, a
// crate, a ball and the player), baked, with the guard tree and the utility
// sample loaded (set up once, brought back for every input from a saved
// session) — spawning and despawning AI characters, adding,
// steering and removing crowd agents, obstacles (some following objects) and
// off-mesh links, attaching and detaching brains, writing blackboards, taking
// and restoring snapshots, and stepping the scene, the crowds and the AI a few
// frames at a time. Ids come from earlier answers (of any kind, removed ones
// too) or are made up; numbers are mostly on the scene, sometimes hostile.
//
// Every input's work is small and bounded, so a long run reaches millions of
// inputs: the world has five objects and a coarse mesh (each command's state
// hash and the per-input restore are cheap), steps run 1-2 frames (rarely 8),
// and no command bakes or loads anything. An input steps at most 16 frames in
// all (1-2 a command, rarely up to 8): past that, step commands become reads.
//
// Oracles (fuzz::dispatcher checks results against their schemas and that a
// failed mutating command leaves the state hash as it was): no answer is
// E_INTERNAL; every answer serialises.

#include "fuzz_common.h"

#include "spark/scene/session_state.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace
{

using spark::cli::json;

constexpr int kMaxCommands = 24;

struct Input
{
    FuzzedDataProvider& in;

    uint8_t byte() { return in.ConsumeIntegral<uint8_t>(); }
    bool flag() { return in.ConsumeBool(); }
    /// A coordinate on the scene (-8 .. 8 m), sometimes a value at or past a limit.
    double coord()
    {
        static constexpr double kOdd[] = {0.0, 1e6, -1e6, 1.000001e6, 1e308, -1e-300, 15.25, -10.25};
        const uint8_t b = byte();
        return b < 240 ? (static_cast<double>(b) - 120.0) * (8.0 / 120.0) : kOdd[b % 8];
    }
    /// A positive size (0 .. 4 m), sometimes 0, negative or huge.
    double size()
    {
        static constexpr double kOdd[] = {0.0, -1.0, 100.0, 1e4, 1e9, 1e-9, 0.01, 1000.0};
        const uint8_t b = byte();
        return b < 240 ? (1.0 + b) / 64.0 : kOdd[b % 8];
    }
    json point(bool flat = false)
    {
        const double x = coord(), y = flat ? 0.0 : (byte() < 200 ? 0.0 : coord()), z = coord();
        if (byte() >= 250)
            return json::array({x, z}); // the 2D form
        return json::array({x, y, z});
    }
    /// Frames of one step command: 1-2, rarely up to 8, within the input's budget
    /// (stepping is most of an input's time; 16 frames cover arrivals, brains' ticks
    /// at periods up to 5, and obstacles following moved objects).
    int frames()
    {
        const int want = 1 + byte() % (byte() >= 250 ? 8 : 2);
        const int n = want < framesLeft ? want : framesLeft;
        framesLeft -= n;
        return n;
    }
    int framesLeft = 16; ///< Frames the input's step commands may still run.
};

/// Names the inputs use: the sample's objects, spawned characters, a missing one.
const std::array<const char*, 8> kNames = {"Player", "Guard0", "Guard1", "Guard2", "Ball", "CrateA", "Floor", "Nobody"};

/// The starting scene: few objects, so the per-input restore and every state hash are cheap.
constexpr const char* kWorldFile = "fuzz-runtime-world.space3d.json";
constexpr const char* kWorldDocument = R"({"version": 1, "gravity": [0, -9.81, 0], "objects": [
 {"name": "Floor", "components": {"Transform3D": {"position": [0, -0.5, 0]},
  "Body": {"kind": "fixed", "shape": {"type": "box", "half_extents": [6, 0.5, 6]}}}},
 {"name": "Wall", "components": {"Transform3D": {"position": [0, 1, -1]},
  "Body": {"kind": "fixed", "shape": {"type": "box", "half_extents": [0.25, 1, 3]}}}},
 {"name": "CrateA", "components": {"Transform3D": {"position": [3, 2, 1]},
  "Body": {"kind": "dynamic", "shape": {"type": "box", "half_extents": [0.4, 0.4, 0.4]}}}},
 {"name": "Ball", "components": {"Transform3D": {"position": [-3, 3, 2]},
  "Body": {"kind": "dynamic", "shape": {"type": "sphere", "radius": 0.35}}}},
 {"name": "Player", "components": {"Transform3D": {"position": [3, 0.95, -4]},
  "CharacterController": {"height": 1.8, "radius": 0.4, "step_height": 0.4, "max_slope_deg": 45, "jump_speed": 5}}}
]})";
const std::array<const char*, 3> kSnapshots = {"s0", "s1", "s2"};

struct Run
{
    Input& in;
    spark::scene::SessionState& state;
    std::vector<int64_t> ids; ///< Every id an answer carried (agents, obstacles, links).

    int64_t anyId()
    {
        const uint8_t b = in.byte();
        if (!ids.empty() && b < 200)
            return ids[b % ids.size()];
        static constexpr int64_t kMadeUp[] = {0, 1, 1048576, 4294967296, 9007199254740991, 7};
        return kMadeUp[b % 6];
    }
    std::string name() { return kNames[in.byte() % kNames.size()]; }

    void run(const std::string& command, json params)
    {
        const json answer = spark::fuzz::dispatcher().execute(state, {{"command", command}, {"params", params}});
        spark::fuzz::checkEnvelope(answer, command);
        if (spark::cli::dumpJson(answer).empty())
            spark::fuzz::finding("an answer serialised to nothing", command);
        if (answer.value("ok", false))
            for (const char* key : {"agent", "id"})
                if (answer["result"].contains(key) && answer["result"][key].is_number_integer())
                    ids.push_back(answer["result"][key].get<int64_t>());
    }

    json brainDoc()
    {
        return in.flag() ? json{{"tree", "guard"}} : json{{"utility", "rest-patrol-flee"}};
    }

    void step()
    {
        switch (in.byte() % 20)
        {
        case 0:
        {
            json agent = {{"mesh", "arena"}, {"max_speed", in.size()}};
            agent.update(brainDoc());
            if (in.flag())
                agent["blackboard"] = {{"target", name()}};
            json p = {{"name", name()},
                      {"components",
                       {{"Transform3D", {{"position", json::array({in.coord(), 0.95, in.coord()})}}},
                        {"CharacterController", {{"height", 1.8}, {"radius", in.byte() >= 240 ? in.size() : 0.4}}},
                        {"AiAgent", agent}}}};
            run("space3d.spawn", p);
            break;
        }
        case 1: run("space3d.despawn", {{"name", name()}}); break;
        case 2:
        {
            json p = {{"position", in.point(true)}};
            if (in.flag())
                p["target"] = in.point(true);
            if (in.byte() >= 200)
                p["radius"] = in.size();
            if (in.byte() >= 220)
                p["max_speed"] = in.size();
            if (in.byte() >= 240)
                p["max_neighbors"] = in.byte() % 40;
            run("nav.agent.add", p);
            break;
        }
        case 3:
        {
            json p = {{"agent", anyId()}};
            switch (in.byte() % 4)
            {
            case 0: p["target"] = in.point(true); break;
            case 1: p["velocity"] = in.point(true); break;
            case 2: p["stop"] = true; break;
            default: p["radius"] = in.size(); break;
            }
            run("nav.agent.set", p);
            break;
        }
        case 4: run("nav.agent.remove", {{"agent", anyId()}}); break;
        case 5:
        {
            json shape;
            switch (in.byte() % 3)
            {
            case 0: shape = {{"type", "circle"}, {"radius", in.size()}}; break;
            case 1: shape = {{"type", "box"}, {"half_extents", json::array({in.size(), in.size()})}}; break;
            default:
                shape = {{"type", "polygon"},
                         {"points", json::array({json::array({-in.size(), -in.size()}),
                                                 json::array({in.size(), -in.size()}),
                                                 json::array({0.0, in.size()})})}};
                break;
            }
            json p = {{"shape", shape}, {"position", in.point()}};
            if (in.byte() >= 160)
                p["height"] = in.size();
            if (in.byte() >= 200)
                p["follow"] = name();
            run("nav.obstacle.add", p);
            break;
        }
        case 6:
            if (in.flag())
                run("nav.obstacle.move", {{"id", anyId()}, {"position", in.point()}, {"angle_deg", in.coord() * 20}});
            else
                run("nav.obstacle.remove", {{"id", anyId()}});
            break;
        case 7:
        {
            json p = {{"start", in.point()}, {"end", in.point()}, {"kind", in.flag() ? "jump" : "drop"}};
            if (in.byte() >= 200)
                p["radius"] = in.size();
            run("nav.offmesh.add", p);
            break;
        }
        case 8: run("nav.offmesh.remove", {{"id", anyId()}}); break;
        case 9:
        {
            json p = brainDoc();
            p["agent"] = in.flag() ? json(name()) : json(anyId());
            if (in.byte() >= 200)
                p["period"] = 1 + in.byte() % 5;
            if (in.flag())
                p["blackboard"] = {{"target", name()}};
            run("ai.brain.attach", p);
            break;
        }
        case 10: run("ai.brain.detach", {{"agent", in.flag() ? json(name()) : json(anyId())}}); break;
        case 11:
        {
            json value;
            switch (in.byte() % 4)
            {
            case 0: value = name(); break;
            case 1: value = in.point(); break;
            case 2: value = in.coord(); break;
            default: value = in.flag(); break;
            }
            static constexpr const char* kKeys[] = {"target", "threat", "x", "health"};
            run("ai.blackboard.set", {{"agent", name()}, {"key", kKeys[in.byte() % 4]}, {"value", value}});
            break;
        }
        case 12: run("space3d.snapshot.take", {{"name", kSnapshots[in.byte() % 3]}}); break;
        case 13: run("space3d.snapshot.restore", {{"name", kSnapshots[in.byte() % 3]}}); break;
        case 14:
        case 15:
            if (in.framesLeft == 0) // the budget is spent: a read-only command instead
                run("space3d.hash", json::object());
            else
                run("space3d.step", {{"frames", in.frames()}});
            break;
        case 16:
        {
            static constexpr double kDt[] = {1.0 / 60.0, 0.1, 1.0, 0.5, 1e-6, 0.0, -0.1, 2.0};
            if (in.framesLeft == 0)
                run("nav.agent.list", json::object());
            else
                run("nav.step", {{"frames", in.frames()}, {"dt", kDt[in.byte() % 8]}});
            break;
        }
        case 17:
            if (in.framesLeft == 0)
                run("ai.brain.get", {{"agent", name()}});
            else
                run("ai.step", {{"frames", in.frames()}});
            break;
        case 18:
            run("space3d.character.move",
                {{"object", name()}, {"velocity", json::array({in.coord(), 0.0, in.coord()})}, {"jump", in.flag()}});
            break;
        default:
            switch (in.byte() % 5)
            {
            case 0: run("nav.path", {{"from", in.point()}, {"to", in.point()}}); break;
            case 1: run("nav.agent.list", json::object()); break;
            case 2: run("ai.brain.get", {{"agent", in.flag() ? json(name()) : json(anyId())}}); break;
            case 3: run("nav.obstacle.list", json::object()); break;
            default: run("space3d.hash", json::object()); break;
            }
            break;
        }
    }
};

/// The world every input starts from, made once.
const spark::scene::SessionSnapshot& startingWorld()
{
    static const spark::scene::SessionSnapshot world = [] {
        spark::scene::SessionState state;
        spark::cli::Dispatcher& d = spark::fuzz::dispatcher();
        // Written into the scratch project, which the first input's restore() takes back to the samples.
        std::ofstream(spark::fuzz::ScratchProject::get().root() / kWorldFile) << kWorldDocument;
        for (const auto& [command, params] : std::vector<std::pair<std::string, json>>{
                 {"space3d.load", {{"path", kWorldFile}}},
                 {"nav.bake", {{"name", "arena"}, {"agent_radius", 0.4}, {"agent_height", 1.8}, {"cell_size", 0.25}}},
                 {"ai.tree.load", {{"path", "samples/ai/guard.bt.json"}}},
                 {"ai.utility.load", {{"path", "samples/ai/rest-patrol-flee.utility.json"}}}})
        {
            const json answer = d.execute(state, {{"command", command}, {"params", params}});
            if (!answer.value("ok", false))
                spark::fuzz::finding("the starting world cannot be set up", answer.dump());
        }
        return state.save();
    }();
    return world;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzedDataProvider provider(data, size);
    Input in{provider};
    spark::scene::SessionState state;
    state.restore(startingWorld());
    Run run{in, state, {}};
    for (int k = 0; k < kMaxCommands && provider.remaining_bytes() > 0; ++k)
        run.step();
    spark::fuzz::ScratchProject::get().restore();
    return 0;
}
