// The C++ consumer (tests/package/consumers.sh): a CMake project built with
// find_package(spark 0.2 CONFIG REQUIRED COMPONENTS nav) at the compiler's
// default standard (the spark targets ask for C++20 themselves), against the
// static libraries or, with -Dspark_SHARED_LIBS=ON, the shared ones. Bakes the
// OBJ given as its argument through the C++ API and prints the line of
// dungeon.h, which the C consumer and the CLI must match.
#include "dungeon.h"

#include "spark/nav/bake.h"
#include "spark/nav/query.h"
#include "spark/nav/version.h"
#include "spark/version.h"

#include <cstring>
#include <vector>

static_assert(SPARK_VERSION_MAJOR == 0 && SPARK_VERSION_MINOR == 2, "the package asked for is 0.2");

int main(int argc, char** argv)
{
    using namespace spark::nav;
    if (argc != 2)
    {
        std::fprintf(stderr, "usage: consumer FILE.obj\n");
        return 2;
    }
    if (std::strcmp(version(), SPARK_VERSION) != 0)
        return 1;
    ConsumerObj obj;
    if (!consumerObjRead(argv[1], &obj))
    {
        std::printf("cannot read %s\n", argv[1]);
        return 1;
    }
    BakeInput input;
    for (size_t i = 0; i < obj.vertexCount; ++i)
        input.vertices.emplace_back(obj.vertices[3 * i], obj.vertices[3 * i + 1], obj.vertices[3 * i + 2]);
    input.indices.assign(obj.indices, obj.indices + obj.indexCount);
    input.oneSided = true;
    consumerObjFree(&obj);
    auto baked = bakeNavMesh(input, defaultBakeDef());
    if (!baked.ok())
        return 1;
    const NavMesh& mesh = baked.value().mesh;
    QueryScratch scratch;
    PathResult path;
    const glm::vec3 from(kConsumerFrom[0], kConsumerFrom[1], kConsumerFrom[2]);
    const glm::vec3 to(kConsumerTo[0], kConsumerTo[1], kConsumerTo[2]);
    const glm::vec3 ext(kConsumerExtents[0], kConsumerExtents[1], kConsumerExtents[2]);
    if (!findPath(mesh, scratch, from, to, defaultQueryFilter(), ext, path).ok())
        return 1;
    std::vector<float> points;
    for (const glm::vec3& p : path.points)
        points.insert(points.end(), {p.x, p.y, p.z});
    char line[8192];
    if (!consumerFormat(line, sizeof line, static_cast<unsigned long long>(hashNavMesh(mesh)),
                        static_cast<unsigned>(mesh.polygonCount()), path.points.size(), points.data(), path.length,
                        path.complete))
        return 1;
    std::puts(line);
    return 0;
}
