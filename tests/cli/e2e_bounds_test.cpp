// End-to-end: the "unbounded work and memory" reproducers of issue 42, through
// the real binary, each answering in bounded time (a timeout kills it: exit
// 124) and memory (the peak resident size of the children).

#include "e2e_util.h"

using namespace e2e;

namespace
{

/// Bound on the resident size of any spark run here (ASan builds included). [Units: MiB]
constexpr long kBoundsPeakMiB = 1500;

const fs::path kBoundsScratch = fs::path("build/test-output/bounds");

/// Writes a file under the scratch folder; returns its project-relative path.
std::string boundsFile(const std::string& name, const std::string& content)
{
    fs::create_directories(fs::path(SPARK_SOURCE_DIR) / kBoundsScratch);
    std::ofstream(fs::path(SPARK_SOURCE_DIR) / kBoundsScratch / name, std::ios::binary) << content;
    return (kBoundsScratch / name).string();
}

/// The fan-out: 16 scenario files of 8 steps, each step running the next
/// file (no cycle): 8^15 runs without a budget. Returns the first file.
std::string writeFanOutFiles()
{
    for (int level = 0; level < 16; ++level)
    {
        json steps = json::array();
        for (int i = 0; i < 8; ++i)
            steps.push_back(level < 15 ? json{{"do", "ai.scenario.run"},
                                              {"path", (kBoundsScratch / ("fan" + std::to_string(level + 1) + ".scenario.json")).string()}}
                                       : json{{"do", "system.version"}});
        boundsFile("fan" + std::to_string(level) + ".scenario.json", json{{"version", 1}, {"steps", steps}}.dump());
    }
    return (kBoundsScratch / "fan0.scenario.json").string();
}

} // namespace

TEST_CASE("a fan-out of scenarios is E_SCENARIO_LIMIT through spark call, spark test and MCP")
{
    const std::string fan0 = writeFanOutFiles();
    const json params = {{"path", fan0}};

    Run call = spark({"call", "ai.scenario.run", params.dump(), "--json"}, "", 120);
    REQUIRE(call.exit == 1);
    const json e = parsed(call.out)["error"];
    CHECK(e["code"] == "E_SCENARIO_LIMIT");
    CHECK(e["data"]["path"] == "/path");
    CHECK(e["data"]["limit"] == 10000);
    CHECK(e["data"]["chain"].size() == 16);
    CHECK_FALSE(e["hint"].get<std::string>().empty());

    const std::string tests = boundsFile("fan.test.json", json{{"version", 1},
                                                              {"name", "fan"},
                                                              {"tests", {{{"name", "fan-out"}, {"scenario", fan0}}}}}
                                                            .dump());
    Run test = spark({"test", tests}, "", 120);
    CHECK(test.exit == 1);
    CHECK(test.out.find("E_SCENARIO_LIMIT") != std::string::npos);
    CHECK(test.out.find("0 passed, 1 failed") != std::string::npos);

    const json rpc = {{"jsonrpc", "2.0"},
                      {"id", 1},
                      {"method", "tools/call"},
                      {"params", {{"name", "ai_scenario_run"}, {"arguments", params}}}};
    Run mcp = spark({"mcp"}, rpc.dump() + "\n" + R"({"jsonrpc": "2.0", "id": 2, "method": "ping"})" + "\n", 120);
    auto answers = answerLines(mcp.out);
    REQUIRE(answers.size() == 2);
    // The ping is answered while the tool call runs (spark mcp reads on), so match by id.
    const json& callAnswer = answers[0]["id"] == 1 ? answers[0] : answers[1];
    const json& ping = answers[0]["id"] == 1 ? answers[1] : answers[0];
    CHECK(callAnswer["result"]["isError"] == true);
    CHECK(parsed(callAnswer["result"]["content"][0]["text"].get<std::string>())["error"]["code"] == "E_SCENARIO_LIMIT");
    CHECK(ping["id"] == 2);
    CHECK(ping["result"] == json::object());
    CHECK(peakChildMiB() < kBoundsPeakMiB);
}

