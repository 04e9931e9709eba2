// The .space3d.json document: load, validate, save back, hash.

#include "spark/scene/world_document.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

using namespace spark;
using namespace spark::scene;
using json = nlohmann::json;

namespace
{

json fullDocument()
{
    return json::parse(R"({
      "version": 1, "gravity": [0, -9.81, 0],
      "objects": [
        {"name": "Floor", "components": {
          "Transform3D": {"position": [0, -0.5, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]},
          "Body": {"kind": "fixed", "shape": {"type": "box", "half_extents": [20, 0.5, 20]}}}},
        {"name": "Ball", "components": {
          "Transform3D": {"position": [1.5, 2, 0.1]},
          "Body": {"kind": "dynamic", "shape": {"type": "sphere", "radius": 0.3}}}},
        {"name": "Pillar", "components": {
          "Body": {"shape": {"type": "capsule", "radius": 0.5, "half_height": 1}, "sensor": true}}},
        {"name": "Rock", "components": {
          "Model": {"path": "models/rock.obj"},
          "Body": {"kind": "kinematic", "shape": {"type": "convex_hull"}}}},
        {"name": "Cave", "components": {"Body": {"shape": {"type": "trimesh", "model": "models/cave.obj"}}}},
        {"name": "Crate", "components": {"Body": {"shape": {"type": "from_mesh", "model": "models/crate.obj"}},
                                         "Destructible": {"anchored": false, "asset": "crate.fracture"}}},
        {"name": "Guard", "components": {
          "Transform3D": {"position": [-14, 0.95, 8]},
          "CharacterController": {"height": 1.8, "radius": 0.4, "step_height": 0.3, "max_slope_deg": 40, "jump_speed": 4},
          "AiAgent": {"mesh": "arena", "tree": "guard", "period": 2, "blackboard": {"target": "Player", "n": [1, 2.5]},
                      "radius": 0.4, "max_speed": 4.5, "drive": "character"}}},
        {"name": "Empty"}
      ]})");
}

// Loads a document that must fail and returns the error.
Error loadError(const json& doc)
{
    auto r = parseWorldDocument(doc);
    REQUIRE_FALSE(r.ok());
    return r.error();
}

// Sets a value at a JSON pointer of the full document and returns the error of loading it.
Error errorWith(const std::string& pointer, const json& value)
{
    json doc = fullDocument();
    doc[json::json_pointer(pointer)] = value;
    return loadError(doc);
}

} // namespace

TEST_CASE("a full scene document loads with every component and its defaults")
{
    auto r = parseWorldDocument(fullDocument());
    REQUIRE(r.ok());
    const WorldDocument& s = *r;
    REQUIRE(s.objects.size() == 8);
    CHECK(s.objects[0].name == "Floor");
    CHECK(s.objects[7].name == "Empty");
    CHECK(s.gravity.y == doctest::Approx(-9.81));

    const Object3D* ball = findObject(s, "Ball");
    REQUIRE(ball);
    CHECK(ball->body->kind == BodyKind::Dynamic);
    CHECK(ball->body->shape.type == ShapeType::Sphere);
    CHECK(ball->body->shape.radius == 0.3f);
    CHECK(ball->transform->rotation == glm::vec4(0, 0, 0, 1)); // default
    CHECK(ball->transform->scale == glm::vec3(1.0f));          // default

    const Object3D* pillar = findObject(s, "Pillar");
    CHECK(pillar->body->kind == BodyKind::Fixed); // default kind
    CHECK(pillar->body->sensor);
    CHECK(pillar->body->shape.halfHeight == 1.0f);
    CHECK_FALSE(pillar->transform.has_value());

    const Object3D* crate = findObject(s, "Crate");
    CHECK_FALSE(crate->destructible->anchored);
    CHECK(crate->destructible->asset == std::optional<std::string>("crate.fracture"));

    const Object3D* guard = findObject(s, "Guard");
    CHECK(guard->characterController->stepHeight == 0.3f);
    CHECK(guard->aiAgent->mesh == "arena");
    CHECK(guard->aiAgent->tree == std::optional<std::string>("guard"));
    CHECK_FALSE(guard->aiAgent->utility.has_value());
    CHECK(guard->aiAgent->period == 2);
    CHECK(guard->aiAgent->blackboard["target"] == "Player");
    CHECK(guard->aiAgent->maxSpeed == std::optional<float>(4.5f));
    CHECK_FALSE(guard->aiAgent->height.has_value());
    CHECK(guard->aiAgent->drive == AgentDrive::Character);
}

