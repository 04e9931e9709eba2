// Footprints and carving geometry: validation with the bad field, grown
// footprints that cover the rounded shape without reaching far past it, and
// polygons minus footprints as convex, counter-clockwise, disjoint pieces of at
// most 6 vertices whose area is the polygon's minus the covered area.

#include "spark/nav/carve.h"

#include "spark/core/hash.h"

#include <doctest/doctest.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

using Poly = std::vector<glm::dvec2>;

double area(const Poly& p) { return twiceSignedArea(p) * 0.5; }

double cross(const glm::dvec2& a, const glm::dvec2& b) { return a.x * b.y - a.y * b.x; }

/// True when p lies inside (or within tol of) convex counter-clockwise polygon q.
bool inside(const Poly& q, const glm::dvec2& p, double tol = 1.0e-9)
{
    for (size_t i = 0; i < q.size(); ++i)
    {
        const glm::dvec2 a = q[i], d = q[(i + 1) % q.size()] - a;
        if (cross(d, p - a) / std::sqrt(d.x * d.x + d.y * d.y) < -tol)
            return false;
    }
    return true;
}

/// Strictly inside, at least tol from every edge.
bool deepInside(const Poly& q, const glm::dvec2& p, double tol) { return inside(q, p, -tol); }

bool convexCcw(const Poly& q)
{
    if (q.size() < 3 || !(area(q) > 0.0))
        return false;
    for (size_t i = 0; i < q.size(); ++i)
        if (cross(q[(i + 1) % q.size()] - q[i], q[(i + 2) % q.size()] - q[(i + 1) % q.size()]) <= 0.0)
            return false;
    return true;
}

/// P ∩ C for convex P and C (clipping P by every edge of C).
Poly intersect(const Poly& p, const Poly& c)
{
    Poly left = p, next;
    for (size_t k = 0; k < c.size() && !left.empty(); ++k)
    {
        clipConvexLeft(left, c[k], c[(k + 1) % c.size()], next);
        left.swap(next);
    }
    return left;
}

double totalArea(const std::vector<Poly>& pieces)
{
    double sum = 0.0;
    for (const Poly& p : pieces)
        sum += area(p);
    return sum;
}

Poly rect(double x0, double z0, double x1, double z1) { return {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}}; }

FootprintDef circle(float r)
{
    FootprintDef d;
    d.shape = FootprintShape::Circle;
    d.radius = r;
    return d;
}

FootprintDef box(float hx, float hz, float angle)
{
    FootprintDef d;
    d.shape = FootprintShape::Box;
    d.halfExtents = glm::vec2(hx, hz);
    d.angleDeg = angle;
    return d;
}

FootprintDef polygon(std::vector<glm::vec2> points)
{
    FootprintDef d;
    d.shape = FootprintShape::Polygon;
    d.points = std::move(points);
    return d;
}

Poly grown(const FootprintDef& d, glm::dvec2 at, double grow)
{
    auto r = footprintPolygon(d, at, grow);
    REQUIRE(r.ok());
    return r.value();
}

/// Every piece convex, counter-clockwise, of 3..6 vertices and at least the minimum area.
void checkPieces(const std::vector<Poly>& pieces)
{
    for (const Poly& p : pieces)
    {
        CHECK(p.size() >= 3);
        CHECK(p.size() <= 6);
        CHECK(convexCcw(p));
        CHECK(area(p) >= kMinCarvedPieceArea);
    }
}

/// Samples a grid over [lo, hi]²: a sample well inside the polygon and well
/// outside every cut lies in exactly one piece; one inside a cut in none.
void checkCover(const Poly& polygon, const std::vector<Poly>& cuts, const std::vector<Poly>& pieces, double lo,
                double hi)
{
    const double tol = 1.0e-6;
    for (int i = 0; i <= 60; ++i)
        for (int k = 0; k <= 60; ++k)
        {
            const glm::dvec2 p(lo + (hi - lo) * i / 60.0 + 1.3e-4, lo + (hi - lo) * k / 60.0 + 0.7e-4);
            int in = 0;
            for (const Poly& q : pieces)
                in += deepInside(q, p, tol) ? 1 : 0;
            CHECK(in <= 1); // disjoint
            bool underCut = false, nearCut = false;
            for (const Poly& c : cuts)
            {
                underCut = underCut || deepInside(c, p, tol);
                nearCut = nearCut || inside(c, p, tol);
            }
            if (underCut)
                CHECK(in == 0);
            else if (!nearCut && deepInside(polygon, p, tol))
            {
                // Far from every boundary: inside exactly one piece (allowing for edges between pieces).
                int near = 0;
                for (const Poly& q : pieces)
                    near += inside(q, p, tol) ? 1 : 0;
                CHECK(near >= 1);
            }
        }
}

