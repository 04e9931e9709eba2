// Exhaustive validation of behaviour-tree documents, written by hand (libai
// does not depend on a JSON Schema engine; schemas/ai/behavior-tree.schema.json
// documents the same format). The walk never stops at the first problem: every
// node, every field and every leaf parameter is checked, then subtree
// references, cycles (depth-first search with three colours) and the size and
// depth limits after inlining (memoised per subtree, saturating counts).
#include "checks.h"
#include "spark/ai/leaf_registry.h"

#include <algorithm>
#include <map>
#include <set>

namespace spark::ai
{
namespace
{
using namespace detail;

/// Bound of the validator's own recursion (far above kMaxTreeDepth).
constexpr size_t kWalkDepth = 256;

const std::vector<std::string> kCheckOps = {"==", "!=", "<", "<=", ">", ">=", "exists", "missing"};

std::vector<std::string> keysFor(const std::string& type)
{
    std::vector<std::string> k = {"type", "label"};
    auto add = [&](std::initializer_list<const char*> more) {
        for (const char* m : more)
            k.push_back(m);
    };
    if (type == "sequence" || type == "selector")
        add({"children", "reactive"});
    else if (type == "parallel")
        add({"children", "success", "failure"});
    else if (type == "inverter" || type == "succeeder" || type == "failer")
        add({"child"});
    else if (type == "repeat" || type == "retry")
        add({"child", "count"});
    else if (type == "timeout" || type == "cooldown")
        add({"child", "seconds"});
    else if (type == "wait")
        add({"seconds"});
    else if (type == "check")
        add({"key", "op", "value"});
    else if (type == "set")
        add({"key", "value"});
    else if (type == "condition" || type == "action")
        add({"name", "params"});
    else if (type == "subtree")
        add({"subtree"});
    else if (type == "utility")
        add({"utility"});
    return k;
}

struct SubtreeRef
{
    std::string name;
    std::string path;
};

struct Walker
{
    const LeafRegistry& leaves;
    std::vector<Problem>& problems;
    std::set<std::string> subtreeNames;
    /// References found while walking: owner ("" for the root) → refs.
    std::map<std::string, std::vector<SubtreeRef>> refs;
    bool tooDeepReported = false;

