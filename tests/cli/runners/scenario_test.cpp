#include "runners/scenario.h"

#include <doctest/doctest.h>

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
