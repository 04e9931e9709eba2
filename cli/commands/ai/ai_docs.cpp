// ai.schema, ai.validate, ai.leaves, ai.tree.load/get/list, ai.utility.load,
// ai.utility.evaluate, ai.hash: the AI documents of the session (docs/ai.md).
// JSON <-> libai conversion lives here; libai validates and compiles.

#include "surface/dispatcher.h"
#include "surface/embedded.h"
#include "surface/registry.h"

#include "spark/ai/brain.h"
#include "spark/ai/leaf_registry.h"
#include "spark/ai/validate.h"
#include "spark/core/hash.h"
#include "spark/core/path.h"

#include <cmath>

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace ai_docs_commands
{
namespace
{

/// Largest AI document, read from a file or given inline (as compact JSON text).
constexpr size_t kMaxDocumentBytes = 16u * 1024u * 1024u;
/// Most problems an answer lists; `count` has them all, `omitted` the rest.
constexpr size_t kMaxListedProblems = 1000;

const char* kindFile(const std::string& kind)
{
    return kind == "utility" ? "ai/utility.schema.json" : "ai/behavior-tree.schema.json";
}

/// The document of `{doc | path}` params, and where it came from for error data.
struct SourceDoc
{
    json doc;
    json where = json::object(); ///< {"file": rel} for a file.
    std::string prefix;          ///< Params pointer prefix of an inline document ("/doc").
};

SourceDoc readDoc(Context& ctx, const json& params)
{
    const bool hasPath = params.contains("path");
    const bool hasDoc = params.contains("doc");
    if (hasPath == hasDoc)
        fail("E_INVALID_PARAMS", "give exactly one of 'doc' and 'path'", {{"path", hasPath ? "/doc" : "/path"}},
             "pass the document inline as \"doc\" or a project file as \"path\"");
    SourceDoc out;
    if (hasDoc)
    {
        // The same limit as a file's: a request may be larger (64 MiB lines).
        const json& doc = params.at("doc");
        if (compactJsonBytes(doc, kMaxDocumentBytes) > kMaxDocumentBytes)
            fail(ai::kCodeLimit, "the inline document is larger than the limit of 16 MiB (as compact JSON)",
                 {{"path", "/doc"}, {"limit_bytes", kMaxDocumentBytes}},
                 "split the document, or load its trees one by one");
        out.doc = doc;
        out.prefix = "/doc";
        return out;
    }
    const std::string rel = params.at("path").get<std::string>();
    const auto file = ctx.resolvePath(rel, "/path");
    FileReadDef def = defaultFileReadDef();
    def.maxBytes = kMaxDocumentBytes;
    def.limitCode = "E_AI_LIMIT";
    auto text = readTextFile(file, def);
    if (!text.ok())
        fail(text.error().code, text.error().message, {{"path", "/path"}, {"file", rel}});
    std::string message;
    if (!parseJsonText(*text, out.doc, message))
        fail("E_FORMAT", "the file is not valid JSON: " + message, {{"path", "/path"}, {"file", rel}});
    out.where = {{"file", rel}};
    return out;
}

/// The first `kMaxListedProblems` problems.
json problemsJson(const std::vector<ai::Problem>& problems)
{
    json out = json::array();
    for (size_t i = 0; i < problems.size() && i < kMaxListedProblems; ++i)
    {
        const ai::Problem& p = problems[i];
        out.push_back({{"code", p.code}, {"message", p.message}, {"path", p.path}, {"hint", p.hint}});
    }
    return out;
}

size_t omittedProblems(const std::vector<ai::Problem>& problems)
{
    return problems.size() > kMaxListedProblems ? problems.size() - kMaxListedProblems : 0;
}

/// Fails with the first problem's code, all problems in data.problems.
[[noreturn]] void failProblems(const SourceDoc& src, const std::vector<ai::Problem>& problems)
{
    const ai::Problem& first = problems.front();
    json data = src.where;
    data["path"] = src.prefix.empty() ? std::string("/path") : src.prefix + first.path;
    data["field"] = first.path;
    data["problems"] = problemsJson(problems);
    data["omitted"] = omittedProblems(problems);
    const std::string more =
        problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more problems in data.problems)" : "";
    fail(first.code, first.message + more, std::move(data), first.hint);
}

std::string hex(uint64_t h) { return hashToHex(h); }

json aiSchema(Context&, const json& params)
{
    const std::string kind = params.value("kind", std::string("behavior_tree"));
    const std::string_view text = findEmbeddedFile(kindFile(kind));
    if (text.empty())
        fail("E_INTERNAL", "the document schema is not embedded", {{"kind", kind}});
    return {{"kind", kind}, {"schema", json::parse(text)}};
}

json aiValidate(Context& ctx, const json& params)
{
    const std::string kind = params.value("kind", std::string("behavior_tree"));
    const SourceDoc src = readDoc(ctx, params);
    const std::vector<ai::Problem> problems =
        kind == "utility" ? ai::validateUtilityDoc(src.doc, ctx.leaves()) : ai::validateTreeDoc(src.doc, ctx.leaves());
    return {{"kind", kind},
            {"valid", problems.empty()},
            {"count", problems.size()},
            {"problems", problemsJson(problems)},
            {"omitted", omittedProblems(problems)}};
}

/// The JSON Schema of a leaf's whole `params` object (SPEC: `ai.leaves` lists
/// them), from its manifest entry: each parameter's schema, the required
/// ones, nothing else (the validator refuses an unknown parameter too).
json paramsSchemaOf(const json& leaf)
{
    json properties = json::object();
    for (const auto& [name, param] : leaf["params"].items())
    {
        json schema = param["schema"];
        schema["description"] = param["description"];
        if (param.contains("default"))
            schema["default"] = param["default"];
        properties[name] = std::move(schema);
    }
    return {{"$schema", "http://json-schema.org/draft-07/schema#"},
            {"type", "object"},
            {"properties", std::move(properties)},
            {"required", leaf["required"]},
            {"additionalProperties", false}};
}

json aiLeaves(Context& ctx, const json& params)
{
    json leaves = ai::leafManifestJson(ctx.leaves());
    for (json& leaf : leaves)
        leaf["params_schema"] = paramsSchemaOf(leaf);
    if (params.contains("kind"))
    {
        json filtered = json::array();
        for (json& l : leaves)
            if (l["kind"] == params["kind"])
                filtered.push_back(std::move(l));
        leaves = std::move(filtered);
    }
    return {{"count", leaves.size()}, {"leaves", std::move(leaves)}};
}

std::vector<std::string> names(const auto& map)
{
    std::vector<std::string> out;
    for (const auto& [name, value] : map)
        out.push_back(name);
    return out;
}

[[noreturn]] void failUnknown(const char* what, const std::string& name, const std::vector<std::string>& known,
                              const char* field)
{
    const std::string near = ai::nearestName(name, known);
    fail(ai::kCodeUnknown, std::string("no ") + what + " named '" + name + "'", {{"path", field}},
         near.empty() ? (known.empty() ? std::string("nothing is loaded yet") : "loaded: " + [&] {
             std::string s;
             for (size_t i = 0; i < known.size(); ++i)
                 s += (i ? ", " : "") + known[i];
             return s;
         }())
                      : "did you mean '" + near + "'?");
}

json treeSummary(const ai::CompiledTree& tree)
{
    Hasher h;
    ai::hashTree(h, tree);
    return {{"name", tree.name}, {"nodes", tree.nodes.size()}, {"depth", tree.depth}, {"hash", hex(h.digest())}};
}

json aiTreeLoad(Context& ctx, const json& params)
{
    const SourceDoc src = readDoc(ctx, params);
    std::vector<ai::Problem> problems;
    auto tree = ai::compileTree(src.doc, ctx.leaves(), &problems);
    if (!tree.ok())
        failProblems(src, problems);
    json out = treeSummary(*tree);
    out["replaced"] = ctx.state.world.ai().trees.count(tree->name) == 1;
    ai::putTree(ctx.state.world.ai(), std::move(tree.value()));
    return out;
}

json aiTreeGet(Context& ctx, const json& params)
{
    const std::string name = params.at("name").get<std::string>();
    const auto it = ctx.state.world.ai().trees.find(name);
    if (it == ctx.state.world.ai().trees.end())
        failUnknown("tree", name, names(ctx.state.world.ai().trees), "/name");
    const ai::CompiledTree& tree = it->second;
    json nodes = json::array();
    for (uint32_t i = 0; i < tree.nodes.size(); ++i)
    {
        const ai::Node& n = tree.nodes[i];
        json children = json::array();
        for (uint32_t c = 0; c < n.childCount; ++c)
            children.push_back(tree.children[n.childBegin + c]);
        json node = {{"id", i},
                     {"type", ai::nodeTypeName(n.type)},
                     {"label", n.label},
                     {"path", n.path},
                     {"depth", n.depth},
                     {"children", std::move(children)}};
        node["parent"] = n.parent == UINT32_MAX ? json() : json(n.parent);
        if (n.type == ai::NodeType::Action || n.type == ai::NodeType::Condition)
            node["leaf"] = n.call.name;
        nodes.push_back(std::move(node));
    }
    json out = treeSummary(tree);
    out["node_list"] = std::move(nodes);
    out["doc"] = tree.doc;
    return out;
}

json aiTreeList(Context& ctx, const json&)
{
    json trees = json::array();
    for (const auto& [name, tree] : ctx.state.world.ai().trees)
        trees.push_back(treeSummary(tree));
    json utilities = json::array();
    for (const auto& [name, doc] : ctx.state.world.ai().utilities)
        utilities.push_back({{"name", name}, {"actions", doc.actions.size()}});
    return {{"count", trees.size()}, {"trees", std::move(trees)}, {"utilities", std::move(utilities)}};
}

ai::UtilityDoc compileUtilityOrFail(const Context& ctx, const SourceDoc& src)
{
    std::vector<ai::Problem> problems;
    auto doc = ai::compileUtility(src.doc, ctx.leaves(), &problems);
    if (!doc.ok())
        failProblems(src, problems);
    return std::move(doc).value();
}

json aiUtilityLoad(Context& ctx, const json& params)
{
    const SourceDoc src = readDoc(ctx, params);
    ai::UtilityDoc doc = compileUtilityOrFail(ctx, src);
    json actions = json::array();
    for (const ai::UtilityAction& a : doc.actions)
        actions.push_back(a.name);
    Hasher h;
    ai::hashUtility(h, doc);
    json out = {{"name", doc.name},
                {"actions", std::move(actions)},
                {"hash", hex(h.digest())},
                {"replaced", ctx.state.world.ai().utilities.count(doc.name) == 1}};
    ai::putUtility(ctx.state.world.ai(), std::move(doc));
    return out;
}

/// Sensors given as numbers in the params (the evaluate command's host).
class ParamSensors final : public ai::SensorReader
{
public:
    explicit ParamSensors(const json& sensors) : m_sensors(sensors) {}
    Result<double> read(ai::Sensor sensor) const override
    {
        const char* name = ai::sensorName(sensor);
        if (!m_sensors.is_object() || !m_sensors.contains(name))
            return makeError(ai::kCodeParams, std::string("sensor '") + name + "' has no value",
                             std::string("/sensors/") + name, std::string("give \"sensors\": {\"") + name + "\": <number>}");
        return m_sensors[name].get<double>();
    }

private:
    const json& m_sensors;
};

json aiUtilityEvaluate(Context& ctx, const json& params)
{
    const bool hasName = params.contains("name");
    if (hasName == (params.contains("doc") || params.contains("path")))
        fail("E_INVALID_PARAMS", "give exactly one of 'name', 'doc' and 'path'", {{"path", "/name"}});
    ai::UtilityDoc local;
    const ai::UtilityDoc* doc = nullptr;
    if (hasName)
    {
        const std::string name = params.at("name").get<std::string>();
        const auto it = ctx.state.world.ai().utilities.find(name);
        if (it == ctx.state.world.ai().utilities.end())
            failUnknown("utility document", name, names(ctx.state.world.ai().utilities), "/name");
        doc = &it->second;
    }
    else
    {
        local = compileUtilityOrFail(ctx, readDoc(ctx, params));
        doc = &local;
    }
    const ai::Blackboard blackboard = ai::blackboardFromJson(params.value("blackboard", json::object()));
    const json sensorsJson = params.value("sensors", json::object());
    const ParamSensors sensors(sensorsJson);
    ai::UtilityMemory memory;
    memory.readyAt.assign(doc->actions.size(), 0.0);
    const double time = params.value("time", 0.0);
    auto actionIndex = [&](const std::string& name, const std::string& field) {
        for (size_t i = 0; i < doc->actions.size(); ++i)
            if (doc->actions[i].name == name)
                return static_cast<int32_t>(i);
        std::vector<std::string> known;
        for (const ai::UtilityAction& a : doc->actions)
            known.push_back(a.name);
        failUnknown("action", name, known, field.c_str());
    };
    if (params.contains("last"))
        memory.last = actionIndex(params["last"].get<std::string>(), "/last");
    if (params.contains("ready_at"))
        for (auto it = params["ready_at"].begin(); it != params["ready_at"].end(); ++it)
            memory.readyAt[static_cast<size_t>(actionIndex(it.key(), "/ready_at/" + it.key()))] = it.value().get<double>();
    Rng rng = rngFromSeed(params.value("seed", uint64_t{0}), 0x5eed);
    auto eval = ai::evaluateUtility(*doc, blackboard, sensors, memory, time, rng);
    if (!eval.ok())
    {
        const Error& e = eval.error();
        fail(e.code, e.message, {{"path", e.field.rfind("/sensors", 0) == 0 ? e.field : "/blackboard"}, {"field", e.field}},
             e.hint);
    }
    json actions = json::array();
    for (const ai::ActionEvidence& a : eval->actions)
    {
        json considerations = json::array();
        for (const ai::ConsiderationEvidence& c : a.considerations)
            considerations.push_back({{"name", c.name},
                                      {"input", c.input},
                                      {"normalized", c.normalized},
                                      {"curve", c.curve},
                                      {"weighted", c.weighted},
                                      {"compensated", c.compensated}});
        actions.push_back({{"name", a.name},
                           {"score", a.score},
                           {"vetoed", a.vetoed},
                           {"blocked", a.blocked},
                           {"inertia", a.inertia},
                           {"considerations", std::move(considerations)}});
    }
    return {{"utility", doc->name},
            {"choice", eval->choice >= 0 ? json(doc->actions[static_cast<size_t>(eval->choice)].name) : json()},
            {"choice_index", eval->choice},
            {"actions", std::move(actions)}};
}

json aiHash(Context& ctx, const json&)
{
    const ai::AiState& s = ctx.state.world.ai();
    return {{"hash", hex(ai::hashAiState(s))},
            {"trees", s.trees.size()},
            {"utilities", s.utilities.size()},
            {"brains", s.brains.size()},
            {"events", s.events.events.size()}};
}

const Registrar kAiSchema{{"ai.schema", aiSchema, Mutates::No}};
const Registrar kAiValidate{{"ai.validate", aiValidate, Mutates::No}};
const Registrar kAiLeaves{{"ai.leaves", aiLeaves, Mutates::No}};
const Registrar kAiTreeLoad{
    {"ai.tree.load", aiTreeLoad, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kAiTreeGet{{"ai.tree.get", aiTreeGet, Mutates::No}};
const Registrar kAiTreeList{{"ai.tree.list", aiTreeList, Mutates::No}};
const Registrar kAiUtilityLoad{
    {"ai.utility.load", aiUtilityLoad, Mutates::Yes, nullptr, {.destructive = true, .idempotent = true}}};
const Registrar kAiUtilityEvaluate{{"ai.utility.evaluate", aiUtilityEvaluate, Mutates::No}};
const Registrar kAiHash{{"ai.hash", aiHash, Mutates::No}};

} // namespace
} // namespace ai_docs_commands
} // namespace spark::cli