    void node(const json& n, const std::string& path, const std::string& owner, size_t level)
    {
        if (level > kWalkDepth)
        {
            if (!tooDeepReported)
                addProblem(problems, kCodeLimit, "the tree nests deeper than " + std::to_string(kMaxTreeDepth) + " levels",
                           path, "flatten the tree or move branches into subtrees");
            tooDeepReported = true;
            return;
        }
        if (!n.is_object())
        {
            addProblem(problems, kCodeSchema, std::string("a node must be an object, not ") + jsonTypeName(n), path,
                       "expected an object like {\"type\": \"sequence\", \"children\": [...]}");
            return;
        }
        if (!n.contains("type"))
        {
            addProblem(problems, kCodeSchema, "the node has no 'type'", path,
                       "add \"type\": one of " + suggestName("", nodeTypeNames()).substr(7));
            checkChildren(n, path, owner, level);
            return;
        }
        const json& t = n["type"];
        if (!t.is_string())
        {
            addProblem(problems, kCodeSchema, std::string("'type' must be a string, not ") + jsonTypeName(t),
                       pointerJoin(path, "type"), "expected a string such as \"sequence\"");
            checkChildren(n, path, owner, level);
            return;
        }
        const std::string& type = t.get_ref<const std::string&>();
        const auto& names = nodeTypeNames();
        if (std::find(names.begin(), names.end(), type) == names.end())
        {
            addProblem(problems, kCodeUnknownNode, "unknown node type '" + type + "'", pointerJoin(path, "type"),
                       suggestName(type, names));
            checkChildren(n, path, owner, level);
            return;
        }
        checkKeys(n, path, keysFor(type), kCodeSchema, ("a " + type + " node").c_str(), problems);
        if (n.contains("label") && !n["label"].is_string())
            addProblem(problems, kCodeSchema, "'label' must be a string", pointerJoin(path, "label"), "expected a string");

        if (type == "sequence" || type == "selector" || type == "parallel")
        {
            if (!n.contains("children"))
                addProblem(problems, kCodeSchema, "a " + type + " needs 'children'", path,
                           "add \"children\": [node, ...] with at least one node");
            else if (!n["children"].is_array() || n["children"].empty())
                addProblem(problems, kCodeSchema, "'children' must be a non-empty array", pointerJoin(path, "children"),
                           "expected an array of nodes");
            if (n.contains("reactive") && !n["reactive"].is_boolean())
                addProblem(problems, kCodeSchema, "'reactive' must be a boolean", pointerJoin(path, "reactive"),
                           "expected true or false");
            for (const char* policy : {"success", "failure"})
                if (n.contains(policy) && !(n[policy] == "one" || n[policy] == "all"))
                    addProblem(problems, kCodeSchema, std::string("'") + policy + "' must be \"one\" or \"all\"",
                               pointerJoin(path, policy), "expected \"one\" or \"all\"");
        }
        else if (type == "inverter" || type == "succeeder" || type == "failer" || type == "repeat" ||
                 type == "retry" || type == "timeout" || type == "cooldown")
        {
            if (!n.contains("child"))
                addProblem(problems, kCodeSchema, "a " + type + " needs a 'child'", path, "add \"child\": {node}");
            if (type == "repeat" || type == "retry")
            {
                if (!n.contains("count"))
                    addProblem(problems, kCodeSchema, "a " + type + " needs a 'count'", path,
                               "add \"count\": an integer >= 1 (or -1 for forever)");
                else if (!n["count"].is_number_integer() ||
                         (n["count"].get<int64_t>() < 1 && n["count"].get<int64_t>() != -1) ||
                         n["count"].get<int64_t>() > 1000000000)
                    addProblem(problems, kCodeSchema, "'count' must be an integer >= 1 or -1",
                               pointerJoin(path, "count"), "expected an integer in [1, 1e9] or -1 (forever)");
            }
            if (type == "timeout" || type == "cooldown")
            {
                if (!n.contains("seconds"))
                    addProblem(problems, kCodeSchema, "a " + type + " needs 'seconds'", path,
                               "add \"seconds\": a number > 0");
                else if (!isFiniteNumber(n["seconds"]) || n["seconds"].get<double>() <= 0 ||
                         n["seconds"].get<double>() > 1e9)
                    addProblem(problems, kCodeSchema, "'seconds' must be a number > 0", pointerJoin(path, "seconds"),
                               "expected a number in (0, 1e9]");
            }
        }
        else if (type == "wait")
        {
            if (!n.contains("seconds"))
                addProblem(problems, kCodeSchema, "a wait needs 'seconds'", path, "add \"seconds\": a number >= 0");
            else if (!isBlackboardRef(n["seconds"]) &&
                     (!isFiniteNumber(n["seconds"]) || n["seconds"].get<double>() < 0 || n["seconds"].get<double>() > 1e9))
                addProblem(problems, kCodeSchema, "'seconds' must be a number >= 0 or {\"bb\": key}",
                           pointerJoin(path, "seconds"), "expected a number in [0, 1e9] or {\"bb\": \"key\"}");
        }
        else if (type == "check" || type == "set")
        {
            if (!n.contains("key"))
                addProblem(problems, kCodeSchema, "a " + type + " needs a 'key'", path,
                           "add \"key\": the blackboard key");
            else if (!n["key"].is_string() || n["key"].get_ref<const std::string&>().empty())
                addProblem(problems, kCodeSchema, "'key' must be a non-empty string", pointerJoin(path, "key"),
                           "expected a string");
            std::string op = "==";
            if (type == "check" && n.contains("op"))
            {
                if (!n["op"].is_string())
                    addProblem(problems, kCodeSchema, "'op' must be a string", pointerJoin(path, "op"),
                               "expected one of ==, !=, <, <=, >, >=, exists, missing");
                else
                {
                    op = n["op"].get<std::string>();
                    if (std::find(kCheckOps.begin(), kCheckOps.end(), op) == kCheckOps.end())
                        addProblem(problems, kCodeSchema, "unknown comparison '" + op + "'", pointerJoin(path, "op"),
                                   suggestName(op, kCheckOps));
                }
            }
            const bool needsValue = type == "set" || (op != "exists" && op != "missing");
            if (needsValue && !n.contains("value"))
                addProblem(problems, kCodeSchema, "a " + type + " needs a 'value'", path,
                           "add \"value\": a JSON value or {\"bb\": \"key\"}");
        }
        else if (type == "condition" || type == "action")
        {
            if (!n.contains("name"))
                addProblem(problems, kCodeSchema, "a " + type + " needs a 'name'", path,
                           "add \"name\": the " + type + " leaf (see ai.leaves)");
            else
                validateLeafCall(n["name"], n.contains("params") ? &n["params"] : nullptr, path, type, leaves,
                                 problems);
        }
        else if (type == "subtree")
        {
            if (!n.contains("subtree"))
                addProblem(problems, kCodeSchema, "a subtree node needs 'subtree'", path,
                           "add \"subtree\": the name of an entry of \"subtrees\"");
            else if (!n["subtree"].is_string())
                addProblem(problems, kCodeSchema, "'subtree' must be a string", pointerJoin(path, "subtree"),
                           "expected a subtree name");
            else
            {
                const std::string& name = n["subtree"].get_ref<const std::string&>();
                if (!subtreeNames.count(name))
                    addProblem(problems, kCodeUnknownSubtree, "no subtree named '" + name + "'",
                               pointerJoin(path, "subtree"),
                               subtreeNames.empty()
                                   ? "define it under \"subtrees\""
                                   : suggestName(name, std::vector<std::string>(subtreeNames.begin(), subtreeNames.end())));
                else
                    refs[owner].push_back({name, pointerJoin(path, "subtree")});
            }
        }
        else if (type == "utility")
        {
            if (!n.contains("utility"))
                addProblem(problems, kCodeSchema, "a utility node needs 'utility'", path,
                           "add \"utility\": the name of a loaded utility document");
            else if (!n["utility"].is_string() || n["utility"].get_ref<const std::string&>().empty())
                addProblem(problems, kCodeSchema, "'utility' must be a non-empty string", pointerJoin(path, "utility"),
                           "expected a utility document name");
        }
        checkChildren(n, path, owner, level);
    }

