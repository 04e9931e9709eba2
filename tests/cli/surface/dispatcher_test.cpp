#include "surface/dispatcher.h"

#include "spark/scene/scene2d.h"

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
    // Writes a 2D scene (part of the hashed state) and then fails when asked:
    // as a plain mutating command this breaks the rule the dispatcher checks in
    // tests; as a composite command the dispatcher rolls it back.
    auto writeThenFail = [](Context& ctx, const json& p) -> json {
        ctx.state.scene2d = spark::scene::makeScene2D(1.0f, 1 + p["n"].get<int>(), 1).value();
        if (p.value("fail", false))
            fail("E_TEST", "asked to fail after changing the state", {{"path", "/fail"}});
        return {{"total", p["n"]}};
    };
    json breaksRule = schema;
    breaksRule["id"] = "test.breaks_rule";
    r.add({"test.breaks_rule", writeThenFail, Mutates::Yes, breaksRule});
    json composite = schema;
    composite["id"] = "test.composite";
    r.add({"test.composite", writeThenFail, Mutates::Composite, composite});
    json validatesFirst = schema;
    validatesFirst["id"] = "test.validates_first";
    r.add({"test.validates_first",
           [](Context& ctx, const json& p) -> json {
               if (p.value("fail", false))
                   fail("E_TEST", "refused before writing", {{"path", "/fail"}});
               ctx.state.scene2d = spark::scene::makeScene2D(1.0f, 1 + p["n"].get<int>(), 1).value();
               return {{"total", p["n"]}};
           },
           Mutates::Yes, validatesFirst});
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

TEST_CASE("a mutating command that validates before it writes leaves the state unchanged when it fails")
{
    Registry registry = makeTestRegistry();
    DispatchOptions checking;
    checking.checkResults = true;
    Dispatcher d(checking, registry);
    spark::scene::SessionState state;
    REQUIRE(d.call(state, "test.validates_first", {{"n", 1}})["ok"] == true);
    const uint64_t before = state.hash();
    const uint64_t runs = state.commandsRun;
    json bad = d.call(state, "test.validates_first", {{"n", 2}, {"fail", true}});
    CHECK(bad["error"]["code"] == "E_TEST");
    CHECK(bad["error"]["data"]["path"] == "/fail");
    CHECK(state.hash() == before);
    CHECK(state.commandsRun == runs);
}

TEST_CASE("in tests, a failing mutating command that changed the state is reported as a bug")
{
    Registry registry = makeTestRegistry();
    DispatchOptions checking;
    checking.checkResults = true;
    Dispatcher d(checking, registry);
    spark::scene::SessionState state;
    json bad = d.call(state, "test.breaks_rule", {{"n", 2}, {"fail", true}});
    CHECK(bad["error"]["code"] == "E_INTERNAL");
    CHECK(bad["error"]["message"].get<std::string>().find("changed the session state") != std::string::npos);
}

TEST_CASE("a failed composite command is rolled back to its snapshot; a successful one keeps its changes")
{
    Registry registry = makeTestRegistry();
    Dispatcher d(DispatchOptions{}, registry);
    spark::scene::SessionState state;
    REQUIRE(d.call(state, "test.composite", {{"n", 1}})["ok"] == true);
    REQUIRE(state.scene2d);
    CHECK(state.scene2d->layers[0].width == 2);
    const uint64_t before = state.hash();
    json bad = d.call(state, "test.composite", {{"n", 5}, {"fail", true}});
    CHECK(bad["error"]["code"] == "E_TEST");
    CHECK(state.hash() == before);
    CHECK(state.scene2d->layers[0].width == 2);
}

TEST_CASE("the dispatcher does not copy the state: a plain mutating command's writes are the state")
{
    Registry registry = makeTestRegistry();
    Dispatcher d(DispatchOptions{}, registry);
    spark::scene::SessionState state;
    json ok = d.call(state, "test.add", {{"n", 1}});
    REQUIRE(ok["ok"] == true);
    CHECK(state.commandsRun == 1002); // the handler's 1001 plus the dispatcher's count of the success
    json bad = d.call(state, "test.add", {{"n", 2}, {"fail", true}});
    CHECK(bad["error"]["code"] == "E_TEST");
    CHECK(state.commandsRun == 2004); // written in place: commandsRun is diagnostics, outside the hashed state
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
