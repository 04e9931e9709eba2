// Fuzz target: the OBJ text parser (scene::parseObj). A model it accepts must
// hold what it promises: whole triangles, every index in range, finite positions.

#include "fuzz_common.h"

#include "spark/scene/model_obj.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace spark;
    const std::string_view text = fuzz::asText(data, size);
    auto model = scene::parseObj(text, "fuzz.obj");
    if (!model.ok())
    {
        if (model.error().code.empty())
            fuzz::finding("parseObj: an error without a code", model.error().message);
        return 0;
    }
    if (model->indices.size() % 3 != 0)
        fuzz::finding("parseObj: indices are not whole triangles", text);
    if (model->vertices.size() > scene::kMaxObjElements || model->triangleCount() > scene::kMaxObjElements)
        fuzz::finding("parseObj: more elements than kMaxObjElements", text);
    for (uint32_t i : model->indices)
        if (i >= model->vertices.size())
            fuzz::finding("parseObj: an index past the vertices", text);
    for (const glm::vec3& v : model->vertices)
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
            fuzz::finding("parseObj: a vertex that is not finite", text);
    return 0;
}
