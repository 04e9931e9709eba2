// End-to-end tests: run the real `spark` binary and check exit codes and output.

#include "e2e_util.h"

#include <map>

using namespace e2e;

TEST_CASE("spark commands --prefix system. --json lists the system commands with their schemas")
{
    Run r = spark({"commands", "--prefix", "system.", "--json"});
    REQUIRE(r.exit == 0);
    json j = parsed(r.out);
    CHECK(j["ok"] == true);
    std::vector<std::string> ids;
    for (const auto& c : j["result"]["commands"])
    {
        ids.push_back(c["id"]);
        CHECK(c["params"]["type"] == "object");
        CHECK(c.contains("result"));
        CHECK(c["errors"].is_array());
    }
    CHECK(ids == std::vector<std::string>{"system.commands", "system.schema", "system.version"});
    Run human = spark({"commands", "--prefix", "system."});
    CHECK(human.exit == 0);
    CHECK(human.out.find("system.version") != std::string::npos);
}

TEST_CASE("spark call of an unknown command exits 1 with E_UNKNOWN_COMMAND and a hint")
{
    Run r = spark({"call", "system.nope", "{}", "--json"});
    CHECK(r.exit == 1);
    json j = parsed(r.out);
    CHECK(j["error"]["code"] == "E_UNKNOWN_COMMAND");
    CHECK(j["error"]["hint"].get<std::string>().find("system.") != std::string::npos);
    Run human = spark({"call", "system.nope", "{}"});
    CHECK(human.exit == 1);
    CHECK(human.err.find("error E_UNKNOWN_COMMAND") == 0);
    CHECK(human.err.find("hint: did you mean") != std::string::npos);
}

