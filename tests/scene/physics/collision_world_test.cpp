// The collision world with placed models: a model's triangles are held once
// and shared by every object on it (issue 42, "shared models copied": 2,000
// objects on one 200k-triangle OBJ took 17 s and 1.5 GB, 200 ran out of
// memory). Its answers must equal those of the same triangles listed one by
// one, bit for bit: the oracle is the world the host used to build.

#include "spark/scene/physics.h"

#include "spark/core/rng.h"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <cmath>
#include <vector>

using namespace spark::scene::physics;
using glm::dvec3;

namespace
{

double uniform(spark::Rng& rng, double lo, double hi)
{
    return lo + (hi - lo) * (spark::rngNextU32(rng) / 4294967296.0);
}

/// A bumpy grid of n × n quads (2 triangles each) in model space, about 2 m wide.
void bumpyGrid(int n, std::vector<glm::vec3>& outVertices, std::vector<uint32_t>& outIndices)
{
    for (int z = 0; z <= n; ++z)
        for (int x = 0; x <= n; ++x)
            outVertices.push_back({-1.0f + 2.0f * x / n, 0.1f * static_cast<float>((x * 7 + z * 3) % 5), -1.0f + 2.0f * z / n});
    for (int z = 0; z < n; ++z)
        for (int x = 0; x < n; ++x)
        {
            const uint32_t a = z * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
            outIndices.insert(outIndices.end(), {a, c, b, b, c, d});
        }
}

/// A rotation (unit axes) about a tilted axis by `angle` radians.
Placement placement(const dvec3& position, double angle, const dvec3& scale)
{
    Placement p;
    p.position = position;
    const dvec3 k = glm::normalize(dvec3(0.3, 1.0, -0.2));
    const double c = std::cos(angle), s = std::sin(angle);
    for (int i = 0; i < 3; ++i)
    {
        dvec3 e(0.0);
        e[i] = 1.0;
        p.axis[i] = e * c + glm::cross(k, e) * s + k * glm::dot(k, e) * (1.0 - c); // Rodrigues
    }
    p.scale = scale;
    return p;
}

} // namespace

TEST_CASE("placed models answer ray casts and box queries exactly as their triangles listed one by one")
{
    std::vector<glm::vec3> vertices;
    std::vector<uint32_t> indices;
    bumpyGrid(12, vertices, indices); // 288 triangles
    const auto model = makeTriangleModel(vertices, indices);
    REQUIRE(model->indices.size() == indices.size());

    // Objects 0..5: a box, then placed models (one flattened on y), then a sphere.
    const Placement places[] = {placement({0, 0, 0}, 0.0, {1, 1, 1}), placement({3, 0.5, 1}, 0.7, {2, 1, 1.5}),
                                placement({-2, 1, 2}, 2.1, {-1, 0.5, 1}), placement({1, -1, -3}, 1.0, {1.5, 0.0, 1.5})};
    Shape box;
    box.kind = CoreKind::Box;
    box.center = {0, 2, -1};
    box.half = {0.5, 0.3, 0.4};
    Shape sphere;
    sphere.center = {-1, 0.5, -1};
    sphere.radius = 0.6;

    std::vector<StaticItem> items(6);
    std::vector<Collider> listed;
    items[0].collider = {box, 0};
    listed.push_back({box, 0});
    for (uint32_t o = 1; o <= 4; ++o)
    {
        items[o].collider.owner = o;
        items[o].model = model;
        items[o].placement = places[o - 1];
        for (size_t t = 0; t < indices.size() / 3; ++t)
        {
            Shape tri;
            tri.kind = CoreKind::Triangle;
            for (int k = 0; k < 3; ++k)
                tri.vertex[k] = placePoint(places[o - 1], dvec3(vertices[indices[3 * t + k]]));
            tri.center = (tri.vertex[0] + tri.vertex[1] + tri.vertex[2]) / 3.0;
            listed.push_back({tri, o});
        }
    }
    items[5].collider = {sphere, 5};
    listed.push_back({sphere, 5});

    CollisionWorld shared, byHand;
    shared.setStatic(items);
    byHand.setStatic(listed);
    REQUIRE(shared.staticCount() == listed.size());
    for (uint32_t i = 0; i < listed.size(); i += 37)
    {
        const Collider c = shared.staticCollider(i);
        CHECK(c.owner == listed[i].owner);
        for (int k = 0; k < 3; ++k)
            CHECK(c.shape.vertex[k] == listed[i].shape.vertex[k]);
        CHECK(c.shape.center == listed[i].shape.center);
    }

    spark::Rng rng = spark::rngFromSeed(42);
    std::vector<uint32_t> a, b;
    int hits = 0;
    for (int i = 0; i < 2000; ++i)
    {
        const dvec3 from(uniform(rng, -6, 6), uniform(rng, -3, 5), uniform(rng, -6, 6));
        const dvec3 to = i % 3 == 0 ? from + dvec3(uniform(rng, -0.5, 0.5), -4.0, uniform(rng, -0.5, 0.5))
                                    : dvec3(uniform(rng, -6, 6), uniform(rng, -3, 5), uniform(rng, -6, 6));
        const std::vector<uint32_t> ignore = i % 5 == 0 ? std::vector<uint32_t>{2} : std::vector<uint32_t>{};
        uint32_t ownerA = 0, ownerB = 0;
        const RayHit ha = shared.raycast(from, to, ignore, &ownerA);
        const RayHit hb = byHand.raycast(from, to, ignore, &ownerB);
        REQUIRE(ha.hit == hb.hit);
        hits += ha.hit;
        if (ha.hit)
        {
            CHECK(ha.fraction == hb.fraction);
            CHECK(ownerA == ownerB);
            CHECK(ha.point == hb.point);
            CHECK(ha.normal == hb.normal);
        }
        const dvec3 half(uniform(rng, 0.01, 1.5), uniform(rng, 0.01, 1.5), uniform(rng, 0.01, 1.5));
        shared.queryStatic({from - half, from + half}, a);
        byHand.queryStatic({from - half, from + half}, b);
        REQUIRE(a == b);
    }
    CHECK(hits > 300); // the rays meet the models often enough to mean something
}

TEST_CASE("a thousand objects on one model share its triangles")
{
    std::vector<glm::vec3> vertices;
    std::vector<uint32_t> indices;
    bumpyGrid(100, vertices, indices); // 20,000 triangles
    const auto model = makeTriangleModel(vertices, indices);
    std::vector<StaticItem> items(1000);
    for (uint32_t o = 0; o < items.size(); ++o)
    {
        items[o].collider.owner = o;
        items[o].model = model;
        items[o].placement = placement({3.0 * (o % 40), 0, 3.0 * (o / 40)}, 0.01 * o, {1, 1, 1});
    }
    CollisionWorld world;
    world.setStatic(std::move(items));
    CHECK(world.staticCount() == 1000u * 20000u); // 20 M triangle colliders, held as one model
    CHECK(model.use_count() == 1001);
    // A ray straight down onto object 41 hits it, and its triangle is the one under the ray.
    uint32_t owner = 0;
    const RayHit hit = world.raycast({3.0, 5.0, 3.0}, {3.0, -5.0, 3.0}, {}, &owner);
    REQUIRE(hit.hit);
    CHECK(owner == 41);
    CHECK(hit.point.y >= -0.01);
    CHECK(hit.point.y <= 0.41);
    std::vector<uint32_t> near;
    world.queryStatic({{2.99, -1, 2.99}, {3.01, 1, 3.01}}, near);
    REQUIRE_FALSE(near.empty());
    for (uint32_t i : near)
        CHECK(world.staticCollider(i).owner == 41);
}
