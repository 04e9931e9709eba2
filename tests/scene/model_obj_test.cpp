/// Tests of libscene/src/model_obj.cpp: the OBJ loader.

#include "spark/scene/model_obj.h"

#include <doctest/doctest.h>

#include <string>

using namespace spark::scene;

namespace
{

std::string errorMessage(const spark::Result<ObjModel>& r)
{
    return r.ok() ? std::string() : r.error().message;
}

} // namespace

TEST_CASE("vertices and triangles are read with 1-based indices turned 0-based")
{
    auto r = parseObj("# a quad\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3\nf 1 3 4\n");
    REQUIRE(r.ok());
    REQUIRE(r->vertices.size() == 4);
    CHECK(r->vertices[2].x == 1.0f);
    CHECK(r->vertices[2].z == 1.0f);
    CHECK(r->indices == std::vector<uint32_t>{0, 1, 2, 0, 2, 3});
    CHECK(r->triangleCount() == 2);
}

TEST_CASE("polygons are fan-triangulated from their first corner")
{
    auto r = parseObj("v 0 0 0\nv 1 0 0\nv 2 0 1\nv 1 0 2\nv 0 0 1\nf 1 2 3 4 5\n");
    REQUIRE(r.ok());
    CHECK(r->indices == std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 0, 3, 4});
}

TEST_CASE("negative indices count back from the last vertex read")
{
    auto r = parseObj("v 0 0 0\nv 1 0 0\nv 1 0 1\nf -3 -2 -1\nv 5 5 5\nf -4 -1 -2\n");
    REQUIRE(r.ok());
    CHECK(r->indices == std::vector<uint32_t>{0, 1, 2, 0, 3, 2});
}

TEST_CASE("corners with texture and normal indices use the vertex index only")
{
    auto r = parseObj("v 0 0 0\nv 1 0 0\nv 1 0 1\nvt 0 0\nvt 1 0\nvn 0 1 0\n"
                      "f 1/1/1 2/2/1 3/2/1\nf 1//1 2//1 3//1\nf 1/1 2/2 3/1\n");
    REQUIRE(r.ok());
    CHECK(r->indices == std::vector<uint32_t>{0, 1, 2, 0, 1, 2, 0, 1, 2});
}

TEST_CASE("groups, objects, materials, smoothing and comments are read past")
{
    auto r = parseObj("mtllib a.mtl\no thing\ng part\nusemtl stone\ns off\n\n   \t\nv 0 0 0 # first\n"
                      "v 1 0 0 1.0\nv 1 0 1 0.5 0.5 0.5\nf 1 2 3 # done\r\n");
    REQUIRE(r.ok());
    CHECK(r->vertices.size() == 3);
    CHECK(r->triangleCount() == 1);
}

TEST_CASE("malformed lines are E_FORMAT naming the line")
{
    struct Case
    {
        const char* text;
        const char* line;
    };
    const Case cases[] = {
        {"v 0 0 0\nv 1 0\n", ":2:"},                 // too few numbers
        {"v 0 0 0\nv 1 zero 0\n", ":2:"},            // not a number
        {"v 0 0 nan\n", ":1:"},                      // not finite
        {"v 0 0 0\nv 1 0 0\nv 1 1 1\nf 1 2\n", ":4:"}, // two corners
        {"v 0 0 0\nv 1 0 0\nf 1 2 3\n", ":3:"},      // index past the end
        {"v 0 0 0\nv 1 0 0\nv 1 1 1\nf 0 1 2\n", ":4:"}, // index 0
        {"v 0 0 0\nv 1 0 0\nv 1 1 1\nf 1 2 -4\n", ":4:"}, // negative past the start
        {"v 0 0 0\nv 1 0 0\nv 1 1 1\nf 1 2 3x\n", ":4:"}, // junk after the index
        {"v 0 0 0\nv 1 0 0\nv 1 1 1\nf 1/a 2 3\n", ":4:"}, // junk texture index
        {"v 0 0 0\n\nbogus 1 2\n", ":3:"},           // unknown statement
        {"v 0 0 0 1 2 3 4\n", ":1:"},                // too many numbers
    };
    for (const Case& c : cases)
    {
        CAPTURE(c.text);
        auto r = parseObj(c.text, "bad.obj");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == "E_FORMAT");
        CHECK(errorMessage(r).find(std::string("bad.obj") + c.line) != std::string::npos);
    }
}

TEST_CASE("a missing file is E_IO")
{
    auto r = loadObj("tests/scene/no-such-model.obj");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "E_IO");
}

TEST_CASE("the dungeon mesh (data/meshes) loads whole")
{
    auto r = loadObj("data/meshes/dungeon.obj");
    REQUIRE(r.ok());
    CHECK(r->vertices.size() == 5101);
    CHECK(r->triangleCount() == 10133);
    for (uint32_t i : r->indices)
        CHECK(i < r->vertices.size());
}