/// `polygon` carved by `cuts` (at most 6 points a piece), then merged: fewer
/// pieces than carving left, valid, with the same area.
std::vector<Poly> carvedAndMerged(const Poly& polygon, const std::vector<Poly>& cuts)
{
    std::vector<Poly> pieces;
    carveConvex(polygon, cuts, 6, pieces);
    const size_t before = pieces.size();
    const double areaBefore = totalArea(pieces);
    mergeConvexPieces(pieces, 6);
    CHECK(pieces.size() < before);
    checkPieces(pieces);
    CHECK(totalArea(pieces) == doctest::Approx(areaBefore).epsilon(1e-12));
    return pieces;
}

/// XXH3 of the pieces' counts and points, in order.
uint64_t hashPieces(const std::vector<Poly>& pieces)
{
    Hasher h;
    h.addU64(pieces.size());
    for (const Poly& p : pieces)
    {
        h.addU64(p.size());
        for (const glm::dvec2& v : p)
        {
            h.addF64(v.x);
            h.addF64(v.y);
        }
    }
    return h.digest();
}

} // namespace

TEST_CASE("validateFootprint refuses bad sizes, angles and polygons with their field")
{
    auto field = [](const FootprintDef& d) {
        Status s = validateFootprint(d);
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().code == "E_INVALID_PARAMS");
        return s.error().field;
    };
    CHECK(validateFootprint(circle(0.5f)).ok());
    CHECK(field(circle(0.0f)) == "/shape/radius");
    CHECK(field(circle(NAN)) == "/shape/radius");
    CHECK(field(circle(2.0e4f)) == "/shape/radius");
    CHECK(validateFootprint(box(1, 2, 30)).ok());
    CHECK(field(box(-1, 2, 0)) == "/shape/half_extents");
    CHECK(field(box(1, INFINITY, 0)) == "/shape/half_extents");
    CHECK(field(box(1, 1, NAN)) == "/shape/angle_deg");
    CHECK(validateFootprint(polygon({{0, 0}, {1, 0}, {0, 1}})).ok());
    CHECK(field(polygon({{0, 0}, {1, 0}})) == "/shape/points");
    CHECK(field(polygon({{0, 0}, {NAN, 0}, {0, 1}})) == "/shape/points/1");
    CHECK(field(polygon({{0, 0}, {1, 0}, {1, 0}, {0, 1}})) == "/shape/points/2");
    // Clockwise, and a dart (all points distinct, counter-clockwise area, one reflex corner).
    CHECK(field(polygon({{0, 0}, {0, 1}, {1, 0}})) == "/shape/points");
    Status cw = validateFootprint(polygon({{0, 0}, {0, 1}, {1, 0}}));
    CHECK(cw.error().message.find("clockwise") != std::string::npos);
    Status dart = validateFootprint(polygon({{0, 0}, {2, 1}, {4, 0}, {2, 3}}));
    REQUIRE_FALSE(dart.ok());
    CHECK(dart.error().message.find("not convex") != std::string::npos);
    std::vector<glm::vec2> many(33);
    for (size_t i = 0; i < many.size(); ++i)
        many[i] = glm::vec2(static_cast<float>(i), static_cast<float>(i * i));
    CHECK(field(polygon(many)) == "/shape/points");
    CHECK_FALSE(footprintPolygon(circle(1), glm::dvec2(NAN, 0), 0.1).ok());
    CHECK_FALSE(footprintPolygon(circle(1), glm::dvec2(0, 0), -0.1).ok());
}

TEST_CASE("a grown circle is a 12-gon whose edges touch the grown circle")
{
    const Poly p = grown(circle(1.0f), glm::dvec2(3, -2), 0.5);
    REQUIRE(p.size() == kCircleFootprintSides);
    CHECK(convexCcw(p));
    for (size_t i = 0; i < p.size(); ++i)
    {
        const glm::dvec2 mid = (p[i] + p[(i + 1) % p.size()]) * 0.5 - glm::dvec2(3, -2);
        CHECK(std::sqrt(mid.x * mid.x + mid.y * mid.y) == doctest::Approx(1.5).epsilon(1e-12));
    }
    // Every point of the grown circle is inside.
    for (int k = 0; k < 360; ++k)
    {
        const double a = k * 3.14159265358979323846 / 180.0;
        CHECK(inside(p, glm::dvec2(3 + 1.5 * std::cos(a), -2 + 1.5 * std::sin(a))));
    }
}

