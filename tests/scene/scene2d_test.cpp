#include "spark/scene/scene2d.h"

#include "spark/core/path.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace spark;
using namespace spark::scene;
using nlohmann::json;

namespace
{

json smallDoc()
{
    return json::parse(R"({"version": 1, "tile_size": 2.0,
      "layers": [{"name": "ground", "width": 3, "height": 2, "tiles": [0, 1, 0, 2, 0, 0], "solid": [1],
                  "areas": {"2": 5}}],
      "boxes": [{"name": "crate", "position": [5.0, 3.0], "half_extents": [0.5, 0.5]}]})");
}

std::string errorField(const json& doc)
{
    auto r = scene2DFromJson(doc);
    REQUIRE_FALSE(r.ok());
    return r.error().code + " " + r.error().field;
}

} // namespace

TEST_CASE("a 2D scene document reads into layers and boxes and saves back the same")
{
    auto r = scene2DFromJson(smallDoc());
    REQUIRE(r.ok());
    CHECK(r->tileSize == 2.0f);
    REQUIRE(r->layers.size() == 1);
    CHECK(r->layers[0].tiles[1] == 1);
    CHECK(r->layers[0].areas.size() == 1);
    REQUIRE(r->boxes.size() == 1);
    CHECK(r->boxes[0].isStatic);
    const json saved = scene2DToJson(r.value());
    auto again = scene2DFromJson(saved);
    REQUIRE(again.ok());
    CHECK(scene2DToJson(again.value()) == saved);
    CHECK(saved["layers"][0]["areas"]["2"] == 5);
}

TEST_CASE("bad scene documents are E_SCENE_FORMAT with the path of the field")
{
    json d = smallDoc();
    d["extra"] = 1;
    CHECK(errorField(d) == "E_SCENE_FORMAT /extra");
    d = smallDoc();
    d["version"] = 2;
    CHECK(errorField(d) == "E_SCENE_FORMAT /version");
    d = smallDoc();
    d["layers"][0]["tiles"][4] = "x";
    CHECK(errorField(d) == "E_SCENE_FORMAT /layers/0/tiles/4");
    d = smallDoc();
    d["layers"][0]["tiles"].erase(0);
    CHECK(errorField(d) == "E_SCENE_FORMAT /layers/0/tiles");
    d = smallDoc();
    d["layers"][0]["areas"]["2"] = 16;
    CHECK(errorField(d) == "E_SCENE_FORMAT /layers/0/areas/2");
    d = smallDoc();
    d["layers"][0]["areas"]["a"] = 1;
    CHECK(errorField(d) == "E_SCENE_FORMAT /layers/0/areas/a");
    d = smallDoc();
    d["boxes"][0]["half_extents"] = {0.5, -1};
    CHECK(errorField(d) == "E_SCENE_FORMAT /boxes/0/half_extents");
    d = smallDoc();
    d["boxes"][0]["colour"] = "red";
    CHECK(errorField(d) == "E_SCENE_FORMAT /boxes/0/colour");
    d = smallDoc();
    d["boxes"].push_back(d["boxes"][0]);
    CHECK(errorField(d) == "E_SCENE_FORMAT /boxes/1/name");
    d = smallDoc();
    d["tile_size"] = 0;
    CHECK(errorField(d) == "E_SCENE_FORMAT /tile_size");
    d = smallDoc();
    d["layers"][0]["width"] = 5000;
    CHECK(errorField(d) == "E_SCENE_LIMIT /layers/0/width");
    CHECK(parseScene2D("{\"version\": 1, ").error().code == "E_FORMAT");
}

