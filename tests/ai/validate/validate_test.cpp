// Exhaustive validation: every mistake reported with code, pointer and hint;
// limits; cycles; a fuzz of random mutations that never crashes.
#include "../rig.h"
#include "spark/core/rng.h"

#include <fstream>
#include <set>

using namespace spark;
using namespace spark::ai;
using namespace spark::ai::test;

namespace
{
json loadJson(const char* path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    return json::parse(in);
}

const Problem* find(const std::vector<Problem>& ps, const std::string& code, const std::string& path)
{
    for (const Problem& p : ps)
        if (p.code == code && p.path == path)
            return &p;
    return nullptr;
}

const std::set<std::string> kCodes = {"E_AI_SCHEMA", "E_AI_UNKNOWN_NODE", "E_AI_UNKNOWN_SUBTREE", "E_AI_CYCLE",
                                      "E_AI_UNKNOWN_LEAF", "E_AI_PARAMS", "E_AI_BAD_CURVE", "E_AI_LIMIT",
                                      "E_AI_UNKNOWN"};

bool pathResolves(const json& doc, const std::string& path)
{
    if (path.empty())
        return true;
    try
    {
        return doc.contains(json::json_pointer(path));
    }
    catch (const std::exception&)
    {
        return false;
    }
}
} // namespace

TEST_CASE("the samples are valid")
{
    CHECK(validateTreeDoc(loadJson("samples/ai/guard.bt.json")).empty());
    CHECK(validateUtilityDoc(loadJson("samples/ai/rest-patrol-flee.utility.json")).empty());
}

TEST_CASE("a document with many different mistakes gets one entry per mistake with code, pointer and hint")
{
    const json doc = loadJson("samples/ai/many-mistakes.bt.json");
    const std::vector<Problem> ps = validateTreeDoc(doc);
    for (const Problem& p : ps)
        MESSAGE(p.code << " " << p.path << " | " << p.message << " | " << p.hint);
    CHECK(ps.size() == 13);
    struct Expect
    {
        const char* code;
        const char* path;
        const char* hintHas;
    };
    const Expect expected[] = {
        {"E_AI_SCHEMA", "/version", "1"},
        {"E_AI_SCHEMA", "/colour", "known"},
        {"E_AI_SCHEMA", "/root/reactive", "true or false"},
        {"E_AI_UNKNOWN_NODE", "/root/children/0/type", "'sequence'"},
        {"E_AI_UNKNOWN_LEAF", "/root/children/0/children/0/name", "'can_see'"},
        {"E_AI_PARAMS", "/root/children/0/children/1/params/stop_distanse", "'stop_distance'"},
        {"E_AI_PARAMS", "/root/children/1/params", "target"},
        {"E_AI_PARAMS", "/root/children/2/params/speed", "number"},
        {"E_AI_UNKNOWN_SUBTREE", "/root/children/3/subtree", "'patrol'"},
        {"E_AI_SCHEMA", "/root/children/4/count", "integer"},
        {"E_AI_UNKNOWN_LEAF", "/root/children/5/name", "action"},
        {"E_AI_PARAMS", "/subtrees/patrol/params/points", "points"},
        {"E_AI_CYCLE", "/subtrees/b/subtree", "cycle"},
    };
    std::set<std::string> codes;
    for (const Expect& e : expected)
    {
        CAPTURE(e.path);
        const Problem* p = find(ps, e.code, e.path);
        REQUIRE(p != nullptr);
        CHECK(p->hint.find(e.hintHas) != std::string::npos);
        CHECK_FALSE(p->message.empty());
        codes.insert(e.code);
    }
    CHECK(codes.size() == 6);
    auto compiled = compileTree(doc);
    REQUIRE_FALSE(compiled.ok());
    CHECK(compiled.error().code == ps.front().code);
}