TEST_CASE("load then save then load gives an equal scene and the same text")
{
    auto first = parseWorldDocument(fullDocument());
    REQUIRE(first.ok());
    const std::string text = worldDocumentToText(*first);
    auto second = parseWorldDocumentText(text);
    REQUIRE(second.ok());
    CHECK(*second == *first);
    CHECK(worldDocumentToText(*second) == text);
    CHECK(hashWorldDocument(*second) == hashWorldDocument(*first));
}

TEST_CASE("saving writes short decimals, every field and the original object order")
{
    auto r = parseWorldDocument(fullDocument());
    REQUIRE(r.ok());
    const nlohmann::ordered_json doc = worldDocumentToJson(*r);
    CHECK(doc["version"] == 1);
    CHECK(doc["objects"][0]["name"] == "Floor");
    CHECK(doc["objects"][1]["name"] == "Ball");
    CHECK(doc["objects"][1]["components"]["Transform3D"]["position"].dump() == "[1.5,2.0,0.1]");
    CHECK(doc["objects"][1]["components"]["Body"]["shape"].dump() == R"({"type":"sphere","radius":0.3})");
    CHECK(doc["objects"][2]["components"]["Body"]["sensor"] == true);
    CHECK(doc["objects"][0]["components"]["Body"]["sensor"] == false);
    CHECK(doc["objects"][7]["components"].empty());
    // The convex hull without its own model keeps using the Model component.
    CHECK_FALSE(doc["objects"][3]["components"]["Body"]["shape"].contains("model"));
}

TEST_CASE("an unknown component is E_SCENE_FORMAT with its pointer")
{
    const Error e = errorWith("/objects/1/components/Rigidbody", json::object());
    CHECK(e.code == "E_SCENE_FORMAT");
    CHECK(e.field == "/objects/1/components/Rigidbody");
}

TEST_CASE("an unknown field anywhere is E_SCENE_FORMAT with its pointer")
{
    CHECK(errorWith("/objects/0/components/Body/mass", 3).field == "/objects/0/components/Body/mass");
    CHECK(errorWith("/objects/0/components/Body/shape/radius", 1).field ==
          "/objects/0/components/Body/shape/radius");
    CHECK(errorWith("/objects/0/components/Transform3D/pos", json::array({0, 0, 0})).field ==
          "/objects/0/components/Transform3D/pos");
    CHECK(errorWith("/objects/6/components/AiAgent/speed", 1).field == "/objects/6/components/AiAgent/speed");
    CHECK(errorWith("/objects/6/components/CharacterController/mass", 1).field ==
          "/objects/6/components/CharacterController/mass");
    CHECK(errorWith("/objects/5/components/Destructible/pieces", 1).field ==
          "/objects/5/components/Destructible/pieces");
    CHECK(errorWith("/objects/3/components/Model/scale", 1).field == "/objects/3/components/Model/scale");
    CHECK(errorWith("/objects/2/tag", "x").field == "/objects/2/tag");
    CHECK(errorWith("/extra", 1).field == "/extra");
    CHECK(errorWith("/objects/0/components/Body/mass", 3).code == "E_SCENE_FORMAT");
}

