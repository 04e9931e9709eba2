// Fuzz target: 2D scene files (scene::parseScene2D). A scene it accepts must
// read back from its own document and rasterise to a grid.

#include "fuzz_common.h"

#include "spark/scene/scene2d.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace spark;
    const std::string_view text = fuzz::asText(data, size);
    auto parsed = scene::parseScene2D(text);
    if (!parsed.ok())
    {
        if (parsed.error().code.empty())
            fuzz::finding("parseScene2D: an error without a code", parsed.error().message);
        return 0;
    }
    const nlohmann::json doc = scene::scene2DToJson(*parsed);
    auto again = scene::scene2DFromJson(doc);
    if (!again.ok())
        fuzz::finding("parseScene2D: the document of an accepted scene is refused",
                      again.error().code + " " + again.error().field + ": " + again.error().message);
    if (scene::hashScene2D(*again) != scene::hashScene2D(*parsed))
        fuzz::finding("parseScene2D: the document reads back as another scene", doc.dump());
    auto grid = scene::scene2DToGrid(*parsed, 1);
    if (!grid.ok() && grid.error().code.empty())
        fuzz::finding("scene2DToGrid: an error without a code", grid.error().message);
    return 0;
}
