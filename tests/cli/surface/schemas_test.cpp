#include "surface/dispatcher.h"
#include "surface/embedded.h"
#include "surface/schemas.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <set>

using namespace spark::cli;

TEST_CASE("every registered command has a schema file and every schema file a command")
{
    std::set<std::string> registered;
    for (const auto& [id, def] : Registry::global().all())
        if (def.inlineSchema.is_null())
            registered.insert(id);
    std::set<std::string> files;
    for (const auto& id : embeddedCommandSchemaIds())
        files.insert(id);
    for (const auto& id : registered)
        CHECK_MESSAGE(files.count(id) == 1, "no schemas/commands/" << id << ".schema.json");
    for (const auto& id : files)
        CHECK_MESSAGE(registered.count(id) == 1, "schemas/commands/" << id << ".schema.json has no command");
    // The embedded set is exactly the files on disk.
    size_t onDisk = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(SPARK_SOURCE_DIR) + "/schemas/commands"))
        onDisk += entry.path().string().ends_with(".schema.json") ? 1 : 0;
    CHECK(onDisk == files.size());
}

TEST_CASE("every command schema file is well formed and its schemas compile")
{
    for (const auto& id : embeddedCommandSchemaIds())
    {
        const std::string_view text = findEmbeddedFile("commands/" + id + ".schema.json");
        json doc = json::parse(text, nullptr, false);
        REQUIRE_MESSAGE(!doc.is_discarded(), id << " is not valid JSON");
        for (const auto& problem : checkCommandSchemaDocument(id, doc))
            FAIL_CHECK(id << ": " << problem);
        CHECK(findCommandSchema(id) != nullptr);
    }
}

TEST_CASE("checkCommandSchemaDocument reports a broken schema document")
{
    json doc = {{"id", "x.y"}, {"params", {{"type", "array"}}}, {"result", 5}, {"errors", {"NOPE"}}};
    auto problems = checkCommandSchemaDocument("x.z", doc);
    CHECK(problems.size() >= 4);
}

TEST_CASE("CompiledSchema reports nested problems with JSON pointers")
{
    std::string err;
    const json pointsSchema = json::parse(R"({"type": "object", "properties": {"points": {"type": "array",
        "items": {"type": "array", "items": {"type": "number"}}}}})");
    auto schema = CompiledSchema::compile(pointsSchema, err);
    REQUIRE(schema);
    auto problems = schema->validate({{"points", {{1, 2}, {3, "x"}}}});
    REQUIRE(problems.size() >= 1);
    CHECK(problems[0].path == "/points/1/1");
    CHECK(schema->validate({{"points", {{1, 2}}}}).empty());
    CHECK_FALSE(CompiledSchema::compile(json::parse(R"({"type": 5})"), err));
}