TEST_CASE("problems below a broken node are still found")
{
    const json doc = json::parse(R"({"version": 1, "name": "t", "root": {"type": "sequencer", "children": [
        {"type": "action", "name": "move_to", "params": {"target": 5}}]}})");
    const auto ps = validateTreeDoc(doc);
    REQUIRE(ps.size() == 2);
    CHECK(ps[0].code == "E_AI_UNKNOWN_NODE");
    CHECK(ps[1].code == "E_AI_PARAMS");
    CHECK(ps[1].path == "/root/children/0/params/target");
}

TEST_CASE("a tree over 2048 nodes or 48 levels after inlining is refused with E_AI_LIMIT")
{
    auto wide = [](int leaves) {
        json doc = {{"version", 1}, {"name", "w"}, {"root", {{"type", "sequence"}, {"children", json::array()}}}};
        for (int i = 0; i < leaves; ++i)
            doc["root"]["children"].push_back({{"type", "action"}, {"name", "stop"}});
        return doc;
    };
    CHECK(validateTreeDoc(wide(2047)).empty());
    const auto over = validateTreeDoc(wide(2048));
    REQUIRE(over.size() == 1);
    CHECK(over[0].code == "E_AI_LIMIT");

    auto deep = [](int levels) {
        json node = {{"type", "action"}, {"name", "stop"}};
        for (int i = 1; i < levels; ++i)
            node = {{"type", "inverter"}, {"child", node}};
        return json{{"version", 1}, {"name", "d"}, {"root", node}};
    };
    CHECK(validateTreeDoc(deep(48)).empty());
    const auto tooDeep = validateTreeDoc(deep(49));
    REQUIRE(tooDeep.size() == 1);
    CHECK(tooDeep[0].code == "E_AI_LIMIT");
    const auto absurd = validateTreeDoc(deep(5000)); // the validator's own walk is bounded
    REQUIRE_FALSE(absurd.empty());
    CHECK(absurd[0].code == "E_AI_LIMIT");
}

TEST_CASE("subtrees that double at every level hit the node limit without being expanded")
{
    json doc = {{"version", 1}, {"name", "x"}, {"root", {{"type", "subtree"}, {"subtree", "s0"}}}, {"subtrees", json::object()}};
    for (int i = 0; i < 40; ++i)
        doc["subtrees"]["s" + std::to_string(i)] = {
            {"type", "sequence"},
            {"children", {{{"type", "subtree"}, {"subtree", "s" + std::to_string(i + 1)}},
                          {{"type", "subtree"}, {"subtree", "s" + std::to_string(i + 1)}}}}};
    doc["subtrees"]["s40"] = {{"type", "action"}, {"name", "stop"}};
    const auto ps = validateTreeDoc(doc);
    REQUIRE_FALSE(ps.empty());
    CHECK(ps[0].code == "E_AI_LIMIT");
}

TEST_CASE("subtrees containing each other are a cycle, reported once per cycle")
{
    const json doc = json::parse(R"({"version": 1, "name": "c", "root": {"type": "subtree", "subtree": "a"},
        "subtrees": {"a": {"type": "sequence", "children": [{"type": "subtree", "subtree": "b"}]},
                     "b": {"type": "inverter", "child": {"type": "subtree", "subtree": "a"}},
                     "self": {"type": "subtree", "subtree": "self"}}})");
    const auto ps = validateTreeDoc(doc);
    REQUIRE(ps.size() == 2);
    CHECK(find(ps, "E_AI_CYCLE", "/subtrees/b/child/subtree") != nullptr);
    CHECK(find(ps, "E_AI_CYCLE", "/subtrees/self/subtree") != nullptr);
}