TEST_CASE("spark call with a mistyped param exits 1 with E_INVALID_PARAMS and the path of the field")
{
    Run r = spark({"call", "system.schema", "{\"command\": 5}", "--json"});
    CHECK(r.exit == 1);
    json j = parsed(r.out);
    CHECK(j["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(j["error"]["data"]["problems"][0]["path"] == "/command");
}

TEST_CASE("usage errors exit 2; success exits 0 with human output by default")
{
    CHECK(spark({}).exit == 2);
    CHECK(spark({"call"}).exit == 2);
    CHECK(spark({"bogus"}).exit == 2);
    CHECK(spark({"call", "system.version", "{}", "--nope"}).exit == 2);
    Run ok = spark({"call", "system.version"});
    CHECK(ok.exit == 0);
    CHECK(ok.out.find("name: spark") != std::string::npos);
    Run viaStdin = spark({"call", "system.schema", "-", "--json"}, "{\"command\": \"system.version\"}");
    CHECK(viaStdin.exit == 0);
    CHECK(parsed(viaStdin.out)["result"]["id"] == "system.version");
    Run schema = spark({"schema", "ai.scenario.run"});
    CHECK(schema.exit == 0);
    CHECK(parsed(schema.out)["id"] == "ai.scenario.run");
    CHECK(spark({"schema", "nope.nope"}).exit == 1);
}

TEST_CASE("bad input to spark call gets a coded error and never crashes")
{
    struct Case
    {
        std::vector<std::string> args;
        const char* code;
    };
    const std::vector<Case> cases = {
        {{"call", "system.version", "{not json"}, "E_INVALID_PARAMS"},
        {{"call", "system.version", "[1,2]"}, "E_INVALID_PARAMS"},
        {{"call", "system.version", "\"text\""}, "E_INVALID_PARAMS"},
        {{"call", "system.version", "{\"a\": NaN}"}, "E_INVALID_PARAMS"},
        {{"call", "system.version", "{\"a\": Infinity}"}, "E_INVALID_PARAMS"},
        {{"call", "system.version", "{\"a\": 1e999}"}, "E_INVALID_PARAMS"},
        {{"call", "system.schema", "{\"command\": 1e308}"}, "E_INVALID_PARAMS"},
        {{"call", "system.schema", "{\"command\": \"" + std::string(5000, 'x') + "\"}"}, "E_INVALID_PARAMS"},
        {{"call", "system.schema", "{\"command\": [\"system.version\"]}"}, "E_INVALID_PARAMS"},
        {{"call", "system.commands", "{\"prefix\": null}"}, "E_INVALID_PARAMS"},
        {{"call", "", "{}"}, "E_UNKNOWN_COMMAND"},
        {{"call", "../../etc/passwd", "{}"}, "E_UNKNOWN_COMMAND"},
        {{"call", "ai.scenario.run", "{\"path\": \"../../etc/passwd\"}"}, "E_PATH"},
        {{"call", "ai.scenario.run", "{\"path\": \"/etc/passwd\"}"}, "E_PATH"},
        {{"call", "ai.scenario.run", "{\"path\": \"no/such/file.json\"}"}, "E_IO"},
        {{"call", "ai.scenario.run", "{\"path\": \"CMakeLists.txt\"}"}, "E_FORMAT"},
        {{"call", "ai.scenario.run", "{\"doc\": {\"steps\": 5}}"}, "E_FORMAT"},
        {{"call", "ai.scenario.run", "{}"}, "E_INVALID_PARAMS"},
    };
    for (const auto& c : cases)
    {
        std::vector<std::string> args = c.args;
        args.push_back("--json");
        Run r = spark(args);
        INFO("args: " << c.args[1] << " " << (c.args.size() > 2 ? c.args[2].substr(0, 80) : ""));
        CHECK(r.exit == 1);
        json j = parsed(r.out);
        CHECK(j["ok"] == false);
        CHECK(j["error"]["code"] == c.code);
        CHECK(r.err.find("Sanitizer") == std::string::npos);
    }
}

TEST_CASE("spark run answers one JSON line per request line and survives bad lines")
{
    const std::string input = "{\"command\": \"system.version\", \"id\": 1}\n"
                              "this is not json\n"
                              "\n"
                              "{\"command\": \"system.nope\"}\n"
                              "{\"command\": \"system.schema\", \"params\": {\"command\": 7}}\n"
                              "[]\n"
                              "{\"command\": \"system.schema\", \"params\": {\"command\": \"system.version\"}, \"id\": \"x\"}\n";
    Run r = spark({"run"}, input);
    CHECK(r.exit == 1); // some requests failed
    std::istringstream lines(r.out);
    std::vector<json> answers;
    for (std::string line; std::getline(lines, line);)
        answers.push_back(parsed(line));
    REQUIRE(answers.size() == 6);
    CHECK(answers[0]["ok"] == true);
    CHECK(answers[0]["id"] == 1);
    CHECK(answers[1]["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(answers[2]["error"]["code"] == "E_UNKNOWN_COMMAND");
    CHECK(answers[3]["error"]["data"]["problems"][0]["path"] == "/command");
    CHECK(answers[4]["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(answers[5]["ok"] == true);
    CHECK(answers[5]["id"] == "x");
    Run clean = spark({"run", "-"}, "{\"command\": \"system.version\"}\n");
    CHECK(clean.exit == 0);
}

TEST_CASE("the reference's quick start runs as written on the ragdoll-wall sample through spark run")
{
    // The five quick-start lines (the picture goes to out/), then the scene steps.
    const std::string input =
        "{\"command\": \"space3d.load\", \"params\": {\"path\": \"samples/space3d/ragdoll-wall.space3d.json\"}}\n"
        "{\"command\": \"nav.bake\", \"params\": {\"name\": \"arena\", \"agent_radius\": 0.4, \"agent_height\": 1.8}}\n"
        "{\"command\": \"nav.path\", \"params\": {\"from\": [-8, 0, 3], \"to\": [8, 0, 3]}}\n"
        "{\"command\": \"nav.obstacle.add\", \"params\": {\"shape\": {\"type\": \"circle\", \"radius\": 1.0}, \"position\": [0, 0, 3]}}\n"
        "{\"command\": \"nav.debug.capture\", \"params\": {\"path\": \"out/e2e-quickstart-arena.png\"}}\n"
        "{\"command\": \"space3d.step\", \"params\": {\"frames\": 120}}\n"
        "{\"command\": \"space3d.determinism.check\", \"params\": {\"frames\": 60}}\n";
    Run r = spark({"run", "-"}, input);
    CHECK(r.exit == 0);
    std::istringstream lines(r.out);
    std::vector<json> answers;
    for (std::string line; std::getline(lines, line);)
        answers.push_back(parsed(line));
    REQUIRE(answers.size() == 7);
    for (const json& a : answers)
        CHECK(a["ok"] == true);
    CHECK(answers[1]["result"]["stats"]["approximated_colliders"] == 0);
    CHECK(answers[2]["result"]["complete"] == true);
    CHECK(answers[2]["result"]["points"].size() == 2); // straight through the doorway
    CHECK(answers[3]["result"]["mesh"] == "arena");
    CHECK(answers[5]["result"]["frame"] == 120);
    CHECK(answers[6]["result"]["passed"] == true);
}

TEST_CASE("spark call --session replays the logged commands and appends successful mutating ones")
{
    // Session logs live inside the project like every other path.
    fs::create_directories("build/test-output/e2e");
    const fs::path log = fs::path("build/test-output/e2e") / ("session_" + std::to_string(::getpid()) + ".jsonl");
    fs::remove(log);
    const fs::path outside = fs::temp_directory_path() / ("spark_e2e_session_" + std::to_string(::getpid()) + ".jsonl");
    Run refused = spark({"call", "system.version", "{}", "--session", outside.string(), "--json"});
    CHECK(refused.exit == 1);
    CHECK(parsed(refused.out)["error"]["code"] == "E_PATH");
    CHECK_FALSE(fs::exists(outside));
    const std::string doc = R"({"doc": {"version": 1, "steps": [{"do": "system.version"}]}})";
    CHECK(spark({"call", "ai.scenario.run", doc, "--session", log.string()}).exit == 0);
    CHECK(spark({"call", "system.version", "{}", "--session", log.string()}).exit == 0);
    CHECK(spark({"call", "ai.scenario.run", "{\"doc\": 5}", "--session", log.string()}).exit == 1);
    std::istringstream lines(slurp(log));
    std::vector<std::string> logged;
    for (std::string line; std::getline(lines, line);)
        logged.push_back(line);
    REQUIRE(logged.size() == 1);
    CHECK(parsed(logged[0])["command"] == "ai.scenario.run");
    // A corrupted log is reported with its line, not replayed blindly.
    std::ofstream(log, std::ios::app) << "{\"command\": \"system.nope\"}\n";
    Run broken = spark({"call", "system.version", "{}", "--session", log.string(), "--json"});
    CHECK(broken.exit == 1);
    CHECK(parsed(broken.out)["error"]["data"]["line"] == 2);
    fs::remove(log);
}

TEST_CASE("spark test prints a line per test, N passed, N failed last, and exits 1 on failures")
{
    Run ok = spark({"test", "tests/cli/data/passing"});
    CHECK(ok.exit == 0);
    CHECK(ok.out.ends_with("2 passed, 0 failed\n"));
    Run bad = spark({"test", "tests/cli/data/failing"});
    CHECK(bad.exit == 1);
    CHECK(bad.out.find("FAIL deliberate failures :: a wrong expectation — step 1 (system.version)") != std::string::npos);
    CHECK(bad.out.ends_with("0 passed, 3 failed\n"));
    CHECK(spark({"test", "no/such/folder"}).exit == 2);
    CHECK(spark({"test", "../"}).exit == 2);
}

TEST_CASE("spark bake of dungeon.obj writes a document that nav.import reads with the same hash")
{
    const fs::path project = fs::temp_directory_path() / ("spark_e2e_bake_" + std::to_string(::getpid()));
    fs::create_directories(project);
    Run baked = spark({"bake", "data/meshes/dungeon.obj", "-o", "dungeon.navmesh.json", "--project", project.string(),
                       "--cell-size", "0.3", "--cell-height", "0.2", "--agent-height", "2.0", "--agent-radius", "0.6",
                       "--climb", "0.9", "--max-slope", "45"});
    REQUIRE_MESSAGE(baked.exit == 0, baked.err);
    const auto at = baked.out.find("hash ");
    REQUIRE(at != std::string::npos);
    const std::string hash = baked.out.substr(at + 5, 16);
    Run imported = spark({"call", "nav.import", "{\"name\": \"dungeon\", \"path\": \"dungeon.navmesh.json\"}", "--project",
                          project.string(), "--json"});
    REQUIRE(imported.exit == 0);
    json j = parsed(imported.out);
    CHECK(j["result"]["hash"] == hash);
    // The import has the polygons the bake reported ("<file>: N polygons, ..."),
    // and a dungeon bake at these settings has some eighty or more.
    const auto colon = baked.out.find(": ");
    REQUIRE(colon != std::string::npos);
    const int polygons = std::atoi(baked.out.c_str() + colon + 2);
    CHECK(j["result"]["polygons"].get<int>() == polygons);
    CHECK(polygons > 80);
    // Bad input: a missing file, an unknown kind, a nonsense setting, an output outside the project.
    CHECK(spark({"bake", "no/such.obj", "-o", "x.json", "--project", project.string()}).exit == 1);
    CHECK(spark({"bake", "README.md", "-o", "x.json", "--project", project.string()}).exit == 2);
    CHECK(spark({"bake", "data/meshes/dungeon.obj", "-o", "x.json", "--project", project.string(), "--agent-radius", "-1"})
              .exit == 1);
    CHECK(spark({"bake", "data/meshes/dungeon.obj", "-o", "../x.json", "--project", project.string()}).exit == 1);
    CHECK(spark({"bake", "data/meshes/dungeon.obj"}).exit == 2);
    fs::remove_all(project);
}

TEST_CASE("spark bake --tile-size --threads writes a tiled document that nav.import reads with its tiles and hash")
{
    fs::create_directories("build/test-output/e2e");
    const std::string stem = "build/test-output/e2e/arena_tiled_" + std::to_string(::getpid());
    auto bake = [&](const std::string& threads, const std::string& out) {
        return spark({"bake", "samples/space3d/arena.space3d.json", "-o", out, "--tile-size", "32", "--threads", threads});
    };
    Run one = bake("1", stem + "_1.json");
    REQUIRE_MESSAGE(one.exit == 0, one.err);
    Run three = bake("3", stem + "_3.json");
    REQUIRE_MESSAGE(three.exit == 0, three.err);
    CHECK(one.out.find("62 polygons") != std::string::npos);
    CHECK(one.out.find("hash 4b64445aa1e4934a") != std::string::npos);
    CHECK(slurp(stem + "_1.json") == slurp(stem + "_3.json")); // any thread count, the same bytes
    const json doc = parsed(slurp(stem + "_1.json"));
    REQUIRE(doc.contains("tiles"));
    CHECK(doc["tiles"]["tile_size"] == 32);
    CHECK(doc["tiles"]["list"].size() == 16);
    Run imported = spark({"call", "nav.import", "{\"name\": \"t\", \"path\": \"" + stem + "_1.json\"}", "--json"});
    REQUIRE(imported.exit == 0);
    CHECK(parsed(imported.out)["result"]["hash"] == "4b64445aa1e4934a");
    // A tile table out of tile order is refused with the tile's path.
    json broken = doc;
    broken.erase("hash");
    broken["tiles"]["list"][1][0] = broken["tiles"]["list"][0][0];
    std::ofstream(stem + "_bad.json") << broken.dump();
    Run refused = spark({"call", "nav.import", "{\"name\": \"t\", \"path\": \"" + stem + "_bad.json\"}", "--json"});
    CHECK(refused.exit == 1);
    CHECK(parsed(refused.out)["error"]["code"] == "E_NAV_FORMAT");
    CHECK(parsed(refused.out)["error"]["data"]["field"] == "/tiles/list/1");
    // Bad settings: a usage error is exit 2, a refused bake exit 1.
    CHECK(spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_x.json", "--tile-size", "4"}).exit == 1);
    CHECK(spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_x.json", "--threads", "x"}).exit == 2);
    for (const char* suffix : {"_1.json", "_3.json", "_bad.json"})
        fs::remove(stem + suffix);
}

TEST_CASE("spark bake --tiles bakes subsets that spark bake merge joins into the whole bake bit for bit")
{
    fs::create_directories("build/test-output/e2e");
    const std::string stem = "build/test-output/e2e/arena_subset_" + std::to_string(::getpid());
    // The arena's 32-cell tiles run from -2 to 1 both ways; the two subsets share column 0.
    Run west = spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_w.json", "--tile-size", "32", "--tiles",
                      "-2:0,-2:1"});
    REQUIRE_MESSAGE(west.exit == 0, west.err);
    Run east = spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_e.json", "--tile-size", "32", "--tiles",
                      "0:1,-2:1", "--threads", "1"});
    REQUIRE_MESSAGE(east.exit == 0, east.err);
    CHECK(parsed(slurp(stem + "_w.json"))["tiles"]["list"].size() == 12);
    Run merged = spark({"bake", "merge", stem + "_e.json", stem + "_w.json", "-o", stem + "_m.json"});
    REQUIRE_MESSAGE(merged.exit == 0, merged.err);
    CHECK(merged.out.find("62 polygons, 155 vertices, hash 4b64445aa1e4934a") != std::string::npos);
    Run whole = spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_all.json", "--tile-size", "32"});
    REQUIRE(whole.exit == 0);
    CHECK(slurp(stem + "_m.json") == slurp(stem + "_all.json"));
    // Usage errors exit 2; a document that is not tiled, or a range without tiles, exit 1.
    CHECK(spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_x.json", "--tiles", "1:2"}).exit == 2);
    CHECK(spark({"bake", "merge", stem + "_w.json"}).exit == 2);
    CHECK(spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_x.json", "--tiles", "0:1,0:1"}).exit == 1);
    Run flat = spark({"bake", "samples/space3d/arena.space3d.json", "-o", stem + "_flat.json"});
    REQUIRE(flat.exit == 0);
    Run mixed = spark({"bake", "merge", stem + "_w.json", stem + "_flat.json", "-o", stem + "_x.json"});
    CHECK(mixed.exit == 1);
    CHECK(mixed.err.find("E_NAV_FORMAT") != std::string::npos);
    CHECK_FALSE(fs::exists(stem + "_x.json"));
    for (const char* suffix : {"_w.json", "_e.json", "_m.json", "_all.json", "_flat.json"})
        fs::remove(stem + suffix);
}

TEST_CASE("spark mcp serves the commands as tools over stdio")
{
    const std::string input = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": {}}\n"
                              "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n"
                              "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"}\n"
                              "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": {\"name\": \"system_version\"}}\n"
                              "garbage\n";
    Run r = spark({"mcp"}, input);
    CHECK(r.exit == 0);
    std::istringstream lines(r.out);
    std::vector<json> answers;
    for (std::string line; std::getline(lines, line);)
        answers.push_back(parsed(line));
    REQUIRE(answers.size() == 4);
    // Tool calls run on the worker, so the parse error may be answered before id 3.
    std::map<std::string, json> byId;
    for (const json& a : answers)
        byId[a["id"].dump()] = a;
    CHECK(byId["1"]["result"]["serverInfo"]["name"] == "spark");
    CHECK(byId["2"]["result"]["tools"].size() > 3);
    CHECK(byId["3"]["result"]["isError"] == false);
    CHECK(byId["null"]["error"]["code"] == -32700);
}

TEST_CASE("spark mcp refuses a project folder that does not exist and --tools that match nothing (exit 2)")
{
    Run missing = spark({"mcp", "--project", "no/such/folder"}, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}\n");
    CHECK(missing.exit == 2);
    CHECK(missing.out.empty());
    CHECK(missing.err.find("--project") != std::string::npos);
    Run tools = spark({"mcp", "--tools", "nav.,zzz."}, "");
    CHECK(tools.exit == 2);
    CHECK(tools.err.find("zzz.") != std::string::npos);
    Run narrowed = spark({"mcp", "--tools", "system."}, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}\n");
    CHECK(narrowed.exit == 0);
    const json listed = parsed(narrowed.out); // kept: a range-for over a temporary's member would dangle
    for (const json& t : listed["result"]["tools"])
        CHECK(t["name"].get<std::string>().rfind("system_", 0) == 0);
}

TEST_CASE("spark run: Ctrl-C stops the running command (E_CANCELLED, nothing changed) and the session goes on")
{
    // A bake of ~0.8 s CPU (Release, idle machine; more under the sanitizers),
    // interrupted by SIGINT once spark has used 0.15 s of CPU, so the signal
    // lands inside the bake whatever the machine's speed or load (a fixed delay
    // came after the bake on a fast machine, or before it in a slow start);
    // the next request still runs.
    const fs::path dir = fs::temp_directory_path() / ("spark_e2e_sigint_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string bake = R"({"command": "nav.bake", "params": {"name": "big", "source": "polygons", "agent_radius": 0.5,)"
                             R"( "cell_size": 0.25, "bounds": {"min": [0, 0], "max": [1000, 1000]}}})";
    std::ofstream(dir / "in") << bake << "\n" << R"({"command": "nav.list"})" << "\n";
    // utime + stime of /proc/PID/stat in clock ticks (100 a second); when the
    // process is gone the test of [ ends the wait and `wait` reports its exit.
    const std::string cmd = "cd " + quote(SPARK_SOURCE_DIR) + " && { " + quote(SPARK_BIN) + " run <" +
                            quote((dir / "in").string()) + " >" + quote((dir / "out").string()) +
                            " & pid=$!; while [ \"$(awk '{print $14 + $15}' /proc/$pid/stat 2>/dev/null)\" -lt 15 ]" +
                            " 2>/dev/null; do sleep 0.01; done; kill -INT $pid 2>/dev/null; wait $pid; }";
    const int status = std::system(cmd.c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1); // one answer failed
    std::istringstream lines(slurp(dir / "out"));
    std::vector<json> answers;
    for (std::string line; std::getline(lines, line);)
        answers.push_back(parsed(line));
    REQUIRE(answers.size() == 2);
    CHECK(answers[0]["error"]["code"] == "E_CANCELLED");
    CHECK(answers[0]["error"]["data"]["reason"] == "cancelled");
    CHECK(answers[1]["result"]["meshes"] == json::array());
    fs::remove_all(dir);
}