TEST_CASE("grown boxes and polygons cover every point within the growth and reach at most twice it")
{
    struct Case
    {
        FootprintDef def;
        double grow;
    };
    const Case cases[] = {{box(1.0f, 0.5f, 30.0f), 0.4},
                          {box(2.0f, 0.25f, -135.0f), 0.3},
                          {polygon({{0, 0}, {4, 0}, {0, 0.3f}}), 0.3}, // two sharp corners: bevelled
                          {polygon({{-1, -1}, {1, -1}, {1.5f, 0}, {1, 1}, {-1, 1}}), 0.25},
                          {box(1.0f, 1.0f, 0.0f), 0.0}};
    for (const Case& c : cases)
    {
        const Poly shape = grown(c.def, glm::dvec2(0, 0), 0.0);
        const Poly g = grown(c.def, glm::dvec2(0, 0), c.grow);
        CHECK(convexCcw(g));
        // Points at the growth distance round every corner and along every edge are inside.
        for (size_t i = 0; i < shape.size(); ++i)
        {
            const glm::dvec2 a = shape[i], b = shape[(i + 1) % shape.size()];
            for (int k = 0; k < 72; ++k)
            {
                const double ang = k * 3.14159265358979323846 / 36.0;
                CHECK(inside(g, a + glm::dvec2(std::cos(ang), std::sin(ang)) * c.grow, 1e-9));
            }
            const glm::dvec2 d = (b - a) / std::sqrt(glm::dot(b - a, b - a));
            for (int k = 0; k <= 10; ++k)
                CHECK(inside(g, a + (b - a) * (k / 10.0) + glm::dvec2(d.y, -d.x) * c.grow, 1e-9));
        }
        // No point further than 2 × grow from the nearest corner of the shape.
        for (const glm::dvec2& q : g)
        {
            double best = 1e30;
            for (const glm::dvec2& s : shape)
                best = std::min(best, std::sqrt(glm::dot(q - s, q - s)));
            CHECK(best <= 2.0 * c.grow + 1e-9);
        }
    }
    // The thin triangle's sharp corners are bevelled: more points than the shape.
    CHECK(grown(polygon({{0, 0}, {4, 0}, {0, 0.3f}}), glm::dvec2(0, 0), 0.3).size() > 3);
    // A box grown at right angles stays a box, half extents + growth.
    const Poly b = grown(box(1.0f, 0.5f, 0.0f), glm::dvec2(10, 10), 0.25);
    REQUIRE(b.size() == 4);
    CHECK(b[0].x == doctest::Approx(8.75));
    CHECK(b[0].y == doctest::Approx(9.25));
    CHECK(b[2].x == doctest::Approx(11.25));
    CHECK(b[2].y == doctest::Approx(10.75));
}

TEST_CASE("clipConvexLeft keeps the left side, shares points on the line, and drops what has no area")
{
    const Poly sq = rect(0, 0, 2, 2);
    Poly out;
    clipConvexLeft(sq, glm::dvec2(1, 0), glm::dvec2(1, 2), out); // left of x = 1 going +z: x < 1
    CHECK(area(out) == doctest::Approx(2.0));
    CHECK(convexCcw(out));
    clipConvexLeft(sq, glm::dvec2(0, 0), glm::dvec2(0, 2), out); // the whole square lies on the right
    CHECK(out.empty());
    clipConvexLeft(sq, glm::dvec2(0, 2), glm::dvec2(0, 0), out); // ... and so on the left of the reverse
    CHECK(area(out) == doctest::Approx(4.0));
    CHECK(out.size() == 4);
    // A line through two corners: no extra points.
    clipConvexLeft(sq, glm::dvec2(0, 0), glm::dvec2(2, 2), out);
    CHECK(out.size() == 3);
    CHECK(area(out) == doctest::Approx(2.0));
}

