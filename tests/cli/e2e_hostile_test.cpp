// End-to-end: hostile input (the reproducers of the hardening issue). Each one
// runs the real binary and must get its coded error in bounded time (a timeout
// kills it: exit 124) and memory (the peak resident size of the children), and
// the session must answer the next line.

#include "e2e_util.h"

#include <sys/stat.h>

using namespace e2e;

namespace
{

/// Bound on the resident size of any spark run here (ASan builds included). [Units: MiB]
constexpr long kMaxPeakMiB = 1500;

const fs::path kScratch = fs::path("build/test-output/hostile");

void requireScratch()
{
    fs::create_directories(fs::path(SPARK_SOURCE_DIR) / kScratch);
}

/// Writes a file under the scratch folder (relative to the project) and returns its project-relative path.
std::string scratchFile(const std::string& name, const std::string& content)
{
    requireScratch();
    std::ofstream(fs::path(SPARK_SOURCE_DIR) / kScratch / name, std::ios::binary) << content;
    return (kScratch / name).string();
}

std::string line(const json& request)
{
    return request.dump() + "\n";
}

const std::string kVersion = R"({"command": "system.version"})" "\n";

} // namespace

TEST_CASE("nesting 100,000 levels deep is E_INVALID_PARAMS, and the session answers the next line")
{
    const std::string deep = std::string(100000, '[') + std::string(100000, ']') + "\n";
    Run r = spark({"run", "-"}, deep + kVersion, 30);
    REQUIRE(r.exit == 1);
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 2);
    CHECK(answers[0]["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(answers[0]["error"]["message"].get<std::string>().find("deeper than 256") != std::string::npos);
    CHECK(answers[1]["ok"] == true);
    Run mcp = spark({"mcp"}, deep + R"({"jsonrpc": "2.0", "id": 1, "method": "ping"})" "\n", 30);
    auto rpc = answerLines(mcp.out);
    REQUIRE(rpc.size() == 2);
    CHECK(rpc[0]["error"]["code"] == -32700);
    CHECK(rpc[1]["result"] == json::object());
    CHECK(peakChildMiB() < kMaxPeakMiB);
}

TEST_CASE("an invalid UTF-8 byte is refused with an escaped message and the next line is answered")
{
    Run r = spark({"run", "-"}, std::string("\xff\n") + kVersion, 30);
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 2);
    CHECK(answers[0]["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(answers[1]["ok"] == true);
    // A string with a bad byte inside valid JSON text is refused the same way.
    Run s = spark({"run", "-"}, std::string("{\"command\": \"space3d.new\", \"params\": {\"x\": \"\xc3\x28\"}}\n") + kVersion, 30);
    auto again = answerLines(s.out);
    REQUIRE(again.size() == 2);
    CHECK(again[0]["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(again[1]["ok"] == true);
    // An OBJ whose bad token is not UTF-8: the message quotes it escaped.
    const std::string obj = scratchFile("bad-token.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\n\xfe\xff 1 2 3\n");
    Run bake = spark({"bake", obj, "-o", (kScratch / "bad-token.navmesh.json").string()}, "", 30);
    CHECK(bake.exit == 1);
    const std::string all = bake.out + bake.err;
    CHECK(all.find("\\xFE\\xFF") != std::string::npos);
}

TEST_CASE("an array past its maxItems is refused before any per-item check")
{
    json excluded = {{"command", "nav.path"},
                     {"params", {{"from", {1, 1}}, {"to", {5, 5}}, {"excluded_areas", std::vector<int>(3000, 0)}}}};
    json obstacles = {{"command", "nav.bake"},
                      {"params", {{"source", "polygons"}, {"obstacles", {std::vector<std::vector<int>>(1000000, {0, 0})}}}}};
    Run r = spark({"run", "-"}, line(excluded) + line(obstacles) + kVersion, 30);
    REQUIRE(r.exit != 124);
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 3);
    CHECK(answers[0]["error"]["data"]["path"] == "/excluded_areas");
    CHECK(answers[1]["error"]["data"]["path"] == "/obstacles/0");
    CHECK(answers[2]["ok"] == true);
    CHECK(peakChildMiB() < kMaxPeakMiB);
}

TEST_CASE("a scenario that runs itself, and two that run each other, are E_SCENARIO_CYCLE")
{
    Run self = spark({"call", "ai.scenario.run", R"({"path": "tests/cli/data/cycle/self.scenario.json"})", "--json"}, "", 30);
    CHECK(self.exit == 1);
    CHECK(self.out.find("E_SCENARIO_CYCLE") != std::string::npos);
    Run pair = spark({"call", "ai.scenario.run", R"({"path": "tests/cli/data/cycle/a.scenario.json"})", "--json"}, "", 30);
    CHECK(pair.exit == 1);
    CHECK(pair.out.find("E_SCENARIO_CYCLE") != std::string::npos);
    // A .test.json naming the cyclic scenario fails that test instead of crashing.
    const std::string tests = scratchFile("cycle.test.json", R"({"version": 1, "name": "cycle", "tests": [
        {"name": "runs itself", "scenario": "tests/cli/data/cycle/self.scenario.json"}]})");
    Run t = spark({"test", tests}, "", 30);
    CHECK(t.exit == 1);
    CHECK(t.out.find("E_SCENARIO") != std::string::npos);
    CHECK(t.out.find("0 passed, 1 failed") != std::string::npos);
}

TEST_CASE("a scenario whose second step fails is E_SCENARIO_FAILED, exit 1, and its first step is undone")
{
    const json doc = {{"doc",
                       {{"version", 1},
                        {"steps",
                         {{{"do", "scene2d.new"}, {"width", 4}, {"height", 4}},
                          {{"do", "nav.path"}, {"from", {0, 0}}, {"to", {1, 1}}}}}}}};
    Run call = spark({"call", "ai.scenario.run", doc.dump(), "--json"}, "", 30);
    CHECK(call.exit == 1);
    CHECK(parsed(call.out)["error"]["code"] == "E_SCENARIO_FAILED");
    CHECK(parsed(call.out)["error"]["data"]["failed"]["index"] == 1);
    Run run = spark({"run", "-"}, line({{"command", "ai.scenario.run"}, {"params", doc}}) +
                                      line({{"command", "scene2d.tiles.set"}, {"params", {{"x", 0}, {"y", 0}, {"tile", 1}}}}), 30);
    auto answers = answerLines(run.out);
    REQUIRE(answers.size() == 2);
    CHECK(answers[0]["error"]["code"] == "E_SCENARIO_FAILED");
    CHECK(answers[1]["error"]["code"] == "E_SCENE_NONE"); // the scene2d.new of step 0 was rolled back
}

TEST_CASE("loading 100,000 boxes and importing 50,000 copies of one polygon finish in bounded time")
{
    requireScratch();
    {
        json objects = json::array();
        for (int i = 0; i < 100000; ++i)
            objects.push_back({{"name", "b" + std::to_string(i)},
                               {"components",
                                {{"Transform3D", {{"position", {i % 300, 0, i / 300}}}},
                                 {"Body", {{"shape", {{"type", "box"}, {"half_extents", {0.4, 0.4, 0.4}}}}}}}}});
        std::ofstream(fs::path(SPARK_SOURCE_DIR) / kScratch / "boxes.space3d.json") << json{{"version", 1}, {"objects", objects}}.dump();
        json doc = {{"format", "spark.navmesh"},
                    {"version", 1},
                    {"dimensions", 2},
                    {"settings",
                     {{"agent_radius", 0.4}, {"agent_height", 1.8}, {"step_height", 0.4}, {"cell_size", 0.2},
                      {"cell_height", 0.1}, {"max_slope_deg", 45}, {"link_tolerance", 0.001}, {"max_poly_verts", 6}}},
                    {"vertices", {{0, 0}, {1, 0}, {1, 1}, {0, 1}}},
                    {"polygons", std::vector<std::vector<int>>(50000, {0, 1, 2, 3})},
                    {"areas", std::vector<int>(50000, 0)}};
        std::ofstream(fs::path(SPARK_SOURCE_DIR) / kScratch / "copies.navmesh.json") << doc.dump();
    }
    Run r = spark({"run", "-"},
                  line({{"command", "space3d.load"}, {"params", {{"path", (kScratch / "boxes.space3d.json").string()}}}}) +
                      line({{"command", "nav.import"},
                            {"params", {{"name", "copies"}, {"path", (kScratch / "copies.navmesh.json").string()}}}}) +
                      kVersion,
                  120);
    REQUIRE(r.exit != 124);
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 3);
    CHECK(answers[0]["result"]["objects"] == 100000);
    CHECK(answers[1]["error"]["code"] == "E_NAV_FORMAT");
    CHECK(answers[1]["error"]["data"]["field"] == "/polygons/1");
    CHECK(answers[2]["ok"] == true);
}