    /// Descends into `children` / `child` whatever the node's type, so problems
    /// below a broken node are found too.
    void checkChildren(const json& n, const std::string& path, const std::string& owner, size_t level)
    {
        if (n.contains("children") && n["children"].is_array())
        {
            const std::string base = pointerJoin(path, "children");
            for (size_t i = 0; i < n["children"].size(); ++i)
                node(n["children"][i], pointerJoin(base, std::to_string(i)), owner, level + 1);
        }
        if (n.contains("child"))
            node(n["child"], pointerJoin(path, "child"), owner, level + 1);
    }
};

/// Size and depth of a node after inlining; subtrees memoised.
struct Sizer
{
    const json& subtrees;
    std::map<std::string, std::pair<size_t, size_t>> memo;
    std::set<std::string> active;

    static size_t sat(size_t a, size_t b) { return a > SIZE_MAX / 2 || b > SIZE_MAX / 2 ? SIZE_MAX / 2 : a + b; }

    std::pair<size_t, size_t> size(const json& n, size_t level)
    {
        if (!n.is_object() || level > kWalkDepth)
            return {1, 1};
        if (n.contains("type") && n["type"] == "subtree" && n.contains("subtree") && n["subtree"].is_string())
        {
            const std::string name = n["subtree"].get<std::string>();
            if (!subtrees.is_object() || !subtrees.contains(name) || active.count(name))
                return {1, 1};
            if (auto it = memo.find(name); it != memo.end())
                return it->second;
            active.insert(name);
            const auto r = size(subtrees[name], level);
            active.erase(name);
            memo[name] = r;
            return r;
        }
        size_t count = 1, depth = 0;
        auto visit = [&](const json& c) {
            const auto r = size(c, level + 1);
            count = sat(count, r.first);
            depth = std::max(depth, r.second);
        };
        if (n.contains("children") && n["children"].is_array())
            for (const json& c : n["children"])
                visit(c);
        if (n.contains("child"))
            visit(n["child"]);
        return {count, depth + 1};
    }
};

} // namespace

const std::vector<std::string>& nodeTypeNames()
{
    static const std::vector<std::string> kNames = {
        "sequence", "selector", "parallel", "inverter", "succeeder", "failer", "repeat", "retry", "timeout",
        "cooldown", "wait",     "check",    "set",      "condition", "action", "utility", "subtree"};
    return kNames;
}

std::vector<Problem> validateTreeDoc(const json& doc)
{
    return validateTreeDoc(doc, builtinLeafRegistry());
}

std::vector<Problem> validateTreeDoc(const json& doc, const LeafRegistry& leaves)
{
    std::vector<Problem> problems;
    if (!doc.is_object())
    {
        addProblem(problems, kCodeSchema, std::string("a behaviour tree document must be an object, not ") + jsonTypeName(doc),
                   "", "expected {\"version\": 1, \"name\": \"...\", \"root\": {...}}");
        return problems;
    }
    checkKeys(doc, "", {"version", "name", "description", "root", "subtrees"}, kCodeSchema, "the document", problems);
    checkDocumentHeader(doc, problems);

    Walker walker{leaves, problems, {}, {}};
    const json* subtrees = nullptr;
    if (doc.contains("subtrees"))
    {
        if (!doc["subtrees"].is_object())
            addProblem(problems, kCodeSchema, "'subtrees' must be an object of named nodes", "/subtrees",
                       "expected {\"name\": {node}, ...}");
        else
        {
            subtrees = &doc["subtrees"];
            for (auto it = subtrees->begin(); it != subtrees->end(); ++it)
                walker.subtreeNames.insert(it.key());
        }
    }
    if (!doc.contains("root"))
        addProblem(problems, kCodeSchema, "the document has no 'root'", "", "add \"root\": {node}");
    else
        walker.node(doc["root"], "/root", "", 1);
    if (subtrees)
        for (auto it = subtrees->begin(); it != subtrees->end(); ++it)
        {
            if (it.key().empty())
                addProblem(problems, kCodeSchema, "a subtree name must not be empty", pointerJoin("/subtrees", ""),
                           "name the subtree");
            walker.node(it.value(), pointerJoin("/subtrees", it.key()), it.key(), 1);
        }

    // Cycles among subtrees: depth-first search, white/grey/black.
    std::map<std::string, int> colour;
    bool cyclic = false;
    std::vector<std::string> stack;
    auto dfs = [&](auto&& self, const std::string& name) -> void {
        colour[name] = 1;
        stack.push_back(name);
        for (const SubtreeRef& ref : walker.refs[name])
        {
            const int c = colour[ref.name];
            if (c == 1)
            {
                cyclic = true;
                std::string chain;
                const auto from = std::find(stack.begin(), stack.end(), ref.name);
                for (auto s = from; s != stack.end(); ++s)
                    chain += *s + " -> ";
                chain += ref.name;
                addProblem(problems, kCodeCycle, "subtrees contain each other: " + chain, ref.path,
                           "break the cycle: a subtree must not (indirectly) contain itself");
            }
            else if (c == 0)
                self(self, ref.name);
        }
        stack.pop_back();
        colour[name] = 2;
    };
    for (const std::string& name : walker.subtreeNames)
        if (colour[name] == 0)
            dfs(dfs, name);

    // Limits after inlining (only when the structure can be inlined).
    if (!cyclic && doc.contains("root"))
    {
        static const json kEmpty = json::object();
        Sizer sizer{subtrees ? *subtrees : kEmpty, {}, {}};
        const auto [count, depth] = sizer.size(doc["root"], 1);
        if (count > kMaxTreeNodes)
            addProblem(problems, kCodeLimit,
                       "the tree has " + std::to_string(count) + " nodes after inlining subtrees (limit " +
                           std::to_string(kMaxTreeNodes) + ")",
                       "/root", "split the behaviour into several trees or share fewer copies of large subtrees");
        if (depth > kMaxTreeDepth && !walker.tooDeepReported)
            addProblem(problems, kCodeLimit,
                       "the tree is " + std::to_string(depth) + " levels deep after inlining subtrees (limit " +
                           std::to_string(kMaxTreeDepth) + ")",
                       "/root", "flatten nested sequences/selectors");
    }
    return problems;
}

void validateLeafCall(const json& name, const json* params, std::string_view path, std::string_view wantKind,
                      std::vector<Problem>& io)
{
    validateLeafCall(name, params, path, wantKind, builtinLeafRegistry(), io);
}

void validateLeafCall(const json& name, const json* params, std::string_view path, std::string_view wantKind,
                      const LeafRegistry& leaves, std::vector<Problem>& io)
{
    const std::string base(path);
    if (!name.is_string())
    {
        addProblem(io, kCodeSchema, std::string("'name' must be a string, not ") + jsonTypeName(name),
                   pointerJoin(base, "name"), "expected a leaf name (see ai.leaves)");
        return;
    }
    const std::string& leafName = name.get_ref<const std::string&>();
    const LeafDef* def = leaves.find(leafName);
    if (!def)
    {
        std::vector<std::string> candidates;
        for (size_t i = 0; i < leaves.size(); ++i)
        {
            const LeafDef& d = leaves.leaf(i);
            if (wantKind.empty() || (wantKind == "action") == (d.kind == LeafKind::Action))
                candidates.push_back(d.name);
        }
        addProblem(io, kCodeUnknownLeaf,
                   "no " + (wantKind.empty() ? std::string("leaf") : std::string(wantKind)) + " named '" + leafName + "'",
                   pointerJoin(base, "name"), suggestName(leafName, candidates));
        return;
    }
    const bool isAction = def->kind == LeafKind::Action;
    if (!wantKind.empty() && (wantKind == "action") != isAction)
    {
        addProblem(io, kCodeUnknownLeaf,
                   "'" + leafName + "' is " + (isAction ? "an action" : "a condition") + ", not " +
                       (isAction ? "a condition" : "an action"),
                   pointerJoin(base, "name"),
                   std::string("use {\"type\": \"") + (isAction ? "action" : "condition") + "\"}");
        return;
    }
    const std::string paramsPath = pointerJoin(base, "params");
    if (params && !params->is_object())
    {
        addProblem(io, kCodeParams, std::string("'params' must be an object, not ") + jsonTypeName(*params), paramsPath,
                   "expected {\"param\": value, ...}");
        return;
    }
    std::vector<std::string> known;
    for (const ParamDef& p : def->params)
        known.push_back(p.name);
    if (params)
        for (auto it = params->begin(); it != params->end(); ++it)
        {
            const std::string at = pointerJoin(paramsPath, it.key());
            const ParamDef* p = nullptr;
            for (const ParamDef& candidate : def->params)
                if (candidate.name == it.key())
                    p = &candidate;
            if (!p)
            {
                addProblem(io, kCodeParams, "'" + leafName + "' has no parameter '" + it.key() + "'", at,
                           known.empty() ? "'" + leafName + "' takes no parameters" : suggestName(it.key(), known));
                continue;
            }
            const json& v = it.value();
            if (v.is_object() && v.contains("bb"))
            {
                if (!isBlackboardRef(v))
                    addProblem(io, kCodeParams, "a blackboard reference must be {\"bb\": \"key\"} alone", at,
                               "expected {\"bb\": \"non-empty key\"}");
                continue;
            }
            std::string expected;
            if (!paramValueMatches(*p, valueFromJson(v), expected))
                addProblem(io, kCodeParams,
                           "parameter '" + it.key() + "' of '" + leafName + "' has the wrong type or value (" +
                               jsonTypeName(v) + ")",
                           at, "expected " + expected + " or {\"bb\": \"key\"}");
        }
    for (const ParamDef& p : def->params)
        if (p.required && (!params || !params->contains(p.name)))
            addProblem(io, kCodeParams, "'" + leafName + "' needs the parameter '" + p.name + "'",
                       params ? paramsPath : base,
                       "add \"" + p.name + "\": " + paramTypeName(p.type));
}

} // namespace spark::ai
