#include "spark/nav/query.h"

#include "../mesh/test_meshes.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>

using namespace spark;
using namespace spark::nav;
using namespace spark::nav::test;

TEST_CASE("random points are reproducible from the seed and lie on the mesh")
{
    const NavMesh mesh = meshFromRects({{0, 0, 2, 2}, {2, 0, 3, 1}, {2, 1, 6, 2, 1}});
    Rng a = rngFromSeed(42), b = rngFromSeed(42), c = rngFromSeed(43);
    bool differs = false;
    for (int i = 0; i < 500; ++i)
    {
        auto pa = randomPoint(mesh, a);
        auto pb = randomPoint(mesh, b);
        auto pc = randomPoint(mesh, c);
        REQUIRE(pa.ok());
        CHECK(pa->point == pb->point);
        CHECK(pa->polygon == pb->polygon);
        differs = differs || pa->point != pc->point;
        CHECK(mesh.containsXZ(pa->polygon, pa->point.x, pa->point.z, 1e-5f));
    }
    CHECK(differs);
}

TEST_CASE("random points are uniform by area (chi-square over polygons)")
{
    // Polygons of very different areas, including a hexagon (fan of 4 triangles).
    PolySoup soup = soupFromRects({{0, 0, 1, 1}, {1, 0, 5, 1}, {0, 1, 5, 3}, {5, 0, 5.5f, 3}});
    const uint32_t base = static_cast<uint32_t>(soup.vertices.size());
    const float hx[6] = {8, 9, 9.5f, 9, 8, 7.5f}, hz[6] = {0, 0, 1, 2, 2, 1};
    for (int i = 0; i < 6; ++i)
    {
        soup.vertices.push_back({hx[i], 0, hz[i]});
        soup.indices.push_back(base + i);
    }
    soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
    soup.areas.push_back(0);
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    auto mesh = buildNavMesh(soup, def);
    REQUIRE(mesh.ok());
    const uint32_t polys = mesh->polygonCount();
    const int n = 60000;
    std::vector<int> counts(polys, 0);
    // Also the two halves of the hexagon (x < 8.5 and x >= 8.5) must be equally likely.
    int hexLeft = 0, hexTotal = 0;
    Rng rng = rngFromSeed(2024);
    for (int i = 0; i < n; ++i)
    {
        auto p = randomPoint(*mesh, rng);
        REQUIRE(p.ok());
        ++counts[p->polygon];
        if (p->polygon == polys - 1)
        {
            ++hexTotal;
            hexLeft += p->point.x < 8.5f ? 1 : 0;
        }
    }
    double chi2 = 0.0;
    for (uint32_t p = 0; p < polys; ++p)
    {
        const double expected = n * mesh->polygonArea(p) / mesh->totalArea();
        chi2 += (counts[p] - expected) * (counts[p] - expected) / expected;
    }
    // 4 degrees of freedom: the 99.9 % quantile is 18.47.
    std::printf("random point chi-square over %u polygons: %.3f\n", polys, chi2);
    CHECK(chi2 < 18.47);
    const double half = hexTotal / 2.0;
    const double chiHex = 2.0 * (hexLeft - half) * (hexLeft - half) / half;
    CHECK(chiHex < 10.83); // 1 d.o.f., 99.9 %
}

TEST_CASE("an empty mesh has no random point")
{
    Rng rng = rngFromSeed(1);
    CHECK(randomPoint(NavMesh{}, rng).error().code == "E_NAV_NO_MESH");
}