TEST_CASE("a square minus a square in its middle: four disjoint convex pieces of the right area")
{
    const Poly polygonP = rect(0, 0, 4, 4);
    const Poly cut = rect(1, 1, 3, 3);
    std::vector<Poly> pieces;
    subtractConvex(polygonP, cut, kMinCarvedPieceArea, pieces);
    CHECK(pieces.size() == 4);
    checkPieces(pieces);
    CHECK(totalArea(pieces) == doctest::Approx(12.0).epsilon(1e-12));
    checkCover(polygonP, {cut}, pieces, -0.5, 4.5);
    // A cut that misses leaves the polygon as it was; one that covers it leaves nothing.
    pieces.clear();
    subtractConvex(polygonP, rect(5, 5, 6, 6), kMinCarvedPieceArea, pieces);
    REQUIRE(pieces.size() == 1);
    CHECK(pieces[0] == polygonP);
    pieces.clear();
    subtractConvex(polygonP, rect(-1, -1, 5, 5), kMinCarvedPieceArea, pieces);
    CHECK(pieces.empty());
}

TEST_CASE("carveConvex: circles, turned boxes, overlapping and touching cuts keep area = base - covered")
{
    // A hexagon, as the 3D bake makes them.
    const Poly hex = {{0, 0}, {4, -1}, {8, 0}, {8, 5}, {4, 6}, {0, 5}};
    REQUIRE(convexCcw(hex));
    const double base = area(hex);
    struct Case
    {
        const char* name;
        std::vector<Poly> cuts;
    };
    const std::vector<Case> cases = {
        {"one circle inside", {grown(circle(1.0f), glm::dvec2(3, 2.5), 0.4)}},
        {"a circle over the edge", {grown(circle(1.0f), glm::dvec2(8, 2.5), 0.4)}},
        {"a turned box across", {grown(box(5.0f, 0.5f, 20.0f), glm::dvec2(4, 2.5), 0.4)}},
        {"a circle over a corner", {grown(circle(0.7f), glm::dvec2(4, 6), 0.0)}},
    };
    for (const Case& c : cases)
    {
        INFO(c.name);
        std::vector<Poly> pieces;
        carveConvex(hex, c.cuts, 6, pieces);
        checkPieces(pieces);
        const double covered = area(intersect(hex, c.cuts[0]));
        CHECK(totalArea(pieces) == doctest::Approx(base - covered).epsilon(1e-9));
        checkCover(hex, c.cuts, pieces, -1.0, 9.0);
    }
    // Two overlapping circles: inclusion-exclusion.
    {
        const Poly c1 = grown(circle(1.2f), glm::dvec2(3, 2.5), 0.3);
        const Poly c2 = grown(circle(1.2f), glm::dvec2(4.5, 3), 0.3);
        std::vector<Poly> pieces;
        carveConvex(hex, std::vector<Poly>{c1, c2}, 6, pieces);
        checkPieces(pieces);
        const double covered =
            area(intersect(hex, c1)) + area(intersect(hex, c2)) - area(intersect(intersect(hex, c1), c2));
        CHECK(totalArea(pieces) == doctest::Approx(base - covered).epsilon(1e-9));
        checkCover(hex, {c1, c2}, pieces, -1.0, 9.0);
    }
    // Two boxes touching along an edge: nothing left between them, no sliver.
    {
        const Poly b1 = rect(2, -2, 4, 7), b2 = rect(4, -2, 6, 7);
        std::vector<Poly> pieces;
        carveConvex(hex, std::vector<Poly>{b1, b2}, 6, pieces);
        checkPieces(pieces);
        CHECK(totalArea(pieces) == doctest::Approx(base - area(intersect(hex, rect(2, -2, 6, 7)))).epsilon(1e-9));
        for (const Poly& p : pieces)
            for (const glm::dvec2& v : p)
                CHECK((v.x <= 2.0 + 1e-9 || v.x >= 6.0 - 1e-9));
    }
    // A cut bigger than the polygon leaves nothing.
    {
        std::vector<Poly> pieces;
        carveConvex(hex, std::vector<Poly>{grown(circle(50.0f), glm::dvec2(4, 2), 0.4)}, 6, pieces);
        CHECK(pieces.empty());
    }
}

TEST_CASE("splitConvex cuts a many-sided polygon into convex pieces of at most maxVerts vertices")
{
    const Poly p = grown(circle(2.0f), glm::dvec2(0, 0), 0.0); // 12 sides
    for (uint32_t maxVerts : {3u, 4u, 6u, 12u})
    {
        std::vector<Poly> pieces;
        splitConvex(p, maxVerts, pieces);
        CHECK(totalArea(pieces) == doctest::Approx(area(p)).epsilon(1e-12));
        for (const Poly& q : pieces)
        {
            CHECK(q.size() <= maxVerts);
            CHECK(convexCcw(q));
        }
        if (maxVerts == 12)
            CHECK(pieces.size() == 1);
    }
}

