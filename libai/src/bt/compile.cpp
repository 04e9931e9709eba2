// Compiling a validated behaviour-tree document into a flat pre-order array:
// subtree references are replaced by a copy of the subtree (inlining), each
// node's children become an index range, leaf parameters become slots. The
// result holds no pointers, so the tree and every brain's state are plain data.
#include "spark/ai/leaf_registry.h"
#include "spark/core/hash.h"

namespace spark::ai
{

const char* nodeTypeName(NodeType type)
{
    switch (type)
    {
    case NodeType::Sequence: return "sequence";
    case NodeType::Selector: return "selector";
    case NodeType::Parallel: return "parallel";
    case NodeType::Inverter: return "inverter";
    case NodeType::Succeeder: return "succeeder";
    case NodeType::Failer: return "failer";
    case NodeType::Repeat: return "repeat";
    case NodeType::Retry: return "retry";
    case NodeType::Timeout: return "timeout";
    case NodeType::Cooldown: return "cooldown";
    case NodeType::Wait: return "wait";
    case NodeType::Check: return "check";
    case NodeType::Set: return "set";
    case NodeType::Condition: return "condition";
    case NodeType::Action: return "action";
    case NodeType::Utility: return "utility";
    case NodeType::Count: break;
    }
    return "?";
}

const char* nodeStatusName(NodeStatus status)
{
    switch (status)
    {
    case NodeStatus::Idle: return "idle";
    case NodeStatus::Running: return "running";
    case NodeStatus::Success: return "success";
    case NodeStatus::Failure: return "failure";
    }
    return "?";
}

namespace
{

ParamSlot slotOf(const json& v)
{
    ParamSlot s;
    s.present = true;
    if (isBlackboardRef(v))
    {
        s.fromBb = true;
        s.bbKey = v["bb"].get<std::string>();
    }
    else
        s.literal = valueFromJson(v);
    preparseSlot(s);
    return s;
}

struct Compiler
{
    const LeafRegistry& leaves;
    const json& subtrees;
    CompiledTree& out;

    /// Index of `key` in the tree's key list (added on first use).
    uint32_t intern(const std::string& key)
    {
        for (uint32_t i = 0; i < out.keys.size(); ++i)
            if (out.keys[i] == key)
                return i;
        out.keys.push_back(key);
        return static_cast<uint32_t>(out.keys.size() - 1);
    }
    void intern(ParamSlot& slot)
    {
        if (slot.fromBb)
            slot.bbIndex = intern(slot.bbKey);
    }

    uint32_t node(const json& n, const std::string& path, uint32_t parent, uint32_t depth)
    {
        const std::string type = n["type"].get<std::string>();
        if (type == "subtree")
        {
            const std::string name = n["subtree"].get<std::string>();
            return node(subtrees[name], pointerJoin("/subtrees", name), parent, depth);
        }
        const uint32_t index = static_cast<uint32_t>(out.nodes.size());
        out.nodes.emplace_back();
        {
            Node& d = out.nodes.back();
            for (int t = 0; t < static_cast<int>(NodeType::Count); ++t)
                if (type == nodeTypeName(static_cast<NodeType>(t)))
                    d.type = static_cast<NodeType>(t);
            d.parent = parent;
            d.depth = depth;
            d.path = path;
            d.reactive = n.value("reactive", false);
            d.successPolicy = n.value("success", std::string("all")) == "one" ? ParallelPolicy::One : ParallelPolicy::All;
            d.failurePolicy = n.value("failure", std::string("one")) == "all" ? ParallelPolicy::All : ParallelPolicy::One;
            if (n.contains("count"))
                d.count = static_cast<int32_t>(n["count"].get<int64_t>());
            if (n.contains("seconds"))
            {
                if (d.type == NodeType::Wait)
                    d.waitSeconds = slotOf(n["seconds"]);
                else
                    d.seconds = n["seconds"].get<double>();
            }
            if (n.contains("key"))
                d.key = n["key"].get<std::string>();
            if (n.contains("value"))
                d.value = slotOf(n["value"]);
            if (n.contains("op"))
            {
                static const char* kOps[] = {"==", "!=", "<", "<=", ">", ">=", "exists", "missing"};
                for (int o = 0; o < 8; ++o)
                    if (n["op"] == kOps[o])
                        d.op = static_cast<CheckOp>(o);
            }
            if (n.contains("utility"))
                d.utility = n["utility"].get<std::string>();
            if (d.type == NodeType::Condition || d.type == NodeType::Action)
                d.call = makeLeafCall(leaves, leaves.indexOf(n["name"].get<std::string>()),
                                      n.contains("params") ? n["params"] : json::object());
            if (n.contains("key"))
                d.keyIndex = intern(d.key);
            intern(d.waitSeconds);
            intern(d.value);
            for (ParamSlot& p : d.call.params)
                intern(p);
            if (n.contains("label"))
                d.label = n["label"].get<std::string>();
            else if (n.contains("name"))
                d.label = type + ":" + n["name"].get<std::string>();
            else if (n.contains("utility"))
                d.label = type + ":" + n["utility"].get<std::string>();
            else
                d.label = type;
        }
        if (depth > out.depth)
            out.depth = depth;

        std::vector<const json*> kids;
        if (n.contains("children"))
            for (const json& c : n["children"])
                kids.push_back(&c);
        if (n.contains("child"))
            kids.push_back(&n["child"]);
        const uint32_t begin = static_cast<uint32_t>(out.children.size());
        out.children.resize(out.children.size() + kids.size());
        out.nodes[index].childBegin = begin;
        out.nodes[index].childCount = static_cast<uint32_t>(kids.size());
        for (size_t i = 0; i < kids.size(); ++i)
        {
            const std::string childPath = n.contains("children")
                                              ? pointerJoin(pointerJoin(path, "children"), std::to_string(i))
                                              : pointerJoin(path, "child");
            const uint32_t c = node(*kids[i], childPath, index, depth + 1);
            out.children[begin + i] = c;
        }
        return index;
    }
};

} // namespace

Result<CompiledTree> compileTree(const json& doc, std::vector<Problem>* outProblems)
{
    return compileTree(doc, builtinLeafRegistry(), outProblems);
}

Result<CompiledTree> compileTree(const json& doc, const LeafRegistry& leaves,
                                 std::vector<Problem>* outProblems)
{
    std::vector<Problem> problems = validateTreeDoc(doc, leaves);
    if (!problems.empty())
    {
        const Problem first = problems.front();
        if (outProblems)
            *outProblems = std::move(problems);
        return makeError(first.code, first.message, first.path, first.hint);
    }
    if (outProblems)
        outProblems->clear();
    CompiledTree tree;
    tree.name = doc["name"].get<std::string>();
    static const json kEmpty = json::object();
    Compiler compiler{leaves, doc.contains("subtrees") ? doc["subtrees"] : kEmpty, tree};
    compiler.node(doc["root"], "/root", UINT32_MAX, 1);
    layoutNodeStates(tree);
    tree.doc = doc;
    return tree;
}

void hashTree(Hasher& io, const CompiledTree& tree)
{
    io.addString(tree.name);
    io.addU64(tree.nodes.size());
    hashJson(io, tree.doc);
}

} // namespace spark::ai