TEST_CASE("tiles.set changes a rectangle and refuses ranges outside the layer")
{
    auto s = makeScene2D(1.0f, 4, 3);
    REQUIRE(s.ok());
    REQUIRE(setTiles2D(s.value(), "", 1, 1, 2, 2, 1).ok());
    CHECK(s->layers[0].tiles == std::vector<int32_t>{0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 0});
    CHECK(setTiles2D(s.value(), "ground", 3, 0, 2, 1, 1).error().code == "E_SCENE_RANGE");
    CHECK(setTiles2D(s.value(), "ground", -1, 0, 1, 1, 1).error().field == "/x");
    CHECK(setTiles2D(s.value(), "sky", 0, 0, 1, 1, 1).error().code == "E_SCENE_UNKNOWN");
    CHECK(setTiles2D(s.value(), "", 0, 0, 1, 1, 70000).error().field == "/tile");
    CHECK(makeScene2D(1.0f, 5000, 10).error().code == "E_SCENE_LIMIT");
    CHECK(makeScene2D(0.0f, 5, 10).error().field == "/tile_size");
}

TEST_CASE("boxes need unique names and sane sizes")
{
    auto s = makeScene2D(1.0f, 4, 4);
    REQUIRE(s.ok());
    Box2D b;
    b.name = "a";
    b.position = {1.0f, 1.0f};
    REQUIRE(addBox2D(s.value(), b).ok());
    CHECK(addBox2D(s.value(), b).error().code == "E_SCENE_DUPLICATE");
    b.name = "b";
    b.halfExtents = {0.0f, 1.0f};
    CHECK(addBox2D(s.value(), b).error().field == "/half_extents");
    CHECK(s->boxes.size() == 1);
}

TEST_CASE("the grid of a scene has solid tiles, static boxes and tile areas")
{
    auto s = scene2DFromJson(smallDoc());
    REQUIRE(s.ok());
    auto g = scene2DToGrid(s.value(), 2);
    REQUIRE(g.ok());
    CHECK(g->width == 6);
    CHECK(g->height == 4);
    CHECK(g->cellSize == 1.0f);
    auto blocked = [&](int x, int y) { return g->blocked[static_cast<size_t>(y) * 6 + x] != 0; };
    // Tile (1, 0) is solid: cells x 2..3, y 0..1.
    CHECK(blocked(2, 0));
    CHECK(blocked(3, 1));
    CHECK_FALSE(blocked(1, 0));
    // The crate covers [4.5, 5.5] x [2.5, 3.5] m: cells x 4..5, y 2..3.
    CHECK(blocked(4, 2));
    CHECK(blocked(5, 3));
    CHECK_FALSE(blocked(3, 2));
    // Tile (0, 1) has id 2 -> area 5.
    REQUIRE(g->areas.size() == 24);
    CHECK(g->areas[2 * 6 + 0] == 5);
    CHECK(g->areas[0] == 0);
    // A dynamic box does not block.
    s->boxes[0].isStatic = false;
    auto g2 = scene2DToGrid(s.value(), 2);
    REQUIRE(g2.ok());
    CHECK(g2->blocked[2 * 6 + 4] == 0);
}

TEST_CASE("scene grids over the cell limit, bad subdivisions and empty scenes are coded errors")
{
    auto s = makeScene2D(1.0f, 2000, 10);
    REQUIRE(s.ok());
    CHECK(scene2DToGrid(s.value(), 4).error().code == "E_NAV_LIMIT");
    CHECK(scene2DToGrid(s.value(), 2).ok());
    CHECK(scene2DToGrid(s.value(), 0).error().field == "/subdivisions");
    Scene2D empty;
    CHECK(scene2DToGrid(empty, 4).error().code == "E_NAV_NO_GEOMETRY");
}

TEST_CASE("the sample maps load and bake")
{
    for (const char* path : {"samples/scene2d/maze.scene2d.json", "samples/scene2d/field.scene2d.json"})
    {
        CAPTURE(path);
        auto text = readTextFile(path);
        REQUIRE(text.ok());
        auto s = parseScene2D(text.value());
        REQUIRE(s.ok());
        auto g = scene2DToGrid(s.value(), 4);
        REQUIRE(g.ok());
        auto soup = nav::bakeGrid2D(g.value(), 0.3f);
        REQUIRE(soup.ok());
        CHECK(soup->polygonCount() > 1);
    }
}