TEST_CASE("wrong types are E_SCENE_FORMAT with their pointer")
{
    CHECK(errorWith("/objects/0/components/Transform3D/position", "up").field ==
          "/objects/0/components/Transform3D/position");
    CHECK(errorWith("/objects/0/components/Transform3D/position", json::array({0, 1})).field ==
          "/objects/0/components/Transform3D/position");
    CHECK(errorWith("/objects/0/components/Transform3D/position/1", "1").field ==
          "/objects/0/components/Transform3D/position/1");
    CHECK(errorWith("/objects/2/components/Body/sensor", 1).field == "/objects/2/components/Body/sensor");
    CHECK(errorWith("/objects/0/components/Body/kind", "static").field == "/objects/0/components/Body/kind");
    CHECK(errorWith("/objects/0/components/Body/shape/type", "cone").field ==
          "/objects/0/components/Body/shape/type");
    CHECK(errorWith("/objects/0/components/Body", json::array()).field == "/objects/0/components/Body");
    CHECK(errorWith("/objects/6/components/AiAgent/period", 1.5).field ==
          "/objects/6/components/AiAgent/period");
    CHECK(errorWith("/objects/6/components/AiAgent/blackboard", json::array()).field ==
          "/objects/6/components/AiAgent/blackboard");
    CHECK(errorWith("/objects/6/components/AiAgent/drive", "fly").field ==
          "/objects/6/components/AiAgent/drive");
    CHECK(errorWith("/objects/3/components/Model/path", 7).field == "/objects/3/components/Model/path");
    CHECK(errorWith("/objects", json::object()).field == "/objects");
    CHECK(errorWith("/gravity", json::array({0, -9.8})).field == "/gravity");
    CHECK(errorWith("/version", 2).field == "/version");
    CHECK(loadError(json::array()).code == "E_SCENE_FORMAT");
}

TEST_CASE("non-finite and out-of-range numbers are E_SCENE_FORMAT")
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(errorWith("/objects/0/components/Transform3D/position/0", nan).field ==
          "/objects/0/components/Transform3D/position/0");
    CHECK(errorWith("/objects/1/components/Body/shape/radius", inf).field ==
          "/objects/1/components/Body/shape/radius");
    CHECK(errorWith("/objects/6/components/AiAgent/blackboard/x", nan).field ==
          "/objects/6/components/AiAgent/blackboard/x");
    CHECK(errorWith("/gravity/1", 1e300).field == "/gravity/1");
    CHECK(errorWith("/objects/1/components/Body/shape/radius", 0).field ==
          "/objects/1/components/Body/shape/radius");
    CHECK(errorWith("/objects/0/components/Body/shape/half_extents/2", -1).field ==
          "/objects/0/components/Body/shape/half_extents/2");
    CHECK(errorWith("/objects/0/components/Transform3D/rotation", json::array({0, 0, 0, 0})).field ==
          "/objects/0/components/Transform3D/rotation");
    CHECK(errorWith("/objects/0/components/Transform3D/scale/1", 0).field ==
          "/objects/0/components/Transform3D/scale/1");
    CHECK(errorWith("/objects/6/components/CharacterController/max_slope_deg", 95).field ==
          "/objects/6/components/CharacterController/max_slope_deg");
    // Text with a number too large for a double is not valid JSON for the parser.
    auto r = parseWorldDocumentText(R"({"version": 1, "gravity": [0, -1e999, 0]})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "E_FORMAT");
}

TEST_CASE("a missing or repeated name is E_SCENE_FORMAT")
{
    json doc = fullDocument();
    doc["objects"][3].erase("name");
    Error e = loadError(doc);
    CHECK(e.code == "E_SCENE_FORMAT");
    CHECK(e.field == "/objects/3/name");

    CHECK(errorWith("/objects/3/name", "").field == "/objects/3/name");
    CHECK(errorWith("/objects/3/name", 3).field == "/objects/3/name");

    e = errorWith("/objects/4/name", "Floor");
    CHECK(e.code == "E_SCENE_FORMAT");
    CHECK(e.field == "/objects/4/name");
    CHECK(e.message.find("Floor") != std::string::npos);
}

