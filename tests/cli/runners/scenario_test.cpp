#include "runners/scenario.h"

#include "runners/mcp.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace spark::cli;

TEST_CASE("containsSubset matches objects by subset, arrays by length and numbers within the tolerance")
{
    std::string why;
    const json actual = {{"a", 1.0}, {"b", {{"c", "x"}, {"d", true}}}, {"p", {1.0, 2.0}}};
    CHECK(containsSubset(actual, {{"a", 1.0000000001}}, 1e-9, why));
    CHECK_FALSE(containsSubset(actual, {{"a", 1.1}}, 1e-9, why));
    CHECK(why.find("/a") == 0);
    CHECK(containsSubset(actual, {{"a", 1.1}}, 0.2, why));
    CHECK(containsSubset(actual, {{"b", {{"c", "x"}}}}, 0, why));
    CHECK_FALSE(containsSubset(actual, {{"b", {{"e", 1}}}}, 0, why));
    CHECK(why == "/b/e: missing in the result");
    CHECK_FALSE(containsSubset(actual, {{"p", {1.0}}}, 0, why));
    CHECK_FALSE(containsSubset(actual, {{"b", {{"d", false}}}}, 0, why));
    CHECK(containsSubset(actual, json::object(), 0, why));
}

TEST_CASE("runScenario stops at the first failing step and names it")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState state;
    json doc = {{"version", 1},
                {"name", "s"},
                {"steps",
                 {{{"do", "system.version"}},
                  {{"do", "system.schema"}, {"command", "system.version"}, {"expect", {{"id", "wrong"}}}},
                  {{"do", "system.version"}}}}};
    json r = runScenario(d, state, doc, false);
    CHECK(r["passed"] == false);
    CHECK(r["failed"]["index"] == 1);
    CHECK(r["failed"]["do"] == "system.schema");
    CHECK(r["steps"].size() == 2);
}

TEST_CASE("runScenario checks expected errors both ways")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState state;
    json expected = {{"steps", {{{"do", "system.schema"}, {"command", "x.y"}, {"expect_error", "E_UNKNOWN_COMMAND"}}}}};
    CHECK(runScenario(d, state, expected, false)["passed"] == true);
    json wrongCode = {{"steps", {{{"do", "system.schema"}, {"command", "x.y"}, {"expect_error", "E_IO"}}}}};
    json r = runScenario(d, state, wrongCode, false);
    CHECK(r["passed"] == false);
    CHECK(r["failed"]["why"].get<std::string>().find("expected the error E_IO, got E_UNKNOWN_COMMAND") == 0);
    json noError = {{"steps", {{{"do", "system.version"}, {"expect_error", "E_IO"}}}}};
    CHECK(runScenario(d, state, noError, false)["passed"] == false);
}

TEST_CASE("a nested scenario that does not pass is E_SCENARIO_FAILED with its report, rolled back")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState state;
    json inner = {{"version", 1},
                  {"steps", {{{"do", "scene2d.new"}, {"width", 4}, {"height", 4}}, {{"do", "nope.nope"}}}}};
    json outer = {{"steps", {{{"do", "ai.scenario.run"}, {"doc", inner}}}}};
    json r = runScenario(d, state, outer, false);
    CHECK(r["passed"] == false);
    CHECK(r["steps"][0]["error"]["code"] == "E_SCENARIO_FAILED");
    CHECK(r["steps"][0]["error"]["data"]["failed"]["index"] == 1);
    CHECK_FALSE(state.scene2d); // the inner scene2d.new was rolled back with the failed run
    json expectingIt = {{"steps",
                         {{{"do", "ai.scenario.run"},
                           {"doc", inner},
                           {"expect_error", "E_SCENARIO_FAILED"},
                           {"expect", {{"passed", false}, {"failed", {{"do", "nope.nope"}}}}}}}}};
    CHECK(runScenario(d, state, expectingIt, false)["passed"] == true);
    json wrongData = {{"steps",
                       {{{"do", "ai.scenario.run"},
                         {"doc", inner},
                         {"expect_error", "E_SCENARIO_FAILED"},
                         {"expect", {{"failed", {{"index", 0}}}}}}}}};
    CHECK(runScenario(d, state, wrongData, false)["passed"] == false);
}

