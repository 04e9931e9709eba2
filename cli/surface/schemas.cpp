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

namespace
{

/// Most problems one validation reports.
constexpr size_t kMaxProblems = 100;

/// Finds an array longer than its schema's `maxItems` before any per-item
/// validation runs, so a huge array costs one comparison instead of a check (or,
/// with `uniqueItems`, a pair comparison) per item. Walks the schema and the
/// document together without recursion through `properties`, `items`,
/// `additionalProperties`, the `allOf`/`anyOf`/`oneOf` branches and local
/// `$ref`s; an array is measured at every schema that describes it.
bool findOversizedArray(const json& root, const json& doc, SchemaProblem& out)
{
    struct Item
    {
        const json* schema;
        const json* value;
        std::string path;
        int refs;
    };
    std::vector<Item> stack{{&root, &doc, "", 0}};
    while (!stack.empty())
    {
        Item item = std::move(stack.back());
        stack.pop_back();
        const json& schema = *item.schema;
        const json& value = *item.value;
        if (!schema.is_object())
            continue;
        if (auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string() && item.refs < 16)
        {
            const std::string pointer = ref->get<std::string>();
            if (pointer.rfind("#", 0) == 0)
            {
                try
                {
                    const json& target = root.at(json::json_pointer(pointer.substr(1)));
                    stack.push_back({&target, &value, item.path, item.refs + 1});
                }
                catch (const json::exception&)
                {
                }
            }
        }
        for (const char* branch : {"allOf", "anyOf", "oneOf"})
            if (auto b = schema.find(branch); b != schema.end() && b->is_array())
                for (const json& sub : *b)
                    stack.push_back({&sub, &value, item.path, item.refs});
        if (value.is_array())
        {
            if (auto max = schema.find("maxItems"); max != schema.end() && max->is_number_unsigned() &&
                                                    value.size() > max->get<size_t>())
            {
                out = {item.path, "has " + std::to_string(value.size()) + " items; at most " +
                                      std::to_string(max->get<size_t>()) + " are allowed"};
                return true;
            }
            if (auto items = schema.find("items"); items != schema.end() && items->is_object())
                for (size_t i = 0; i < value.size(); ++i)
                    stack.push_back({&*items, &value[i], item.path + "/" + std::to_string(i), item.refs});
        }
        else if (value.is_object())
        {
            const auto props = schema.find("properties");
            const auto extra = schema.find("additionalProperties");
            for (auto it = value.begin(); it != value.end(); ++it)
            {
                const json* sub = nullptr;
                if (props != schema.end() && props->is_object())
                    if (auto p = props->find(it.key()); p != props->end())
                        sub = &*p;
                if (!sub && extra != schema.end() && extra->is_object())
                    sub = &*extra;
                if (sub)
                    stack.push_back({sub, &it.value(), item.path + "/" + it.key(), item.refs});
            }
        }
    }
    return false;
}

/// valijson names an unknown or a missing property only in its message; the
/// pointer should end with it (`/colour` for an unknown field, `/end` for a
/// missing one), so the caller is pointed at the field itself.
std::string unknownPropertyPath(const SchemaProblem& p)
{
    std::string marker = "constraints: '";
    size_t at = p.message.find(marker);
    if (at == std::string::npos || p.message.find("could not be validated") == std::string::npos)
    {
        marker = "Missing required property '";
        at = p.message.find(marker);
        if (at == std::string::npos)
            return p.path;
    }
    const size_t start = at + marker.size();
    const size_t end = p.message.rfind('\'');
    if (end == std::string::npos || end <= start)
        return p.path;
    return p.path + "/" + p.message.substr(start, end - start);
}

} // namespace

std::vector<SchemaProblem> CompiledSchema::validate(const json& doc) const
{
    SchemaProblem oversized;
    if (findOversizedArray(m_impl->document, doc, oversized))
        return {oversized};
    // One validator per thread, kept: it caches the compiled std::regex of every
    // "pattern" it met (keyed by the pattern), which a fresh validator would
    // compile again on every request (a few percent of a small command's time).
    thread_local valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(doc);
    std::vector<SchemaProblem> problems;
    if (validator.validate(m_impl->schema, target, &results))
        return problems;
    // valijson reports the leaf problem and then each enclosing failure; keep the
    // most specific message per path and drop the generic roll-ups (those with a
    // specific problem below them: found through the sorted set of their paths).
    valijson::ValidationResults::Error error;
    std::vector<SchemaProblem> all;
    while (results.popError(error))
        all.push_back({contextToPointer(error.context), error.description});
    auto isRollUp = [](const SchemaProblem& p) {
        return p.message.rfind("Failed to validate against child schema", 0) == 0 ||
               p.message.rfind("Failed to validate item #", 0) == 0 ||
               p.message.rfind("Failed to validate against schema associated with property", 0) == 0;
    };
    std::set<std::string> specificPaths;
    for (const auto& p : all)
        if (p.message.rfind("Failed to validate", 0) != 0)
            specificPaths.insert(p.path);
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& p : all)
    {
        if (isRollUp(p))
        {
            auto below = specificPaths.lower_bound(p.path);
            if (below != specificPaths.end() && below->rfind(p.path, 0) == 0)
                continue;
        }
        SchemaProblem shown{unknownPropertyPath(p), p.message};
        if (seen.insert({shown.path, shown.message}).second)
            problems.push_back(std::move(shown));
        if (problems.size() >= kMaxProblems)
            break;
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
