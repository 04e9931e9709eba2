// system.commands, system.version, system.schema.

#include "surface/dispatcher.h"
#include "surface/registry.h"
#include "surface/schemas.h"
#include "surface/suggest.h"

#include "spark/ai/version.h"
#include "spark/nav/version.h"
#include "spark/scene/version.h"

namespace spark::cli
{
/// This file's own namespace: the unity build puts several command files in one
/// translation unit, where their unnamed namespaces would be one.
namespace system_commands
{
namespace
{

json describe(const CommandDef& def)
{
    json document = def.inlineSchema;
    if (document.is_null())
    {
        const CommandSchema* schema = findCommandSchema(def.id);
        document = schema ? schema->document : json::object();
    }
    return {{"id", def.id},
            {"mutates", def.mutates != Mutates::No},
            {"summary", document.value("summary", std::string())},
            {"params", document.value("params", json::object())},
            {"result", document.value("result", json::object())},
            {"errors", document.value("errors", json::array())}};
}

json systemCommands(Context& ctx, const json& params)
{
    const std::string prefix = params.value("prefix", std::string());
    json list = json::array();
    for (const auto& [id, def] : ctx.dispatcher->registry().all())
        if (id.rfind(prefix, 0) == 0)
            list.push_back(describe(def));
    return {{"count", list.size()}, {"commands", list}};
}

json systemVersion(Context&, const json&)
{
    return {{"name", "spark"},
            {"version", SPARK_VERSION},
            {"libraries", {{"nav", nav::version()}, {"ai", ai::version()}, {"scene", scene::version()}}},
            {"determinism", {{"fp_contract", "off"}, {"fast_math", false}, {"threads", false}}}};
}

json systemSchema(Context& ctx, const json& params)
{
    const std::string id = params.at("command").get<std::string>();
    const CommandDef* def = ctx.dispatcher->registry().find(id);
    if (!def)
    {
        std::vector<std::string> ids;
        for (const auto& [name, unused] : ctx.dispatcher->registry().all())
            ids.push_back(name);
        auto near = nearestNames(id, ids);
        fail("E_UNKNOWN_COMMAND", "no command named '" + id + "'", {{"path", "/command"}, {"suggestions", near}},
             near.empty() ? std::string("list the commands with `spark commands`") : "did you mean " + near[0] + "?");
    }
    return describe(*def);
}

const Registrar kCommands{{"system.commands", systemCommands, Mutates::No}};
const Registrar kVersion{{"system.version", systemVersion, Mutates::No}};
const Registrar kSchema{{"system.schema", systemSchema, Mutates::No}};

} // namespace
} // namespace system_commands
} // namespace spark::cli