TEST_CASE("FIFOs, devices, directories and oversized files are refused without blocking or reading them")
{
    requireScratch();
    const fs::path fifo = fs::path(SPARK_SOURCE_DIR) / kScratch / "pipe.json";
    fs::remove(fifo);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const std::string bake = line({{"command", "nav.bake"},
                                   {"params", {{"source", "polygons"}, {"bounds", {{"min", {0, 0}}, {"max", {4, 4}}}}}}});
    Run r = spark({"run", "-"},
                  bake + line({{"command", "nav.export"}, {"params", {{"path", (kScratch / "pipe.json").string()}}}}) +
                      line({{"command", "nav.import"}, {"params", {{"name", "p"}, {"path", (kScratch / "pipe.json").string()}}}}) +
                      line({{"command", "space3d.load"}, {"params", {{"path", "samples"}}}}) + kVersion,
                  30);
    REQUIRE(r.exit != 124);
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 5);
    CHECK(answers[1]["error"]["code"] == "E_IO");
    CHECK(answers[2]["error"]["code"] == "E_IO");
    CHECK(answers[3]["error"]["code"] == "E_IO");
    CHECK(answers[3]["error"]["message"].get<std::string>().find(SPARK_SOURCE_DIR) == std::string::npos);
    CHECK(answers[4]["ok"] == true);
    fs::remove(fifo);
    // spark run on a device or a directory; spark call with a session outside the project.
    Run zero = spark({"run", "/dev/zero"}, "", 30);
    CHECK(zero.exit == 1);
    CHECK(parsed(zero.out)["error"]["code"] == "E_IO");
    Run dir = spark({"run", "samples"}, "", 30);
    CHECK(dir.exit == 1);
    CHECK(parsed(dir.out)["error"]["code"] == "E_IO");
    Run session = spark({"call", "nav.list", "--session", "/dev/zero", "--json"}, "", 30);
    CHECK(session.exit == 1);
    CHECK(parsed(session.out)["error"]["code"] == "E_PATH");
    // A 5 GB OBJ (sparse: no disk used) is refused by its size, not read.
    const fs::path huge = fs::path(SPARK_SOURCE_DIR) / kScratch / "huge.obj";
    { std::ofstream(huge) << ""; }
    fs::resize_file(huge, 5ull * 1024 * 1024 * 1024);
    Run big = spark({"bake", (kScratch / "huge.obj").string(), "-o", (kScratch / "huge.navmesh.json").string()}, "", 30);
    CHECK(big.exit == 1);
    CHECK((big.out + big.err).find("E_SCENE_LIMIT") != std::string::npos);
    fs::remove(huge);
    CHECK(peakChildMiB() < kMaxPeakMiB);
}