TEST_CASE("missing required fields are E_SCENE_FORMAT at the field")
{
    json doc = fullDocument();
    doc["objects"][0]["components"]["Body"].erase("shape");
    CHECK(loadError(doc).field == "/objects/0/components/Body/shape");

    doc = fullDocument();
    doc["objects"][4]["components"]["Body"]["shape"].erase("model");
    CHECK(loadError(doc).field == "/objects/4/components/Body/shape");

    doc = fullDocument();
    doc["objects"][6]["components"]["AiAgent"].erase("mesh");
    CHECK(loadError(doc).field == "/objects/6/components/AiAgent/mesh");

    CHECK(errorWith("/objects/6/components/AiAgent/utility", "u").field ==
          "/objects/6/components/AiAgent/utility");

    doc = fullDocument();
    doc.erase("version");
    CHECK(loadError(doc).field == "/version");
}

TEST_CASE("text that is not JSON is E_FORMAT and a missing file is E_IO")
{
    auto r = parseWorldDocumentText("{\"version\": 1, ");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "E_FORMAT");
    auto f = loadWorldDocumentFile("samples/space3d/does-not-exist.space3d.json");
    REQUIRE_FALSE(f.ok());
    CHECK(f.error().code == "E_IO");
}

TEST_CASE("pointers escape ~ and / in unknown keys")
{
    CHECK(errorWith("/objects/0/components/a~0b", 1).field == "/objects/0/components/a~0b");
    CHECK(errorWith("/objects/0/components/c~1d", 1).field == "/objects/0/components/c~1d");
}

TEST_CASE("objects can be added, found and removed, with names kept unique")
{
    WorldDocument s;
    auto o = parseObject3D("Box", json::parse(R"({"Body": {"shape": {"type": "box"}}})"), "/components");
    REQUIRE(o.ok());
    REQUIRE(addObject(s, *o).ok());
    Status again = addObject(s, *o);
    REQUIRE_FALSE(again.ok());
    CHECK(again.error().code == "E_SCENE_FORMAT");
    CHECK(again.error().field == "/name");
    Object3D unnamed;
    CHECK_FALSE(addObject(s, unnamed).ok());
    CHECK(findObject(s, "Box") != nullptr);
    CHECK(findObject(s, "Nope") == nullptr);
    CHECK(removeObject(s, "Box"));
    CHECK_FALSE(removeObject(s, "Box"));
    CHECK(s.objects.empty());
}

TEST_CASE("spawn-style components report errors under the given pointer")
{
    auto o = parseObject3D("X", json::parse(R"({"Body": {"shape": {"type": "sphere", "radius": -1}}})"),
                           "/components");
    REQUIRE_FALSE(o.ok());
    CHECK(o.error().code == "E_SCENE_FORMAT");
    CHECK(o.error().field == "/components/Body/shape/radius");
}

TEST_CASE("the scene hash changes with any field and ignores nothing that is saved")
{
    auto r = parseWorldDocument(fullDocument());
    REQUIRE(r.ok());
    const uint64_t base = hashWorldDocument(*r);
    CHECK(hashWorldDocument(*r) == base);

    WorldDocument moved = *r;
    moved.objects[0].transform->position.x += 0.001f;
    CHECK(hashWorldDocument(moved) != base);

    WorldDocument sensor = *r;
    sensor.objects[0].body->sensor = true;
    CHECK(hashWorldDocument(sensor) != base);

    WorldDocument bb = *r;
    bb.objects[6].aiAgent->blackboard["target"] = "Other";
    CHECK(hashWorldDocument(bb) != base);

    WorldDocument reordered = *r;
    std::swap(reordered.objects[0], reordered.objects[1]);
    CHECK(hashWorldDocument(reordered) != base);

    WorldDocument removed = *r;
    removeObject(removed, "Empty");
    CHECK(hashWorldDocument(removed) != base);
}
