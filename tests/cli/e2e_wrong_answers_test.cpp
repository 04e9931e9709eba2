// End-to-end: the "wrong answers" of the hardening issue, round two. Each
// reproducer runs through the real binary and must now answer correctly: no
// walkable space inside a solid box, no NaN utility score, a driven object's
// centre kept above the ground, an obstacle following nothing refused, one
// arrived event per finished move, and ids that carry their kind.

#include "e2e_util.h"

#include <cmath>

using namespace e2e;

// Named, not anonymous: the unity build puts this file beside others with helpers of the same names.
namespace wrong_answers
{

const fs::path kScratch = fs::path("build/test-output/wrong-answers");

std::string line(const std::string& command, const json& params)
{
    return json{{"command", command}, {"params", params}}.dump() + "\n";
}

/// The answers of one `spark run` session over `lines`, each one required ok unless listed in `failing`.
std::vector<json> session(const std::string& lines, std::vector<size_t> failing = {})
{
    Run r = spark({"run", "-"}, lines, 120);
    REQUIRE(r.exit != 124);
    std::vector<json> answers = answerLines(r.out);
    for (size_t i = 0; i < answers.size(); ++i)
    {
        CAPTURE(i);
        CAPTURE(answers[i].dump().substr(0, 400));
        const bool mayFail = std::find(failing.begin(), failing.end(), i) != failing.end();
        if (!mayFail)
            CHECK(answers[i]["ok"] == true);
    }
    return answers;
}

/// A 12 x 12 floor (top at y 0) and a fixed 2 x 2 x 2 box at (0, 1, 0), baked for agents 1 m tall.
std::string floorAndBox()
{
    return line("space3d.new", json::object()) +
           line("space3d.spawn", {{"name", "Floor"},
                                  {"components",
                                   {{"Transform3D", {{"position", {0, -0.5, 0}}}},
                                    {"Body", {{"kind", "fixed"}, {"shape", {{"type", "box"}, {"half_extents", {6, 0.5, 6}}}}}}}}}) +
           line("space3d.spawn", {{"name", "Box"},
                                  {"components",
                                   {{"Transform3D", {{"position", {0, 1, 0}}}},
                                    {"Body", {{"kind", "fixed"}, {"shape", {{"type", "box"}, {"half_extents", {1, 1, 1}}}}}}}}}) +
           line("nav.bake", {{"name", "m"}, {"agent_radius", 0.3}, {"agent_height", 1.0}});
}

/// True when (x, z) lies inside the box's footprint at floor height (y under its top).
bool insideBox(const json& p)
{
    return std::abs(p[0].get<double>()) < 1.0 && std::abs(p[2].get<double>()) < 1.0 && p[1].get<double>() < 1.9;
}

TEST_CASE("no walkable space is baked inside a solid box: nearest, random points and agents stay out of it")
{
    const std::string lines = floorAndBox() + line("nav.nearest", {{"point", {0, 0, 0}}, {"extents", {3, 3, 3}}}) +
                              line("nav.random_point", {{"seed", 7}, {"count", 1000}}) +
                              line("nav.agent.add", {{"position", {0.2, 0, 0.3}}}) +
                              line("nav.nearest", {{"point", {0, 0, 0}}});
    const auto answers = session(lines, {7});
    REQUIRE(answers.size() == 8);
    const json& nearest = answers[4]["result"]["point"];
    CAPTURE(nearest.dump());
    CHECK_FALSE(insideBox(nearest));
    const json& points = answers[5]["result"]["points"];
    REQUIRE(points.size() == 1000);
    size_t inside = 0;
    for (const json& p : points)
        inside += insideBox(p) ? 1 : 0;
    CHECK(inside == 0);
    // Within the default extents (0.6 m across, 1 m up) nothing is walkable
    // near the box's centre any more: off the mesh.
    CHECK(answers[7]["error"]["code"] == "E_NAV_OFF_MESH");
    // The agent lands beside the box or on its top, never in it.
    const json agent = answers[6]["result"];
    CAPTURE(agent.dump());
    REQUIRE(agent.contains("position"));
    CHECK_FALSE(insideBox(agent["position"]));
}

TEST_CASE("a consideration range of [-1e308, 1e308] scores without overflow, and spark test sees its brain act")
{
    const json wide = {{"version", 1},
                       {"name", "wide"},
                       {"selection", "best"},
                       {"actions",
                        {{{"name", "idle"},
                          {"weight", 1},
                          {"considerations",
                           {{{"name", "x"}, {"input", {{"bb", "x"}}}, {"range", {-1e308, 1e308}}, {"curve", {{"type", "linear"}}}}}},
                          {"run", {{"name", "stop"}}}}}}};
    const std::string lines = line("ai.utility.load", {{"doc", wide}}) +
                              line("ai.utility.evaluate", {{"name", "wide"}, {"blackboard", {{"x", 5}}}, {"sensors", json::object()}}) +
                              line("ai.utility.evaluate", {{"name", "wide"}, {"blackboard", {{"x", 1e308}}}, {"sensors", json::object()}}) +
                              line("ai.utility.evaluate", {{"name", "wide"}, {"blackboard", {{"x", -1e308}}}, {"sensors", json::object()}});
    const auto answers = session(lines);
    REQUIRE(answers.size() == 4);
    const double expected[] = {0.5, 1.0, 0.0};
    for (int i = 0; i < 3; ++i)
    {
        const json& action = answers[static_cast<size_t>(i) + 1]["result"]["actions"][0];
        CAPTURE(action.dump());
        REQUIRE(action["score"].is_number());
        CHECK(action["score"].get<double>() == doctest::Approx(expected[i]));
        CHECK(action["considerations"][0]["normalized"].get<double>() == doctest::Approx(expected[i]));
    }
    CHECK(answers[2]["result"]["choice"] == "idle");

    // A brain on that document, through `spark test`: its utility chooses on
    // its first tick, so the test's expectations hold (they did not while the
    // score was NaN and the brain failed every tick).
    fs::create_directories(fs::path(SPARK_SOURCE_DIR) / kScratch);
    const json test = {
        {"version", 1},
        {"name", "wide range"},
        {"tests",
         {{{"name", "a brain on a wide range chooses its action"},
           {"steps",
            {{{"do", "space3d.new"}},
             {{"do", "space3d.spawn"},
              {"name", "Floor"},
              {"components",
               {{"Transform3D", {{"position", {0, -0.5, 0}}}},
                {"Body", {{"kind", "fixed"}, {"shape", {{"type", "box"}, {"half_extents", {6, 0.5, 6}}}}}}}}},
             {{"do", "nav.bake"}, {"name", "m"}},
             {{"do", "ai.utility.load"}, {"doc", wide}},
             {{"do", "space3d.spawn"},
              {"name", "Thinker"},
              {"components",
               {{"Transform3D", {{"position", {0, 0, 0}}}},
                {"AiAgent", {{"mesh", "m"}, {"utility", "wide"}, {"blackboard", {{"x", 1e308}}}}}}}},
             {{"do", "ai.step"}, {"frames", 5}},
             {{"do", "ai.assert"},
              {"that",
               {{"events",
                 {{"kind", "utility"}, {"agent", "Thinker"}, {"data", {{"choice", "idle"}, {"score", 1.0}}}, {"exactly", 5}}}}}},
             {{"do", "ai.assert"}, {"that", {{"tree_status", {{"agent", "Thinker"}, {"equals", "success"}}}}}}}}}}}};
    const fs::path file = kScratch / "wide-range.test.json";
    std::ofstream(fs::path(SPARK_SOURCE_DIR) / file) << test.dump(1);
    Run t = spark({"test", file.string()}, "", 120);
    CAPTURE(t.out);
    CAPTURE(t.err);
    CHECK(t.exit == 0);
    CHECK(t.out.find("1 passed, 0 failed") != std::string::npos);
}

TEST_CASE("an object that drives its transform keeps its centre above the ground: a cart stays at y 0.5")
{
    const std::string lines =
        floorAndBox() +
        line("ai.tree.load",
             {{"doc",
               {{"version", 1},
                {"name", "walk"},
                {"root", {{"type", "action"}, {"name", "move_to"}, {"params", {{"target", {4, 0, -4}}}}}}}}}) +
        line("space3d.spawn",
             {{"name", "Cart"},
              {"components",
               {{"Transform3D", {{"position", {-4, 0.5, -4}}}},
                {"Body", {{"kind", "kinematic"}, {"shape", {{"type", "box"}, {"half_extents", {0.5, 0.5, 0.5}}}}}},
                {"AiAgent", {{"mesh", "m"}, {"tree", "walk"}, {"drive", "transform"}, {"max_speed", 2}}}}}}) +
        line("ai.step", {{"frames", 120}}) + line("space3d.get", {{"name", "Cart"}});
    const auto answers = session(lines);
    REQUIRE(answers.size() == 8);
    const json& position = answers[7]["result"]["components"]["Transform3D"]["position"];
    CAPTURE(position.dump());
    CHECK(position[0].get<double>() > -2.0); // it moved
    CHECK(position[1].get<double>() == doctest::Approx(0.5).epsilon(1e-4));
}

TEST_CASE("an obstacle that follows an unknown object is refused at /follow with a hint, and nothing is added")
{
    const std::string lines = floorAndBox() +
                              line("nav.obstacle.add", {{"shape", {{"type", "circle"}, {"radius", 0.3}}},
                                                        {"position", {3, 0, 3}},
                                                        {"follow", "Nobody"}}) +
                              line("nav.obstacle.list", json::object()) +
                              line("nav.obstacle.add", {{"shape", {{"type", "circle"}, {"radius", 0.3}}},
                                                        {"position", {3, 0, 3}},
                                                        {"follow", "Box"}});
    const auto answers = session(lines, {4});
    REQUIRE(answers.size() == 7);
    const json& error = answers[4]["error"];
    CAPTURE(error.dump());
    CHECK(error["code"] == "E_SCENE_UNKNOWN_OBJECT");
    CHECK(error["data"]["path"] == "/follow");
    CHECK_FALSE(error["hint"].get<std::string>().empty());
    CHECK(answers[5]["result"]["obstacles"].empty());
    CHECK(answers[6]["result"].contains("id")); // an object that exists is followed
    // Without a 3D scene there is nothing to follow.
    const auto bare = session(line("nav.bake", {{"name", "pad"},
                                                {"source", "polygons"},
                                                {"cell_size", 0.5},
                                                {"bounds", {{"min", {0, 0}}, {"max", {10, 10}}}}}) +
                                  line("nav.obstacle.add", {{"shape", {{"type", "circle"}, {"radius", 0.3}}},
                                                            {"position", {3, 3}},
                                                            {"follow", "Player"}}),
                              {1});
    REQUIRE(bare.size() == 2);
    CHECK(bare[1]["error"]["code"] == "E_SCENE_UNKNOWN_OBJECT");
}

TEST_CASE("a brain's finished move_to reports arrived once, not on every frame after")
{
    const std::string lines =
        floorAndBox() +
        line("ai.tree.load",
             {{"doc",
               {{"version", 1},
                {"name", "go"},
                {"root", {{"type", "action"}, {"name", "move_to"}, {"params", {{"target", {-4, 0, 4}}}}}}}}}) +
        line("space3d.spawn", {{"name", "Walker"},
                               {"components",
                                {{"Transform3D", {{"position", {-4, 0.5, -4}}}},
                                 {"AiAgent", {{"mesh", "m"}, {"tree", "go"}, {"drive", "transform"}, {"max_speed", 4}}}}}}) +
        line("ai.step", {{"frames", 300}}) + line("ai.events", {{"kind", "arrived"}});
    const auto answers = session(lines);
    REQUIRE(answers.size() == 8);
    const json& events = answers[7]["result"]["events"];
    CAPTURE(events.dump());
    CHECK(events.size() == 1);
}

TEST_CASE("ids carry their kind: an agent's id is no obstacle's or link's, and a refused remove changes nothing")
{
    const std::string lines =
        floorAndBox() + line("nav.agent.add", {{"position", {-4, 0, -4}}}) +
        line("nav.obstacle.add", {{"shape", {{"type", "circle"}, {"radius", 0.3}}}, {"position", {3, 0, 3}}}) +
        line("nav.offmesh.add", {{"start", {-4, 0, 4}}, {"end", {-3, 0, 4}}});
    auto answers = session(lines);
    REQUIRE(answers.size() == 7);
    const uint64_t agent = answers[4]["result"]["agent"].get<uint64_t>();
    const uint64_t obstacle = answers[5]["result"]["id"].get<uint64_t>();
    const uint64_t link = answers[6]["result"]["id"].get<uint64_t>();
    CHECK(agent != obstacle);
    CHECK(agent != link);
    CHECK(obstacle != link);
    CHECK(agent == 1048576); // an agent's number is as before kinds (generation 1, slot 0)

    const auto refused = session(lines + line("nav.obstacle.remove", {{"id", agent}}) +
                                     line("nav.offmesh.remove", {{"id", obstacle}}) +
                                     line("nav.agent.remove", {{"agent", link}}) + line("nav.obstacle.list", json::object()) +
                                     line("nav.agent.list", json::object()),
                                 {7, 8, 9});
    REQUIRE(refused.size() == 12);
    CHECK(refused[7]["error"]["code"] == "E_NAV_UNKNOWN_OBSTACLE");
    CHECK(refused[7]["error"]["data"]["path"] == "/id");
    CHECK(refused[7]["error"]["hint"].get<std::string>().find("an agent's id") != std::string::npos);
    CHECK(refused[8]["error"]["code"] == "E_NAV_UNKNOWN_LINK");
    CHECK(refused[8]["error"]["hint"].get<std::string>().find("an obstacle's id") != std::string::npos);
    CHECK(refused[9]["error"]["code"] == "E_NAV_UNKNOWN_AGENT");
    CHECK(refused[9]["error"]["hint"].get<std::string>().find("a link's id") != std::string::npos);
    CHECK(refused[10]["result"]["obstacles"].size() == 1);
    CHECK(refused[11]["result"]["agents"].size() == 1);
}

} // namespace wrong_answers
