// Fuzz target: 3D scene files (scene::parseScene3DText). A scene it accepts
// must survive its canonical text: written, read back, it is the same scene.

#include "fuzz_common.h"

#include "spark/scene/scene3d.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace spark;
    const std::string_view text = fuzz::asText(data, size);
    auto parsed = scene::parseScene3DText(text);
    if (!parsed.ok())
    {
        if (parsed.error().code.empty())
            fuzz::finding("parseScene3DText: an error without a code", parsed.error().message);
        return 0;
    }
    const std::string canonical = scene::scene3DToText(*parsed);
    auto again = scene::parseScene3DText(canonical);
    if (!again.ok())
        fuzz::finding("parseScene3DText: the canonical text of an accepted scene is refused",
                      again.error().code + " " + again.error().field + ": " + again.error().message + "\n" + canonical);
    if (scene::hashScene3D(*again) != scene::hashScene3D(*parsed) || !(*again == *parsed))
        fuzz::finding("parseScene3DText: the canonical text reads back as another scene", canonical);
    return 0;
}
