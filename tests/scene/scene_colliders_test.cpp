// The scene's colliders as triangles for the bake.

#include "spark/scene/scene_colliders.h"

#include <doctest/doctest.h>
#include <glm/glm.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <utility>

using namespace spark;
using namespace spark::scene;
using json = nlohmann::json;

namespace
{

// Each directed edge appears once and its reverse once: a closed, consistently wound surface.
bool isClosed(const ColliderMesh& m)
{
    std::map<std::pair<uint32_t, uint32_t>, int> edges;
    for (size_t t = 0; t + 2 < m.indices.size(); t += 3)
        for (int k = 0; k < 3; ++k)
            ++edges[{m.indices[t + k], m.indices[t + (k + 1) % 3]}];
    for (const auto& [edge, count] : edges)
    {
        if (count != 1)
            return false;
        auto back = edges.find({edge.second, edge.first});
        if (back == edges.end() || back->second != 1)
            return false;
    }
    return !edges.empty();
}

// Signed volume (divergence theorem): positive when triangles face outwards.
double signedVolume(const ColliderMesh& m)
{
    double v = 0.0;
    for (size_t t = 0; t + 2 < m.indices.size(); t += 3)
    {
        const glm::dvec3 a(m.vertices[m.indices[t]]);
        const glm::dvec3 b(m.vertices[m.indices[t + 1]]);
        const glm::dvec3 c(m.vertices[m.indices[t + 2]]);
        v += (a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)) /
             6.0;
    }
    return v;
}

bool sameBits(const ColliderMesh& a, const ColliderMesh& b)
{
    return a.indices == b.indices && a.vertices.size() == b.vertices.size() &&
           std::memcmp(a.vertices.data(), b.vertices.data(), a.vertices.size() * sizeof(glm::vec3)) == 0;
}

WorldDocument sceneFrom(const char* text)
{
    auto r = parseWorldDocumentText(text);
    REQUIRE(r.ok());
    return *r;
}

// A loader serving one tetrahedron model ("models/tet.obj") and failing everything else.
ModelLoader tetLoader(int* calls = nullptr)
{
    return [calls](std::string_view path) -> Result<ColliderMesh>
    {
        if (calls)
            ++*calls;
        if (path != "models/tet.obj")
            return makeError("E_IO", "no such file: " + std::string(path));
        ColliderMesh m;
        m.vertices = {{0, 0, 0}, {2, 0, 0}, {0, 3, 0}, {0, 0, 4}};
        m.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
        return m;
    };
}

void bounds(const nav::BakeInput& in, glm::vec3& lo, glm::vec3& hi)
{
    lo = hi = in.vertices.front();
    for (const glm::vec3& v : in.vertices)
    {
        lo = glm::min(lo, v);
        hi = glm::max(hi, v);
    }
}

const char* kMixedScene = R"({"version": 1, "objects": [
  {"name": "Floor", "components": {"Body": {"shape": {"type": "box", "half_extents": [5, 0.5, 5]}}}},
  {"name": "Trigger", "components": {"Body": {"shape": {"type": "box"}, "sensor": true}}},
  {"name": "Crate", "components": {"Body": {"kind": "dynamic", "shape": {"type": "box"}}}},
  {"name": "Door", "components": {"Body": {"kind": "kinematic", "shape": {"type": "box"}}}},
  {"name": "Wall", "components": {"Body": {"kind": "kinematic", "shape": {"type": "box"}}, "Destructible": {}}},
  {"name": "Vase", "components": {"Body": {"kind": "dynamic", "shape": {"type": "box"}}, "Destructible": {}}},
  {"name": "Loose", "components": {"Body": {"shape": {"type": "box"}}, "Destructible": {"anchored": false}}},
  {"name": "Statue", "components": {"Model": {"path": "models/tet.obj"}, "Destructible": {"anchored": true}}},
  {"name": "Picture", "components": {"Model": {"path": "models/tet.obj"}}}
]})";

} // namespace

TEST_CASE("a tessellated box is closed, faces outwards and has the right volume")
{
    const ColliderMesh box = tessellateBox({1.0f, 2.0f, 3.0f});
    CHECK(box.vertices.size() == 8);
    CHECK(box.indices.size() == 36);
    CHECK(isClosed(box));
    CHECK(signedVolume(box) == doctest::Approx(48.0));
}

TEST_CASE("a tessellated sphere is closed, faces outwards and lies on the sphere")
{
    const ColliderMesh s = tessellateSphere(2.0f);
    CHECK(s.vertices.size() == size_t(2 + (kRoundStacks - 1) * kRoundSlices));
    CHECK(isClosed(s));
    const double v = signedVolume(s);
    const double ball = 4.0 / 3.0 * 3.14159265358979 * 8.0;
    CHECK(v > 0.8 * ball);
    CHECK(v < ball);
    for (const glm::vec3& p : s.vertices)
        CHECK(std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z) == doctest::Approx(2.0).epsilon(1e-6));
}