TEST_CASE("a scenario that runs itself is E_SCENARIO_CYCLE with the chain; nesting is bounded")
{
    DispatchOptions options;
    options.projectRoot = SPARK_SOURCE_DIR;
    Dispatcher d(options);
    spark::scene::SessionState state;
    json self = d.call(state, "ai.scenario.run", {{"path", "tests/cli/data/cycle/self.scenario.json"}});
    REQUIRE(self["ok"] == false);
    CHECK(self["error"]["code"] == "E_SCENARIO_FAILED");
    const json& inner = self["error"]["data"]["steps"][0]["error"];
    CHECK(inner["code"] == "E_SCENARIO_CYCLE");
    CHECK(inner["data"]["chain"] == json::array({"self.scenario.json", "self.scenario.json"}));
    json pair = d.call(state, "ai.scenario.run", {{"path", "tests/cli/data/cycle/a.scenario.json"}});
    REQUIRE(pair["ok"] == false);
    const json& deepest = pair["error"]["data"]["steps"][0]["error"]["data"]["steps"][0]["error"];
    CHECK(deepest["code"] == "E_SCENARIO_CYCLE");
    CHECK(deepest["data"]["chain"] == json::array({"a.scenario.json", "b.scenario.json", "a.scenario.json"}));
    // Inline documents nested past the limit.
    json doc = {{"version", 1}, {"steps", {{{"do", "system.version"}}}}};
    for (size_t i = 0; i < kMaxScenarioDepth + 1; ++i)
        doc = {{"version", 1}, {"steps", {{{"do", "ai.scenario.run"}, {"doc", doc}}}}};
    json deep = d.call(state, "ai.scenario.run", {{"doc", doc}});
    CHECK(deep["ok"] == false);
    CHECK(deep.dump().find("E_SCENARIO_LIMIT") != std::string::npos);
    CHECK(d.call(state, "system.version", json::object())["ok"] == true);
}

TEST_CASE("checkScenarioDocument refuses malformed scenarios with the path")
{
    auto codeAndPath = [](const json& doc) {
        try
        {
            checkScenarioDocument(doc, "/doc");
        }
        catch (const CommandError& e)
        {
            return e.code + " " + e.data.value("path", std::string());
        }
        return std::string("ok");
    };
    CHECK(codeAndPath(json::array()) == "E_FORMAT /doc");
    CHECK(codeAndPath({{"name", "x"}}) == "E_FORMAT /doc/steps");
    CHECK(codeAndPath({{"steps", {1}}}) == "E_FORMAT /doc/steps/0");
    CHECK(codeAndPath({{"steps", {{{"x", 1}}}}}) == "E_FORMAT /doc/steps/0/do");
    CHECK(codeAndPath({{"steps", json::array()}, {"bogus", 1}}) == "E_FORMAT /doc/bogus");
    CHECK(codeAndPath({{"version", 2}, {"steps", json::array()}}) == "E_FORMAT /doc/version");
    CHECK(codeAndPath({{"steps", {{{"do", "a"}, {"tolerance", -1}}}}}) == "E_FORMAT /doc/steps/0/tolerance");
    CHECK(codeAndPath({{"steps", json::array()}}) == "ok");
}

