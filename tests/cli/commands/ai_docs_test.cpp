// AI documents: inline ones obey the 16 MiB limit of files, and the problem
// list of an answer is capped (issue 42, "inline AI documents": a 60 MB
// ai.validate request took 25 s and 2.4 GB for a 124 MiB answer listing
// 1,000,001 problems). Scaled down: 5,000 problems, a 17 MiB document.

#include "surface/dispatcher.h"
#include "surface/schemas.h"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <memory>

using namespace spark::cli;

namespace
{

/// A tree whose root sequence has `count` children of an unknown node type: one problem each.
json treeWithBadChildren(size_t count)
{
    json children = json::array();
    for (size_t i = 0; i < count; ++i)
        children.push_back({{"type", "no_such_node"}});
    return {{"version", 1}, {"name", "bad"}, {"root", {{"type", "sequence"}, {"children", children}}}};
}

/// A dispatcher that checks every result against its command's result schema, and an empty session.
struct CheckedSession
{
    static DispatchOptions checking()
    {
        DispatchOptions options;
        options.checkResults = true;
        return options;
    }
    Dispatcher d{checking()};
    spark::scene::SessionState state;
};

} // namespace

TEST_CASE_FIXTURE(CheckedSession, "ai.validate lists the first 1,000 problems and counts the rest")
{
    json r = d.call(state, "ai.validate", {{"doc", treeWithBadChildren(5000)}});
    REQUIRE(r["ok"] == true);
    const json& result = r["result"];
    CHECK(result["valid"] == false);
    CHECK(result["count"].get<size_t>() >= 5000);
    CHECK(result["problems"].size() == 1000);
    CHECK(result["omitted"].get<size_t>() == result["count"].get<size_t>() - 1000);
    CHECK(result["problems"][0]["path"].get<std::string>().rfind("/root/children/0", 0) == 0);
    // The error of a load lists as many, with the same count of the rest.
    json load = d.call(state, "ai.tree.load", {{"doc", treeWithBadChildren(5000)}});
    REQUIRE(load["ok"] == false);
    CHECK(load["error"]["data"]["problems"].size() == 1000);
    CHECK(load["error"]["data"]["omitted"].get<size_t>() + 1000 == result["count"].get<size_t>());
    // A valid document: nothing omitted.
    json fine = d.call(state, "ai.validate", {{"path", "samples/ai/guard.bt.json"}});
    CHECK(fine["result"]["omitted"] == 0);
}

TEST_CASE("an inline AI document past 16 MiB is E_AI_LIMIT at /doc, as a file is")
{
    Dispatcher d(DispatchOptions{});
    spark::scene::SessionState state;
    json big = treeWithBadChildren(1);
    big["description"] = std::string(16u * 1024u * 1024u, 'x');
    for (const char* command : {"ai.validate", "ai.tree.load"})
    {
        json r = d.call(state, command, {{"doc", big}});
        REQUIRE(r["ok"] == false);
        CHECK(r["error"]["code"] == "E_AI_LIMIT");
        CHECK(r["error"]["data"]["path"] == "/doc");
        CHECK_FALSE(r["error"]["hint"].get<std::string>().empty());
    }
    // Just under the limit is read (and found wanting for what it is, not for its size).
    big["description"] = std::string(16u * 1024u * 1024u - 200, 'x');
    CHECK(d.call(state, "ai.validate", {{"doc", big}})["result"]["valid"] == false);
}

TEST_CASE("compactJsonBytes counts a value as its compact text, and stops past the limit")
{
    const json samples[] = {json::parse(R"({"a": [1, -2, 3.5, true, null, "x\"y\n"], "b": {}, "c": [], "d": 1e300})"),
                            json(0.1), json(-0.0), json("\u00e9\u0001"), json::parse("[18446744073709551615, -9223372036854775808]")};
    for (const json& j : samples)
        CHECK(compactJsonBytes(j) == j.dump().size());
    // Stopped past the limit: the nested arrays are not all counted.
    const json many(std::vector<std::vector<int>>(1000, std::vector<int>(1000, 7)));
    CHECK(compactJsonBytes(many, 100) > 100);
    CHECK(compactJsonBytes(many, 100) < 10000);
    CHECK(compactJsonBytes(many) == many.dump().size());
}

namespace
{

json readJsonFile(const std::string& path)
{
    std::ifstream in(path);
    REQUIRE_MESSAGE(in, path);
    return json::parse(in);
}

/// Calls `visit(leafNode)` for every leaf a tree or utility document names: nodes of
/// type action or condition, and a utility action's `run`.
template <class F> void forEachLeafNode(const json& node, F&& visit, bool isRun = false)
{
    if (node.is_object())
    {
        const std::string type = node.value("type", std::string());
        if (node.contains("name") && (type == "action" || type == "condition" || isRun))
            visit(node);
        for (const auto& [key, child] : node.items())
            forEachLeafNode(child, visit, key == "run");
    }
    else if (node.is_array())
        for (const json& child : node)
            forEachLeafNode(child, visit);
}

} // namespace

TEST_CASE_FIXTURE(CheckedSession, "ai.leaves gives each leaf a JSON Schema of its params that real leaves meet and mistakes fail")
{
    const json r = d.call(state, "ai.leaves", json::object());
    REQUIRE(r["ok"] == true);
    std::map<std::string, std::unique_ptr<CompiledSchema>> schemas;
    for (const json& leaf : r["result"]["leaves"])
    {
        const json& schema = leaf["params_schema"];
        CHECK(schema["type"] == "object");
        CHECK(schema["additionalProperties"] == false);
        CHECK(schema["required"] == leaf["required"]);
        CHECK(schema["properties"].size() == leaf["params"].size());
        std::string error;
        auto compiled = CompiledSchema::compile(schema, error);
        const std::string why = leaf["name"].get<std::string>() + ": " + error;
        REQUIRE_MESSAGE(compiled, why);
        schemas[leaf["name"].get<std::string>()] = std::move(compiled);
    }
    REQUIRE(schemas.size() == 12);

    // Every leaf of the valid samples meets its schema.
    int checked = 0;
    for (const char* path : {"samples/ai/guard.bt.json", "samples/ai/rest-patrol-flee.utility.json"})
    {
        CAPTURE(path);
        forEachLeafNode(readJsonFile(path), [&](const json& node) {
            const std::string name = node["name"].get<std::string>();
            REQUIRE(schemas.count(name) == 1);
            const auto problems = schemas[name]->validate(node.value("params", json::object()));
            const std::string leafText = name + " " + node.dump();
            CHECK_MESSAGE(problems.empty(), leafText);
            ++checked;
        });
    }
    CHECK(checked >= 6);

    // The leaves ai.validate finds bad params in (E_AI_PARAMS) fail their schema too.
    const json mistakes = readJsonFile("samples/ai/many-mistakes.bt.json");
    const json v = d.call(state, "ai.validate", {{"path", "samples/ai/many-mistakes.bt.json"}});
    REQUIRE(v["ok"] == true);
    int failed = 0;
    for (const json& problem : v["result"]["problems"])
    {
        if (problem["code"] != "E_AI_PARAMS")
            continue;
        const std::string path = problem["path"].get<std::string>();
        const std::string nodePath = path.substr(0, path.find("/params"));
        const json& node = mistakes.at(json::json_pointer(nodePath));
        CAPTURE(path);
        REQUIRE(schemas.count(node["name"].get<std::string>()) == 1);
        CHECK_FALSE(schemas[node["name"].get<std::string>()]->validate(node.value("params", json::object())).empty());
        ++failed;
    }
    CHECK(failed == 4);
}