TEST_CASE("a tessellated capsule is closed, spans its height and has a cylinder band")
{
    const ColliderMesh c = tessellateCapsule(0.5f, 1.0f);
    CHECK(isClosed(c));
    CHECK(signedVolume(c) > 0.0);
    float lo = 0.0f, hi = 0.0f;
    for (const glm::vec3& p : c.vertices)
    {
        lo = std::min(lo, p.y);
        hi = std::max(hi, p.y);
    }
    CHECK(hi == doctest::Approx(1.5));
    CHECK(lo == doctest::Approx(-1.5));
    // One more ring than a sphere: the equator is doubled.
    CHECK(c.vertices.size() == size_t(2 + kRoundStacks * kRoundSlices));
    // A capsule without a cylinder is the sphere.
    CHECK(sameBits(tessellateCapsule(0.5f, 0.0f), tessellateSphere(0.5f)));
}

TEST_CASE("tessellation is deterministic bit for bit")
{
    CHECK(sameBits(tessellateSphere(0.7f), tessellateSphere(0.7f)));
    CHECK(sameBits(tessellateCapsule(0.3f, 0.9f), tessellateCapsule(0.3f, 0.9f)));
    // The vertex of a sphere on the +x axis is exactly (r, 0, 0): sinCos(0) is exact.
    const ColliderMesh s = tessellateSphere(1.0f);
    const glm::vec3 equator = s.vertices[1 + (kRoundStacks / 2 - 1) * kRoundSlices];
    CHECK(equator.x == 1.0f);
    CHECK(equator.z == 0.0f);
}

TEST_CASE("quaternion rotation turns a quarter about y and normalises first")
{
    const float h = std::sqrt(0.5f);
    const glm::vec3 r = rotateByQuaternion({0.0f, h, 0.0f, h}, {1.0f, 0.0f, 0.0f});
    CHECK(r.x == doctest::Approx(0.0).epsilon(1e-6));
    CHECK(r.y == doctest::Approx(0.0).epsilon(1e-6));
    CHECK(r.z == doctest::Approx(-1.0));
    const glm::vec3 r2 = rotateByQuaternion({0.0f, 3.0f, 0.0f, 3.0f}, {1.0f, 0.0f, 0.0f});
    CHECK(r2.z == doctest::Approx(-1.0));
    const glm::vec3 same = rotateByQuaternion({0, 0, 0, 1}, {1.0f, 2.0f, 3.0f});
    CHECK(same == glm::vec3(1.0f, 2.0f, 3.0f));
}

TEST_CASE("transforms scale, then rotate, then translate")
{
    Transform3D t;
    t.position = {10.0f, 0.0f, 0.0f};
    const float h = std::sqrt(0.5f);
    t.rotation = {0.0f, 0.0f, h, h}; // +90° about z: x → y
    t.scale = {2.0f, 1.0f, 1.0f};
    const glm::vec3 p = transformPoint(t, {1.0f, 0.0f, 0.0f});
    CHECK(p.x == doctest::Approx(10.0));
    CHECK(p.y == doctest::Approx(2.0));
    CHECK(p.z == doctest::Approx(0.0).epsilon(1e-6));
}

TEST_CASE("a placed box collider lands at its world position")
{
    WorldDocument s = sceneFrom(R"({"version": 1, "objects": [{"name": "B", "components": {
        "Transform3D": {"position": [3, 1, -2], "rotation": [0, 0.7071068, 0, 0.7071068], "scale": [1, 2, 1]},
        "Body": {"shape": {"type": "box", "half_extents": [2, 0.5, 1]}}}}]})");
    const ColliderTriangles c = collectColliderTriangles(s, defaultColliderDef(), tetLoader());
    REQUIRE(c.colliders == 1);
    CHECK(c.input.indices.size() == 36);
    CHECK(c.input.areas.size() == 12);
    glm::vec3 lo, hi;
    bounds(c.input, lo, hi);
    // Quarter turn about y swaps the x and z extents.
    CHECK(lo.x == doctest::Approx(2.0));
    CHECK(hi.x == doctest::Approx(4.0));
    CHECK(lo.y == doctest::Approx(0.0));
    CHECK(hi.y == doctest::Approx(2.0));
    CHECK(lo.z == doctest::Approx(-4.0));
    CHECK(hi.z == doctest::Approx(0.0));
}