TEST_CASE("utility documents report bad curves, inputs and leaves")
{
    const json doc = json::parse(R"({"version": 1, "name": "u", "selection": "bestest", "actions": [
        {"name": "a", "run": {"name": "stopp"}, "considerations": [
           {"input": {"sensor": "sped"}, "range": [1, 1], "curve": {"type": "logistc"}},
           {"input": {"bb": "x"}, "curve": {"type": "power", "exponent": -1}},
           {"input": {"bb": "x"}, "curve": {"type": "smoothstep", "edge0": 0.8, "edge1": 0.2}},
           {"input": {"bb": "x"}, "curve": {"type": "linear", "slpe": 1}}]},
        {"name": "a", "weight": -1, "run": {"name": "move_to"}}]})");
    const auto ps = validateUtilityDoc(doc);
    for (const Problem& p : ps)
        MESSAGE(p.code << " " << p.path << " | " << p.message << " | " << p.hint);
    CHECK(find(ps, "E_AI_SCHEMA", "/selection") != nullptr);
    CHECK(find(ps, "E_AI_UNKNOWN_LEAF", "/actions/0/run/name")->hint.find("'stop'") != std::string::npos);
    CHECK(find(ps, "E_AI_SCHEMA", "/actions/0/considerations/0/input/sensor")->hint.find("'speed'") != std::string::npos);
    CHECK(find(ps, "E_AI_SCHEMA", "/actions/0/considerations/0/range") != nullptr);
    CHECK(find(ps, "E_AI_BAD_CURVE", "/actions/0/considerations/0/curve/type")->hint.find("'logistic'") != std::string::npos);
    CHECK(find(ps, "E_AI_BAD_CURVE", "/actions/0/considerations/1/curve/exponent") != nullptr);
    CHECK(find(ps, "E_AI_BAD_CURVE", "/actions/0/considerations/2/curve/edge1") != nullptr);
    CHECK(find(ps, "E_AI_BAD_CURVE", "/actions/0/considerations/3/curve/slpe")->hint.find("'slope'") != std::string::npos);
    CHECK(find(ps, "E_AI_SCHEMA", "/actions/1/name") != nullptr);
    CHECK(find(ps, "E_AI_SCHEMA", "/actions/1/weight") != nullptr);
    CHECK(find(ps, "E_AI_PARAMS", "/actions/1/run") != nullptr);
    CHECK(ps.size() == 11);
}

TEST_CASE("edit distance and nearest names")
{
    CHECK(editDistance("kitten", "sitting") == 3);
    CHECK(editDistance("", "abc") == 3);
    CHECK(nearestName("sequense", nodeTypeNames()) == "sequence");
    CHECK(nearestName("zzzzzzzzzz", nodeTypeNames()).empty());
    CHECK(pointerJoin("/a", "b/c~d") == "/a/b~1c~0d");
}

TEST_CASE("the leaf manifest declares every parameter with a schema")
{
    const json m = leafManifestJson();
    CHECK(m.size() == 12);
    for (const json& leaf : m)
    {
        CAPTURE(leaf["name"].get<std::string>());
        CHECK((leaf["kind"] == "action" || leaf["kind"] == "condition"));
        for (auto it = leaf["params"].begin(); it != leaf["params"].end(); ++it)
            CHECK(it.value().contains("schema"));
    }
    CHECK(findLeaf("can_see")->kind == LeafKind::Condition);
    CHECK(findLeaf("nope") == nullptr);
}

