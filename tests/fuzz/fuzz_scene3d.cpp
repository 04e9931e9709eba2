// Fuzz target: 3D scene files (scene::parseWorldDocumentText). A scene it accepts
// must survive its canonical text: written, read back, it is the same scene.

#include "fuzz_common.h"

#include "spark/scene/world_document.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace spark;
    const std::string_view text = fuzz::asText(data, size);
    auto parsed = scene::parseWorldDocumentText(text);
    if (!parsed.ok())
    {
        if (parsed.error().code.empty())
            fuzz::finding("parseWorldDocumentText: an error without a code", parsed.error().message);
        return 0;
    }
    const std::string canonical = scene::worldDocumentToText(*parsed);
    auto again = scene::parseWorldDocumentText(canonical);
    if (!again.ok())
        fuzz::finding("parseWorldDocumentText: the canonical text of an accepted scene is refused",
                      again.error().code + " " + again.error().field + ": " + again.error().message + "\n" + canonical);
    if (scene::hashWorldDocument(*again) != scene::hashWorldDocument(*parsed) || !(*again == *parsed))
        fuzz::finding("parseWorldDocumentText: the canonical text reads back as another scene", canonical);
    return 0;
}