TEST_CASE("each collider's triangles are offered to the bake as one solid")
{
    WorldDocument s = sceneFrom(R"({"version": 1, "objects": [
        {"name": "A", "components": {"Body": {"shape": {"type": "box", "half_extents": [1, 1, 1]}}}},
        {"name": "B", "components": {"Transform3D": {"position": [4, 0, 0]},
                                     "Body": {"shape": {"type": "sphere", "radius": 1}}}}]})");
    const ColliderTriangles c = collectColliderTriangles(s, defaultColliderDef(), tetLoader());
    REQUIRE(c.colliders == 2);
    REQUIRE(c.input.solids.size() == 2);
    CHECK(c.input.solids[0].firstTriangle == 0);
    CHECK(c.input.solids[0].triangleCount == 12);
    CHECK(c.input.solids[1].firstTriangle == 12);
    CHECK(c.input.solids[1].firstTriangle + c.input.solids[1].triangleCount == c.input.indices.size() / 3);
}

TEST_CASE("sensors, dynamic and kinematic bodies are left out by default")
{
    const WorldDocument s = sceneFrom(kMixedScene);
    const ColliderTriangles c = collectColliderTriangles(s, defaultColliderDef(), tetLoader());
    // Floor, Wall (anchored kinematic destructible), Loose (fixed), Statue (anchored model).
    CHECK(c.colliders == 4);
    CHECK(c.input.indices.size() == size_t(3 * (12 + 12 + 12 + 4)));
    CHECK(c.approximatedColliders == 0);
}

TEST_CASE("sensors and other kinds are included on request")
{
    const WorldDocument s = sceneFrom(kMixedScene);
    ColliderDef def = defaultColliderDef();
    def.includeSensors = true;
    CHECK(collectColliderTriangles(s, def, tetLoader()).colliders == 5); // + Trigger
    def.includeKinds = {BodyKind::Fixed, BodyKind::Dynamic};
    CHECK(collectColliderTriangles(s, def, tetLoader()).colliders == 7); // + Crate, Vase
    def.includeKinds = {BodyKind::Fixed, BodyKind::Dynamic, BodyKind::Kinematic};
    CHECK(collectColliderTriangles(s, def, tetLoader()).colliders == 8); // + Door
    def.includeSensors = false;
    def.includeKinds = {};
    // Only the anchored destructibles remain.
    CHECK(collectColliderTriangles(s, def, tetLoader()).colliders == 2);
}

TEST_CASE("model shapes use the real triangles, from_mesh the model's box")
{
    const WorldDocument s = sceneFrom(R"({"version": 1, "objects": [
      {"name": "Hull", "components": {"Model": {"path": "models/tet.obj"}, "Body": {"shape": {"type": "convex_hull"}}}},
      {"name": "Mesh", "components": {"Transform3D": {"position": [10, 0, 0]},
                                      "Body": {"shape": {"type": "trimesh", "model": "models/tet.obj"}}}},
      {"name": "Boxed", "components": {"Transform3D": {"position": [20, 0, 0]},
                                       "Body": {"shape": {"type": "from_mesh", "model": "models/tet.obj"}}}}]})");
    int calls = 0;
    const ColliderTriangles c = collectColliderTriangles(s, defaultColliderDef(), tetLoader(&calls));
    CHECK(calls == 1); // loaded once, used three times
    CHECK(c.colliders == 3);
    CHECK(c.approximatedColliders == 0);
    CHECK(c.input.indices.size() == size_t(3 * (4 + 4 + 12)));
    CHECK(c.input.vertices[4 + 1] == glm::vec3(12.0f, 0.0f, 0.0f)); // second tet vertex, moved
    // The from_mesh box spans the tetrahedron's bounds.
    glm::vec3 lo{1e9f}, hi{-1e9f};
    for (size_t i = 8; i < c.input.vertices.size(); ++i)
    {
        lo = glm::min(lo, c.input.vertices[i]);
        hi = glm::max(hi, c.input.vertices[i]);
    }
    CHECK(lo == glm::vec3(20.0f, 0.0f, 0.0f));
    CHECK(hi == glm::vec3(22.0f, 3.0f, 4.0f));
}

