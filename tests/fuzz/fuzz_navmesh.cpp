// Fuzz target: navmesh import. An input is a navmesh document (the format of
// nav.export). It is read as `nav.import` reads a file (parseJsonText, then
// navjson::meshFromDocument); a mesh it accepts must export to a document that
// reads back with the same hash, and must answer the queries of the command
// surface (imported with nav.import, then info, walls, nearest, path, raycast,
// random points) without E_INTERNAL.

#include "fuzz_common.h"

#include "commands/nav/nav_json.h"
#include "spark/scene/session_state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace spark;
    using cli::json;
    const std::string_view text = fuzz::asText(data, size);
    json doc;
    std::string why;
    if (!cli::parseJsonText(text, doc, why))
        return 0;
    auto mesh = cli::navjson::meshFromDocument(doc);
    if (!mesh.ok())
    {
        if (mesh.error().code.empty())
            fuzz::finding("meshFromDocument: an error without a code", mesh.error().message);
        return 0;
    }
    const json exported = cli::navjson::meshToDocument(*mesh);
    auto again = cli::navjson::meshFromDocument(json::parse(exported.dump()));
    if (!again.ok())
        fuzz::finding("meshFromDocument: the export of an accepted mesh is refused",
                      again.error().code + " " + again.error().field + ": " + again.error().message);
    if (nav::hashNavMesh(*again) != nav::hashNavMesh(*mesh))
        fuzz::finding("meshFromDocument: the export reads back as another mesh", exported.dump());

    // The same document through the command surface, then queries between its own points.
    cli::Dispatcher& dispatcher = fuzz::dispatcher();
    scene::SessionState state;
    const json imported = dispatcher.call(state, "nav.import", {{"name", "m"}, {"document", doc}});
    fuzz::checkEnvelope(imported, "nav.import");
    if (!imported["ok"].get<bool>())
        fuzz::finding("nav.import refused a document meshFromDocument accepts", cli::dumpJson(imported));
    const json& vertices = exported["vertices"];
    const bool is2d = mesh->is2d();
    const json a = vertices.empty() ? json(is2d ? json{0, 0} : json{0, 0, 0}) : vertices.front();
    const json b = vertices.empty() ? a : vertices[vertices.size() / 2];
    const json c = vertices.empty() ? a : vertices.back();
    const json calls[][2] = {
        {"nav.info", json::object()},
        {"nav.walls", {{"point", a}, {"range", 5}, {"max_walls", 16}}},
        {"nav.nearest", {{"point", b}}},
        {"nav.path", {{"from", a}, {"to", c}, {"corridor", true}}},
        {"nav.path", {{"from", c}, {"to", b}, {"area_costs", {{"1", 4.0}}}, {"excluded_areas", {2}}}},
        {"nav.raycast", {{"from", a}, {"to", c}}},
        {"nav.random_point", {{"seed", 7}, {"count", 4}}},
    };
    for (const auto& call : calls)
        fuzz::checkEnvelope(dispatcher.call(state, call[0].get<std::string>(), call[1]), call[0].get<std::string>());
    return 0;
}