TEST_CASE("a dangling symbolic link inside the project is not written through")
{
    requireScratch();
    const fs::path outside = fs::temp_directory_path() / ("spark_hostile_" + std::to_string(::getpid())) / "x.json";
    fs::remove_all(outside.parent_path());
    const fs::path link = fs::path(SPARK_SOURCE_DIR) / kScratch / "dangling.json";
    fs::remove(link);
    fs::create_symlink(outside, link);
    const std::string bake = line({{"command", "nav.bake"},
                                   {"params", {{"source", "polygons"}, {"bounds", {{"min", {0, 0}}, {"max", {4, 4}}}}}}});
    Run r = spark({"run", "-"},
                  bake + line({{"command", "nav.export"}, {"params", {{"path", (kScratch / "dangling.json").string()}}}}) +
                      line({{"command", "nav.debug.capture"}, {"params", {{"path", (kScratch / "dangling.json").string()}}}}),
                  30);
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 3);
    CHECK(answers[1]["error"]["code"] == "E_IO");
    CHECK(answers[2]["error"]["code"] == "E_IO");
    CHECK_FALSE(fs::exists(outside));
    fs::remove(link);
}

TEST_CASE("MCP: a request with a wrong jsonrpc gets -32600 with its id; a non-UTF-8 line -32700; the server goes on")
{
    Run r = spark({"mcp"},
                  R"({"jsonrpc": 2, "id": 5, "method": "ping"})" "\n" "\xff\n"
                  R"({"jsonrpc": "2.0", "id": 6, "method": "ping"})" "\n",
                  30);
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 3);
    CHECK(answers[0]["error"]["code"] == -32600);
    CHECK(answers[0]["id"] == 5);
    CHECK(answers[1]["error"]["code"] == -32700);
    CHECK(answers[1]["id"].is_null());
    CHECK(answers[2]["id"] == 6);
}

TEST_CASE("every error has a hint, and an unknown field is reported at its own pointer")
{
    Run r = spark({"run", "-"},
                  line({{"command", "system.version"}, {"params", {{"x", 1}}}}) +
                      line({{"command", "nav.bake"}, {"params", {{"source", "space3d"}}}}) +
                      line({{"command", "space3d.spawn"}, {"params", {{"name", "a"}}}}) +
                      line({{"command", "nav.path"}, {"params", {{"from", {0, 0}}, {"to", {1, 1}}}}}) + "{oops\n",
                  30);
    auto answers = answerLines(r.out);
    REQUIRE(answers.size() == 5);
    CHECK(answers[0]["error"]["data"]["problems"][0]["path"] == "/x");
    for (const json& a : answers)
    {
        CHECK(a["ok"] == false);
        CHECK_FALSE(a["error"].value("hint", std::string()).empty());
    }
}

TEST_CASE("spark test exits 1 when it finds no tests")
{
    const std::string empty = scratchFile("empty.test.json", R"({"version": 1, "name": "empty", "tests": []})");
    Run r = spark({"test", empty}, "", 30);
    CHECK(r.exit == 1);
    CHECK(r.out.find("no tests") != std::string::npos);
}