TEST_CASE("unloadable models and fracture assets are baked as boxes and counted")
{
    const WorldDocument s = sceneFrom(R"({"version": 1, "objects": [
      {"name": "Missing", "components": {"Transform3D": {"scale": [4, 2, 6]},
                                         "Body": {"shape": {"type": "trimesh", "model": "models/missing.obj"}}}},
      {"name": "AlsoMissing", "components": {"Body": {"shape": {"type": "from_mesh", "model": "models/missing.obj"}}}},
      {"name": "Fine", "components": {"Body": {"shape": {"type": "trimesh", "model": "models/tet.obj"}}}},
      {"name": "Shattering", "components": {"Body": {"shape": {"type": "sphere", "radius": 1}},
                                            "Destructible": {"asset": "rock.fracture"}}}]})");
    const ColliderTriangles c = collectColliderTriangles(s, defaultColliderDef(), tetLoader());
    CHECK(c.colliders == 4);
    CHECK(c.approximatedColliders == 3);
    REQUIRE(c.approximations.size() == 3);
    CHECK(c.approximations[0].object == "Missing");
    CHECK(c.approximations[0].code == "E_IO");
    CHECK(c.approximations[1].object == "AlsoMissing");
    CHECK(c.approximations[2].object == "Shattering");
    CHECK(c.approximations[2].code == "E_SCENE_APPROXIMATED");
    CHECK(c.input.indices.size() == size_t(3 * (12 + 12 + 4 + 12)));
    // The missing model's box: half extents 0.5 scaled by (4, 2, 6).
    glm::vec3 lo{1e9f}, hi{-1e9f};
    for (size_t i = 0; i < 8; ++i)
    {
        lo = glm::min(lo, c.input.vertices[i]);
        hi = glm::max(hi, c.input.vertices[i]);
    }
    CHECK(lo == glm::vec3(-2.0f, -1.0f, -3.0f));
    CHECK(hi == glm::vec3(2.0f, 1.0f, 3.0f));
    // The fracture-asset sphere becomes its bounding box.
    const glm::vec3 last = c.input.vertices.back();
    CHECK(std::fabs(last.x) == doctest::Approx(1.0));
    CHECK(std::fabs(last.y) == doctest::Approx(1.0));
}

TEST_CASE("a loader returning a broken model counts as unloadable")
{
    const WorldDocument s = sceneFrom(R"({"version": 1, "objects": [
      {"name": "Bad", "components": {"Body": {"shape": {"type": "trimesh", "model": "bad.obj"}}}}]})");
    ModelLoader broken = [](std::string_view) -> Result<ColliderMesh>
    {
        ColliderMesh m;
        m.vertices = {{0, 0, 0}};
        m.indices = {0, 1, 2};
        return m;
    };
    const ColliderTriangles c = collectColliderTriangles(s, defaultColliderDef(), broken);
    CHECK(c.approximatedColliders == 1);
    CHECK(c.approximations[0].code == "E_FORMAT");
    CHECK(c.input.indices.size() == 36);
}

TEST_CASE("collecting twice gives bit-identical triangles")
{
    const WorldDocument s = sceneFrom(R"({"version": 1, "objects": [
      {"name": "C", "components": {"Transform3D": {"position": [1, 2, 3], "rotation": [0.1, 0.2, 0.3, 0.9]},
                                   "Body": {"shape": {"type": "capsule", "radius": 0.4, "half_height": 0.8}}}},
      {"name": "S", "components": {"Body": {"shape": {"type": "sphere", "radius": 1.3}}}}]})");
    const ColliderTriangles a = collectColliderTriangles(s, defaultColliderDef(), tetLoader());
    const ColliderTriangles b = collectColliderTriangles(s, defaultColliderDef(), tetLoader());
    REQUIRE(a.input.vertices.size() == b.input.vertices.size());
    CHECK(std::memcmp(a.input.vertices.data(), b.input.vertices.data(),
                      a.input.vertices.size() * sizeof(glm::vec3)) == 0);
    CHECK(a.input.indices == b.input.indices);
}

TEST_CASE("the OBJ model loader reads project models and refuses paths outside the project")
{
    const ModelLoader load = makeObjModelLoader(".");
    auto pillar = load("samples/space3d/models/pillar.obj");
    REQUIRE(pillar.ok());
    CHECK(pillar.value().vertices.size() == 12);
    CHECK(pillar.value().indices.size() == size_t(3 * 20)); // two hexagons (4 each) and six quads (2 each)
    auto outside = load("../outside.obj");
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().code == "E_PATH");
    auto missing = load("samples/space3d/models/missing.obj");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == "E_IO");
}

TEST_CASE("the arena sample bakes its fixed colliders with real model triangles and no approximation")
{
    auto s = loadWorldDocumentFile("samples/space3d/arena.space3d.json");
    REQUIRE(s.ok());
    const ColliderTriangles c = collectColliderTriangles(*s, defaultColliderDef(), makeObjModelLoader("."));
    // 17 objects less the sensor and the dynamic crate.
    CHECK(c.colliders == 15);
    CHECK(c.approximatedColliders == 0);
    ColliderDef all = defaultColliderDef();
    all.includeSensors = true;
    all.includeKinds = {BodyKind::Fixed, BodyKind::Dynamic, BodyKind::Kinematic};
    CHECK(collectColliderTriangles(*s, all, makeObjModelLoader(".")).colliders == 17);
}
