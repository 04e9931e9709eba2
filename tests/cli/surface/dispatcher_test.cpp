#include "surface/dispatcher.h"

#include <doctest/doctest.h>

#include <set>
#include <stdexcept>

using namespace spark::cli;

namespace
{
// A registry of test commands with inline schemas.
Registry makeTestRegistry()
{
    Registry r;
    const json schema = {
        {"id", "test.add"},
        {"summary", "adds n to the counter, then fails when fail is set"},
        {"params",
         {{"type", "object"},
          {"required", {"n"}},
          {"properties", {{"n", {{"type", "integer"}, {"minimum", 0}, {"maximum", 100}}}, {"fail", {{"type", "boolean"}}}, {"tag", {{"type", "string"}}}}},
          {"additionalProperties", false}}},
        {"result", {{"type", "object"}, {"required", {"total"}}, {"properties", {{"total", {{"type", "integer"}}}}}}},
        {"errors", {"E_TEST"}}};
    r.add({"test.add",
           [](Context& ctx, const json& p) -> json {
               ctx.state.commandsRun += 1000 + p["n"].get<uint64_t>();
               if (p.value("fail", false))
                   fail("E_TEST", "asked to fail after changing the state", {{"path", "/fail"}});
               return {{"total", ctx.state.commandsRun}};
           },
           Mutates::Yes, schema});
    json badResult = schema;
    badResult["id"] = "test.bad_result";
    r.add({"test.bad_result", [](Context&, const json&) -> json { return {{"total", "not a number"}}; }, Mutates::No,
           badResult});
    json throwing = schema;
    throwing["id"] = "test.throws";
    r.add({"test.throws", [](Context&, const json&) -> json { throw std::runtime_error("boom"); }, Mutates::No, throwing});
    return r;
}
} // namespace

TEST_CASE("a failed mutating command leaves the session state exactly as it was")
{
    Registry registry = makeTestRegistry();
    Dispatcher d(DispatchOptions{}, registry);
    spark::scene::SessionState state;
    json ok = d.call(state, "test.add", {{"n", 1}});
    REQUIRE(ok["ok"] == true);
    const uint64_t before = state.commandsRun;
    json bad = d.call(state, "test.add", {{"n", 2}, {"fail", true}});
    CHECK(bad["ok"] == false);
    CHECK(bad["error"]["code"] == "E_TEST");
    CHECK(bad["error"]["data"]["path"] == "/fail");
    CHECK(state.commandsRun == before);
}

TEST_CASE("invalid params are E_INVALID_PARAMS listing every problem with its JSON path")
{
    Registry registry = makeTestRegistry();
    Dispatcher d(DispatchOptions{}, registry);
    spark::scene::SessionState state;
    json answer = d.call(state, "test.add", {{"n", "x"}, {"fail", 3}, {"extra", 1}});
    REQUIRE(answer["ok"] == false);
    CHECK(answer["error"]["code"] == "E_INVALID_PARAMS");
    const auto& problems = answer["error"]["data"]["problems"];
    std::set<std::string> paths;
    for (const auto& p : problems)
        paths.insert(p["path"].get<std::string>());
    CHECK(paths.count("/n") == 1);
    CHECK(paths.count("/fail") == 1);
    CHECK(paths.size() >= 3); // the unknown property is reported too
    json missing = d.call(state, "test.add", json::object());
    CHECK(missing["error"]["code"] == "E_INVALID_PARAMS");
    json range = d.call(state, "test.add", {{"n", 1000}});
    CHECK(range["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(range["error"]["data"]["problems"][0]["path"] == "/n");
    CHECK(state.commandsRun == 0);
}

TEST_CASE("an unknown command is E_UNKNOWN_COMMAND with the nearest ids as a hint")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState state;
    json answer = d.call(state, "system.versoin", json::object());
    REQUIRE(answer["ok"] == false);
    CHECK(answer["error"]["code"] == "E_UNKNOWN_COMMAND");
    CHECK(answer["error"]["data"]["suggestions"][0] == "system.version");
    CHECK(answer["error"]["hint"].get<std::string>().find("system.version") != std::string::npos);
}

TEST_CASE("handler exceptions become E_INTERNAL and results are checked against their schema in test mode")
{
    Registry registry = makeTestRegistry();
    spark::scene::SessionState state;
    Dispatcher plain(DispatchOptions{}, registry);
    CHECK(plain.call(state, "test.throws", {{"n", 1}})["error"]["code"] == "E_INTERNAL");
    CHECK(plain.call(state, "test.bad_result", {{"n", 1}})["ok"] == true);
    DispatchOptions checking;
    checking.checkResults = true;
    Dispatcher strict(checking, registry);
    json answer = strict.call(state, "test.bad_result", {{"n", 1}});
    CHECK(answer["ok"] == false);
    CHECK(answer["error"]["code"] == "E_INTERNAL");
}

TEST_CASE("request lines: malformed JSON, non-objects, missing command, unknown fields and ids")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState state;
    CHECK(d.executeText(state, "{nope")["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(d.executeText(state, "[1, 2]")["error"]["code"] == "E_INVALID_PARAMS");
    CHECK(d.executeText(state, "{\"params\": {}}")["error"]["data"]["path"] == "/command");
    CHECK(d.executeText(state, "{\"command\": \"system.version\", \"params\": 3}")["error"]["data"]["path"] == "/params");
    CHECK(d.executeText(state, "{\"command\": \"system.version\", \"x\": 1}")["error"]["data"]["path"] == "/x");
    CHECK(d.executeText(state, "{\"command\": \"system.version\", \"params\": {\"a\": 1e400}}")["error"]["code"] ==
          "E_INVALID_PARAMS");
    json ok = d.executeText(state, "{\"command\": \"system.version\", \"id\": 42}");
    CHECK(ok["ok"] == true);
    CHECK(ok["id"] == 42);
}

TEST_CASE("parseJsonText refuses NaN, infinities and trailing garbage")
{
    json out;
    std::string why;
    CHECK_FALSE(parseJsonText("{\"a\": NaN}", out, why));
    CHECK_FALSE(parseJsonText("{\"a\": 1e999}", out, why));
    CHECK_FALSE(parseJsonText("{} x", out, why));
    CHECK(parseJsonText("{\"a\": [1, 2.5e10]}", out, why));
}