TEST_CASE("2,000 objects on one 20,000-triangle model step and cast rays in bounded memory")
{
    // The model: a 100 × 100 grid of quads, 2 m wide (old: every object copied its triangles, 8.6 GB here).
    std::string obj;
    const int n = 100;
    for (int z = 0; z <= n; ++z)
        for (int x = 0; x <= n; ++x)
            obj += "v " + std::to_string(-1.0 + 2.0 * x / n) + " 0 " + std::to_string(-1.0 + 2.0 * z / n) + "\n";
    for (int z = 0; z < n; ++z)
        for (int x = 0; x < n; ++x)
        {
            const int a = z * (n + 1) + x + 1, b = a + 1, c = a + n + 1, d = c + 1;
            obj += "f " + std::to_string(a) + " " + std::to_string(c) + " " + std::to_string(b) + "\nf " +
                   std::to_string(b) + " " + std::to_string(c) + " " + std::to_string(d) + "\n";
        }
    const std::string model = boundsFile("grid.obj", obj);
    json objects = json::array();
    const json tileBody = {{"kind", "fixed"}, {"shape", {{"type", "trimesh"}, {"model", model}}}};
    for (int i = 0; i < 2000; ++i)
    {
        const json components = {{"Transform3D", {{"position", {3 * (i % 50), 0, 3 * (i / 50)}}}}, {"Body", tileBody}};
        objects.push_back({{"name", "tile" + std::to_string(i)}, {"components", components}});
    }
    const json crateBody = {{"kind", "dynamic"}, {"shape", {{"type", "box"}, {"half_extents", {0.25, 0.25, 0.25}}}}};
    const json crate = {{"Transform3D", {{"position", {3, 2, 3}}}}, {"Body", crateBody}};
    objects.push_back({{"name", "Crate"}, {"components", crate}});
    const std::string scene = boundsFile("tiles.space3d.json", json{{"version", 1}, {"objects", objects}}.dump());

    auto req = [](const std::string& command, const json& params) {
        return json{{"command", command}, {"params", params}}.dump() + "\n";
    };
    Run r = spark({"run", "-"},
                  req("space3d.load", {{"path", scene}}) + req("space3d.step", {{"frames", 90}}) +
                      req("space3d.step", {{"frames", 1}}) +
                      req("space3d.raycast", {{"from", {6, 5, 6}}, {"to", {6, -5, 6}}}) +
                      req("space3d.get", {{"name", "Crate"}}) + R"({"command": "system.version"})" "\n",
                  120);
    REQUIRE(r.exit != 124);
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 6);
    REQUIRE(answers[1]["ok"] == true);
    CHECK(answers[1]["result"]["physics"]["static_shapes"] == 2000 * 20000);
    CHECK(answers[1]["result"]["physics"]["approximated_models"] == 0);
    CHECK(answers[2]["ok"] == true); // a later step costs no rebuild
    CHECK(answers[3]["result"]["hit"] == true);
    CHECK(answers[3]["result"]["object"] == "tile102");
    CHECK(std::abs(answers[3]["result"]["point"][1].get<double>()) < 1e-6);
    // The crate fell onto tile51's triangles and rests on them.
    const double crateY = answers[4]["result"]["components"]["Transform3D"]["position"][1].get<double>();
    CHECK(crateY > 0.2);
    CHECK(crateY < 0.3);
    CHECK(answers[5]["ok"] == true);
    CHECK(peakChildMiB() < kBoundsPeakMiB);
}

TEST_CASE("a navmesh file is read from its text: bad bytes, deep nesting and bad fields are coded errors")
{
    const std::string head =
        R"({"format": "spark.navmesh", "version": 1, "dimensions": 2, "settings": {"agent_radius": 0.4, "agent_height": 1.8,)"
        R"( "step_height": 0.4, "cell_size": 0.2, "cell_height": 0.1, "max_slope_deg": 45, "link_tolerance": 0.001,)"
        R"( "max_poly_verts": 6}, "vertices": [[0, 0], [1, 0], [1, 1], [0, 1]], )";
    struct Case
    {
        std::string name, text, code, field;
    };
    const Case cases[] = {
        {"good", head + R"("polygons": [[0, 1, 2, 3]], "areas": [0]})", "", ""},
        {"utf8", head + "\"polygons\": [[0, 1, 2, 3]], \"areas\": [0], \"x\xff\": 1}", "E_FORMAT", ""},
        {"deep", head + R"("polygons": )" + std::string(300, '[') + std::string(300, ']') + R"(, "areas": [0]})", "E_FORMAT", ""},
        {"huge", head + R"("polygons": [[0, 1, 2, 3]], "areas": [1e400]})", "E_FORMAT", ""},
        {"index", head + R"("polygons": [[0, 1, 2, 3], [0, 1, 9]], "areas": [0, 0]})", "E_NAV_FORMAT", "/polygons/1/2"},
        {"area", head + R"("polygons": [[0, 1, 2, 3]], "areas": [16]})", "E_NAV_FORMAT", "/areas/0"},
        {"vertex", R"({"format": "spark.navmesh", "version": 1, "dimensions": 2, "settings": {}, "vertices": [], "polygons": [], "areas": []})",
         "E_NAV_FORMAT", "/settings/agent_radius"},
        {"unknown", head + R"("polygons": [], "areas": [], "extra": 1})", "E_NAV_FORMAT", "/extra"},
    };
    for (const Case& c : cases)
    {
        const std::string file = boundsFile(c.name + ".navmesh.json", c.text);
        Run r = spark({"call", "nav.import", json{{"name", "m"}, {"path", file}}.dump(), "--json"}, "", 60);
        const json answer = parsed(r.out);
        INFO(c.name << ": " << r.out);
        if (c.code.empty())
        {
            CHECK(answer["ok"] == true);
            CHECK(answer["result"]["polygons"] == 1);
            continue;
        }
        CHECK(answer["error"]["code"] == c.code);
        CHECK(answer["error"]["data"]["path"] == "/path");
        if (!c.field.empty())
            CHECK(answer["error"]["data"]["field"] == c.field);
    }
}

