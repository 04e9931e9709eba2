// Command schemas: embedded files, compiled with valijson, validated into
// `{path, message}` problems.

#include "surface/schemas.h"

#include "surface/embedded.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

namespace spark::cli
{

std::string_view findEmbeddedFile(std::string_view name)
{
    for (size_t i = 0; i < kEmbeddedFileCount; ++i)
        if (name == kEmbeddedFiles[i].name)
            return kEmbeddedFiles[i].text;
    return {};
}

struct CompiledSchema::Impl
{
    json document; // valijson keeps references into the adapter's document
    valijson::Schema schema;
};

CompiledSchema::CompiledSchema() : m_impl(std::make_unique<Impl>()) {}
CompiledSchema::~CompiledSchema() = default;

std::unique_ptr<CompiledSchema> CompiledSchema::compile(const json& schema, std::string& outError)
{
    std::unique_ptr<CompiledSchema> compiled(new CompiledSchema());
    compiled->m_impl->document = schema;
    try
    {
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        valijson::adapters::NlohmannJsonAdapter adapter(compiled->m_impl->document);
        parser.populateSchema(adapter, compiled->m_impl->schema);
    }
    catch (const std::exception& e)
    {
        outError = e.what();
        return nullptr;
    }
    return compiled;
}

namespace
{
// valijson context ["<root>", "[a]", "[0]"] -> JSON pointer "/a/0".
std::string contextToPointer(const std::vector<std::string>& context)
{
    std::string out;
    for (const auto& part : context)
    {
        if (part == "<root>")
            continue;
        std::string token = part;
        if (token.size() >= 2 && token.front() == '[' && token.back() == ']')
            token = token.substr(1, token.size() - 2);
        std::string escaped;
        for (char c : token)
        {
            if (c == '~')
                escaped += "~0";
            else if (c == '/')
                escaped += "~1";
            else
                escaped += c;
        }
        out += "/" + escaped;
    }
    return out;
}
} // namespace

std::vector<SchemaProblem> CompiledSchema::validate(const json& doc) const
{
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(doc);
    std::vector<SchemaProblem> problems;
    if (validator.validate(m_impl->schema, target, &results))
        return problems;
    // valijson reports the leaf problem and then each enclosing failure; keep the
    // most specific message per path and drop the generic roll-ups.
    std::set<std::pair<std::string, std::string>> seen;
    valijson::ValidationResults::Error error;
    std::vector<SchemaProblem> all;
    while (results.popError(error))
        all.push_back({contextToPointer(error.context), error.description});
    for (const auto& p : all)
    {
        const bool rollUp = p.message.rfind("Failed to validate against child schema", 0) == 0 ||
                            p.message.rfind("Failed to validate item #", 0) == 0 ||
                            p.message.rfind("Failed to validate against schema associated with property", 0) == 0;
        if (rollUp)
        {
            const bool hasDeeper = std::any_of(all.begin(), all.end(), [&](const SchemaProblem& q) {
                return &q != &p && q.path.size() >= p.path.size() && q.path.rfind(p.path, 0) == 0 &&
                       q.message.rfind("Failed to validate", 0) != 0;
            });
            if (hasDeeper)
                continue;
        }
        if (seen.insert({p.path, p.message}).second)
            problems.push_back(p);
    }
    if (problems.empty() && !all.empty())
        problems.push_back(all.front());
    return problems;
}

namespace
{
struct SchemaCache
{
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<CommandSchema>, std::less<>> byId;
};
SchemaCache& cache()
{
    static SchemaCache c;
    return c;
}
} // namespace

const CommandSchema* findCommandSchema(std::string_view id)
{
    auto& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (auto it = c.byId.find(id); it != c.byId.end())
        return it->second.get();
    const std::string name = "commands/" + std::string(id) + ".schema.json";
    const std::string_view text = findEmbeddedFile(name);
    if (text.empty())
        return nullptr;
    json document = json::parse(text, nullptr, false);
    if (document.is_discarded())
        return nullptr;
    auto schema = compileCommandSchema(id, document);
    if (!schema)
        return nullptr;
    const CommandSchema* out = schema.get();
    c.byId.emplace(std::string(id), std::move(schema));
    return out;
}

std::unique_ptr<CommandSchema> compileCommandSchema(std::string_view id, const json& document)
{
    auto schema = std::make_unique<CommandSchema>();
    schema->id = std::string(id);
    schema->document = document;
    std::string err;
    if (!document.is_object())
        return nullptr;
    schema->params = CompiledSchema::compile(document.value("params", json::object()), err);
    schema->result = CompiledSchema::compile(document.value("result", json::object()), err);
    if (!schema->params || !schema->result)
        return nullptr;
    return schema;
}

std::vector<std::string> embeddedCommandSchemaIds()
{
    std::vector<std::string> ids;
    const std::string prefix = "commands/", suffix = ".schema.json";
    for (size_t i = 0; i < kEmbeddedFileCount; ++i)
    {
        std::string name = kEmbeddedFiles[i].name;
        if (name.rfind(prefix, 0) == 0 && name.size() > prefix.size() + suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            ids.push_back(name.substr(prefix.size(), name.size() - prefix.size() - suffix.size()));
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<std::string> checkCommandSchemaDocument(std::string_view id, const json& document)
{
    std::vector<std::string> problems;
    if (!document.is_object())
        return {"the schema file is not a JSON object"};
    if (document.value("id", std::string()) != id)
        problems.push_back("`id` does not match the file name");
    if (!document.contains("summary") || !document["summary"].is_string() ||
        document["summary"].get<std::string>().empty())
        problems.push_back("`summary` is missing or empty");
    for (const char* key : {"params", "result"})
    {
        if (!document.contains(key) || !document[key].is_object())
        {
            problems.push_back(std::string("`") + key + "` is missing or not an object");
            continue;
        }
        std::string err;
        if (!CompiledSchema::compile(document[key], err))
            problems.push_back(std::string("`") + key + "` is not a valid JSON Schema: " + err);
    }
    if (document.contains("params") && document["params"].is_object() &&
        document["params"].value("type", std::string()) != "object")
        problems.push_back("`params` must be of type object");
    if (!document.contains("errors") || !document["errors"].is_array())
        problems.push_back("`errors` is missing or not an array");
    else
        for (const auto& e : document["errors"])
            if (!e.is_string() || e.get<std::string>().rfind("E_", 0) != 0)
                problems.push_back("`errors` holds something that is not an E_ code");
    return problems;
}

} // namespace spark::cli