namespace
{

/// The fan-out reproducer of issue 42, in `dir`: `levels` scenario files
/// fan0..fanN, each with `width` steps running the next (no cycle), the last
/// with `width` system.version steps. fan0 would run width^levels steps.
void writeFanOut(const std::filesystem::path& dir, int levels, int width)
{
    std::filesystem::create_directories(dir);
    for (int level = 0; level < levels; ++level)
    {
        json steps = json::array();
        for (int i = 0; i < width; ++i)
            steps.push_back(level + 1 < levels
                                ? json{{"do", "ai.scenario.run"}, {"path", "fan" + std::to_string(level + 1) + ".scenario.json"}}
                                : json{{"do", "system.version"}});
        std::ofstream(dir / ("fan" + std::to_string(level) + ".scenario.json"))
            << json{{"version", 1}, {"name", "fan " + std::to_string(level)}, {"steps", steps}}.dump();
    }
}

} // namespace

TEST_CASE("scenarios fanning out through each other stop at the budget of nested steps with E_SCENARIO_LIMIT")
{
    const auto dir = std::filesystem::temp_directory_path() / ("spark_fanout_" + std::to_string(::getpid()));
    writeFanOut(dir, 16, 8); // 8^16 steps unbounded
    DispatchOptions options;
    options.projectRoot = dir;
    options.scenarioStepBudget = 1000;
    Dispatcher d(options);
    spark::scene::SessionState state;
    const uint64_t before = state.hash();

    json r = d.call(state, "ai.scenario.run", {{"path", "fan0.scenario.json"}});
    REQUIRE(r["ok"] == false);
    const json& e = r["error"];
    CHECK(e["code"] == "E_SCENARIO_LIMIT"); // the outermost answer, not a nest of E_SCENARIO_FAILED
    CHECK(e["data"]["path"] == "/path");
    CHECK(e["data"]["limit"] == 1000);
    // Depth first, fan0's own steps not counted: the 1001st nested step is
    // the first of fan15 after 1000 (a simulation of the walk says so).
    CHECK(e["data"]["chain"].size() == 16);
    CHECK(e["data"]["chain"][0] == "fan0.scenario.json");
    CHECK(e["data"]["step"]["file"] == "fan15.scenario.json");
    CHECK(e["data"]["step"]["index"] == 0);
    CHECK(e["message"].get<std::string>().find("more than 1000 steps") != std::string::npos);
    CHECK_FALSE(e["hint"].get<std::string>().empty());
    CHECK(d.scenarioBudget().used == 1000);
    CHECK(state.hash() == before);
    CHECK(d.scenarioChain().empty());

    // Expecting the error does not let an enclosing scenario go on spending
    // (fan1: the inline document is one level of the 16).
    json expecting = {{"steps",
                       {{{"do", "ai.scenario.run"}, {"path", "fan1.scenario.json"}, {"expect_error", "E_SCENARIO_LIMIT"}},
                        {{"do", "ai.scenario.run"}, {"path", "fan1.scenario.json"}}}}};
    json again = d.call(state, "ai.scenario.run", {{"doc", expecting}});
    CHECK(again["error"]["code"] == "E_SCENARIO_LIMIT");
    CHECK(again["error"]["data"]["path"] == "/doc");
    CHECK(d.scenarioBudget().used == 1000);

    // A run within the budget passes, and each outermost run starts a new budget.
    json fits = d.call(state, "ai.scenario.run", {{"path", "fan13.scenario.json"}}); // 64 + 512 nested steps
    CHECK(fits["ok"] == true);
    CHECK(d.scenarioBudget().used == 576);
    CHECK(d.call(state, "ai.scenario.run", {{"path", "fan13.scenario.json"}})["ok"] == true);

    // Through MCP: the same coded error, as a tool error.
    McpSession mcp;
    json call = json::parse(handleMcpMessage(
        d, mcp,
        json{{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"},
             {"params", {{"name", "ai_scenario_run"}, {"arguments", {{"path", "fan0.scenario.json"}}}}}}
            .dump()));
    CHECK(call["result"]["isError"] == true);
    CHECK(json::parse(call["result"]["content"][0]["text"].get<std::string>())["error"]["code"] == "E_SCENARIO_LIMIT");
    std::filesystem::remove_all(dir);
}