TEST_CASE("planning over a mesh carved into slivers ends in bounded memory")
{
    // Found by fuzz_runtime (tests/fuzz/runtime/regressions/oom-planning):
    // triangles reaching 10 km out, carved over each other, leave slivers
    // along the floor's edge on which the any-angle search's intervals
    // circled (2.3 GB of nodes, then E_INTERNAL) and so did the weighted
    // search's windows. The search now stops at its node budget and the
    // polygon search answers.
    const std::string world = boundsFile("slivers.space3d.json", R"({"version": 1, "objects": [
 {"name": "Floor", "components": {"Transform3D": {"position": [0, -0.5, 0]},
  "Body": {"kind": "fixed", "shape": {"type": "box", "half_extents": [6, 0.5, 6]}}}},
 {"name": "Wall", "components": {"Transform3D": {"position": [0, 1, -1]},
  "Body": {"kind": "fixed", "shape": {"type": "box", "half_extents": [0.25, 1, 3]}}}}]})");
    auto req = [](const std::string& command, const json& params) {
        return json{{"command", command}, {"params", params}}.dump() + "\n";
    };
    auto polygon = [](const json& points) { return json{{"type", "polygon"}, {"points", points}}; };
    const json tri = {{-1.03125, -1.03125}, {1.03125, -1.03125}, {0.0, 1.03125}};
    const json far = {{-10000.0, -0.546875}, {1.03125, -1.03125}, {0.0, 1.03125}};
    const double a = -3.6666666666666665, b = -3.4;
    const std::vector<std::pair<json, json>> obstacles = {
        {{b, 0, a}, polygon(far)},
        {{b, 0, a}, polygon(tri)},
        {{-0.6, 0, -2.6}, {{"type", "circle"}, {"radius", 1.828125}}},
        {{a, 0, a}, polygon(tri)},
        {{-1.4, 0, -8.0}, polygon(tri)},
        {{a, 0, a}, polygon(json{{-1.03125, -1.03125}, {1.15625, -1.03125}, {0.0, 1.578125}})},
        {{a, 0, a}, polygon(far)},
        {{b, 0, a}, polygon(tri)},
        {{-0.6666666666666666, 0, -2.6}, {{"type", "circle"}, {"radius", 1.828125}}},
        {{a, 0, a}, polygon(tri)},
        {{-1.4, 0, -8.0}, polygon(tri)}};
    std::string input = req("space3d.load", {{"path", world}}) +
                        req("nav.bake", {{"name", "arena"}, {"agent_radius", 0.4}, {"agent_height", 1.8}, {"cell_size", 0.25}});
    for (const auto& [position, shape] : obstacles)
        input += req("nav.obstacle.add", {{"position", position}, {"shape", shape}});
    const json from = {4.066666666666666, 0.0, -6.266666666666667}, to = {-4.066666666666666, 0.0, -3.6666666666666665};
    input += req("nav.agent.add", {{"position", from}, {"target", to}});
    input += req("nav.step", {{"frames", 30}});
    input += req("nav.agent.list", json::object());
    Run r = spark({"run", "-"}, input, 60);
    REQUIRE(r.exit != 124);
    const auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 2 + obstacles.size() + 3);
    for (const json& answer : answers)
        CHECK_MESSAGE(answer["ok"] == true, answer.dump());
    const json added = answers[2 + obstacles.size()]["result"];
    CHECK(added["state"] == "moving");
    // It walks: 30 frames later it has left its start along the floor's edge.
    const json agent = answers.back()["result"]["agents"][0];
    CHECK(agent["state"] == "moving");
    CHECK(agent["position"][0].get<double>() < added["position"][0].get<double>() - 0.3);
    CHECK(peakChildMiB() < kBoundsPeakMiB);
}