TEST_CASE("thousands of random mutations of valid documents never crash and always give success or coded problems")
{
    const json guard = loadJson("samples/ai/guard.bt.json");
    const json utility = loadJson("samples/ai/rest-patrol-flee.utility.json");
    const json pool = json::parse(R"([0, -1, 1e9, 0.5, "x", "sequense", "subtree", "patrol", "move_to", "can_see",
        true, null, [], {}, [[0, 0, 0]], [1, 2], {"bb": "target"}, {"bb": 3}, {"type": "wait", "seconds": 1},
        {"type": "subtree", "subtree": "patrol"}, {"type": "check", "key": "k", "op": "<", "value": {"bb": "k"}},
        {"type": "utility", "utility": "rest-patrol-flee"}, {"type": "repeat", "count": -1, "child": {"type": "action", "name": "stop"}},
        {"type": "logistic", "steepness": 0}, {"sensor": "time"}, "all", "one", "weighted_random"])");
    Rng rng = rngFromSeed(2024);
    int valid = 0, invalid = 0;
    for (int iteration = 0; iteration < 4000; ++iteration)
    {
        const bool isTree = iteration % 4 != 3;
        json doc = isTree ? guard : utility;
        const int mutations = 1 + static_cast<int>(rngNextBelow(rng, 4));
        for (int m = 0; m < mutations; ++m)
        {
            const json flat = doc.flatten();
            std::vector<std::string> paths;
            for (auto it = flat.begin(); it != flat.end(); ++it)
                paths.push_back(it.key());
            if (paths.empty())
                break;
            std::string path = paths[rngNextBelow(rng, static_cast<uint32_t>(paths.size()))];
            // Sometimes mutate a container instead of a scalar.
            const uint32_t up = rngNextBelow(rng, 3);
            for (uint32_t u = 0; u < up && path.rfind('/') != 0 && path.rfind('/') != std::string::npos; ++u)
                path = path.substr(0, path.rfind('/'));
            const json::json_pointer ptr(path);
            const uint32_t op = rngNextBelow(rng, 4);
            if (!doc.contains(ptr))
                continue;
            if (op == 0 || op == 1)
                doc[ptr] = pool[rngNextBelow(rng, static_cast<uint32_t>(pool.size()))];
            else if (op == 2)
            {
                json& parent = doc[ptr.parent_pointer()];
                if (parent.is_object())
                    parent.erase(ptr.back());
                else if (parent.is_array() && !parent.empty())
                    parent.erase(parent.begin() + static_cast<std::ptrdiff_t>(rngNextBelow(rng, static_cast<uint32_t>(parent.size()))));
            }
            else
            {
                json& parent = doc[ptr.parent_pointer()];
                if (parent.is_object())
                    parent["k" + std::to_string(rngNextBelow(rng, 3))] = pool[rngNextBelow(rng, static_cast<uint32_t>(pool.size()))];
                else if (parent.is_array())
                    parent.push_back(pool[rngNextBelow(rng, static_cast<uint32_t>(pool.size()))]);
            }
        }
        std::vector<Problem> problems;
        bool ok = false;
        if (isTree)
        {
            auto tree = compileTree(doc, &problems);
            ok = tree.ok();
            if (ok)
            {
                // A valid mutant must also tick without crashing: success or a coded error.
                AiState state;
                auto u = compileUtility(utility);
                REQUIRE(u.ok());
                putUtility(state, u.value());
                const std::string name = tree->name;
                putTree(state, std::move(tree.value()));
                FakeWorld world;
                world.agents["A"] = FakeAgent{};
                world.objects["Player"] = Vec3(3, 0, 3);
                BrainDef def = defaultBrainDef();
                def.agent = "A";
                def.agentKey = world.keyOf("A");
                def.tree = name;
                def.blackboard = {{"target", "Player"}, {"fatigue", 50}, {"health", 50}, {"safe_spot", Value::list({0, 0, 0})}};
                REQUIRE(attachBrain(state, def, 0).ok());
                for (uint64_t f = 0; f < 12; ++f)
                {
                    stepBrains(state, world, TickClock{f, 0.1});
                    world.step(0.1);
                }
                const Brain& b = *state.brains.findBrain("A");
                if (!b.enabled)
                    CHECK(kCodes.count(b.error.code) == 1);
            }
        }
        else
        {
            auto u = compileUtility(doc, &problems);
            ok = u.ok();
        }
        if (ok)
        {
            ++valid;
            CHECK(problems.empty());
        }
        else
        {
            ++invalid;
            REQUIRE_FALSE(problems.empty());
            for (const Problem& p : problems)
            {
                CAPTURE(doc.dump());
                CAPTURE(p.path);
                CHECK(kCodes.count(p.code) == 1);
                CHECK_FALSE(p.message.empty());
                CHECK(pathResolves(doc, p.path));
            }
        }
    }
    CHECK(valid > 100);
    CHECK(invalid > 1000);
}