TEST_CASE("mergeConvexPieces joins pieces across whole shared edges into convex polygons, keeping the area")
{
    // Two halves of a square join; an L of three squares does not become one (not convex).
    std::vector<Poly> halves = {rect(0, 0, 1, 2), rect(1, 0, 2, 2)};
    mergeConvexPieces(halves, 6);
    REQUIRE(halves.size() == 1);
    CHECK(area(halves[0]) == doctest::Approx(4.0));
    CHECK(halves[0].size() == 4); // the collinear points at the join are gone
    std::vector<Poly> ell = {rect(0, 0, 1, 1), rect(1, 0, 2, 1), rect(0, 1, 1, 2)};
    mergeConvexPieces(ell, 6);
    CHECK(ell.size() == 2);
    checkPieces(ell);
    CHECK(totalArea(ell) == doctest::Approx(3.0));
    // Too many points for the limit: a hexagon's two halves stay apart at 4.
    const Poly hex = {{0, 0}, {4, -1}, {8, 0}, {8, 5}, {4, 6}, {0, 5}};
    std::vector<Poly> split = {{{0, 0}, {4, -1}, {4, 6}, {0, 5}}, {{4, -1}, {8, 0}, {8, 5}, {4, 6}}};
    mergeConvexPieces(split, 4);
    CHECK(split.size() == 2);
    mergeConvexPieces(split, 6);
    REQUIRE(split.size() == 1);
    CHECK(area(split[0]) == doctest::Approx(area(hex)));
    // A circle carved out of the hexagon: fewer pieces, the same cover and area.
    const std::vector<Poly> cuts = {grown(circle(1.0f), glm::dvec2(3, 2.5), 0.4),
                                    grown(box(1.0f, 0.5f, 30.0f), glm::dvec2(6, 1.5), 0.2)};
    const std::vector<Poly> pieces = carvedAndMerged(hex, cuts);
    checkCover(hex, cuts, pieces, -1.0, 9.0);
}

TEST_CASE("carving is deterministic: the pieces of a fixed scene hash to a pinned value")
{
    const Poly hex = {{0, 0}, {4, -1}, {8, 0}, {8, 5}, {4, 6}, {0, 5}};
    const std::vector<Poly> cuts = {grown(circle(1.1f), glm::dvec2(2.7, 2.2), 0.4),
                                    grown(box(1.5f, 0.4f, 33.0f), glm::dvec2(5.5, 3.1), 0.4),
                                    grown(polygon({{0, 0}, {1, 0}, {0.5f, 0.8f}}), glm::dvec2(6.5, -0.5), 0.4)};
    std::vector<Poly> pieces, again;
    carveConvex(hex, cuts, 6, pieces);
    carveConvex(hex, cuts, 6, again);
    CHECK(pieces == again);
    checkPieces(pieces);
    const uint64_t hash = hashPieces(pieces);
    MESSAGE("pieces " << pieces.size() << " hash " << hash);
    CHECK(pieces.size() == 17);
    CHECK(hash == 4337371382216725184ull);
}

TEST_CASE("mergeConvexPieces of a polygon cut by many obstacles: the greedy order's result, pinned")
{
    // 40 circles and boxes over a big hexagon leave dozens of pieces and many
    // joins; the merge skips pairs that did not join before, which must not
    // change which pair joins first. Pinned from the plain greedy scan.
    const Poly hex = {{0, 0}, {40, -5}, {80, 0}, {80, 50}, {40, 55}, {0, 50}};
    std::vector<Poly> cuts;
    for (int k = 0; k < 40; ++k)
    {
        const glm::dvec2 at(4.0 + (k * 37 % 72), 3.0 + (k * 23 % 44));
        cuts.push_back(k % 2 == 0 ? grown(circle(0.5f + 0.05f * float(k % 7)), at, 0.6)
                                  : grown(box(1.0f, 0.5f, float(k * 17 % 180)), at, 0.6));
    }
    const std::vector<Poly> pieces = carvedAndMerged(hex, cuts);
    const uint64_t hash = hashPieces(pieces);
    MESSAGE("pieces " << pieces.size() << " hash " << hash);
    CHECK(hash == 17725175312995888808ull);
}
