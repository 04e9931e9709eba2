// Footprints and the geometry of carving (carve.h).
//
// Subtracting a convex cut C from a convex polygon P: walking C's edges in
// order, the part of what is left of P outside one edge (on its right) is a
// piece, and the part inside goes on to the next edge; what is left after the
// last edge is P ∩ C, the part carved away. Every piece is P cut by
// half-planes, so it is convex, and the pieces do not overlap. Several cuts
// are subtracted one after the other from every piece so far.
//
// Clipping classifies each vertex as in, on (within kOnLine of the line) or
// out; "on" vertices are kept by both sides, so a piece and its neighbour
// share their boundary exactly, and no intersection is made next to them.

#include "spark/nav/carve.h"

#include "spark/core/det_math.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace spark::nav
{
namespace
{

/// Distance within which a point lies on a clipping line. [Units: m]
constexpr double kOnLine = 1.0e-9;
/// Squared distance within which two points are one. [Units: m²]
constexpr double kSamePoint2 = 1.0e-18;

double cross(const glm::dvec2& a, const glm::dvec2& b) { return a.x * b.y - a.y * b.x; }
double dot(const glm::dvec2& a, const glm::dvec2& b) { return a.x * b.x + a.y * b.y; }
double length(const glm::dvec2& v) { return std::sqrt(dot(v, v)); }

bool finite2(const glm::vec2& v) { return std::isfinite(v.x) && std::isfinite(v.y); }

/// Outward unit normal of edge a → b of a counter-clockwise polygon (interior on the left).
glm::dvec2 outwardNormal(const glm::dvec2& a, const glm::dvec2& b)
{
    const glm::dvec2 d = b - a;
    return glm::dvec2(d.y, -d.x) / length(d);
}

/// Drops repeated and collinear points of a closed polygon, in place.
void cleanPolygon(std::vector<glm::dvec2>& p)
{
    bool changed = true;
    while (changed && p.size() >= 3)
    {
        changed = false;
        for (size_t i = 0; i < p.size() && p.size() >= 3; ++i)
        {
            const glm::dvec2& prev = p[(i + p.size() - 1) % p.size()];
            const glm::dvec2& here = p[i];
            const glm::dvec2& next = p[(i + 1) % p.size()];
            const glm::dvec2 d = next - prev;
            const double len = length(d);
            const bool same = dot(here - prev, here - prev) <= kSamePoint2;
            // Collinear: `here` within kOnLine of the line prev → next (and between them).
            const bool collinear = len > 0.0 && std::fabs(cross(d, here - prev)) <= kOnLine * len &&
                                   dot(here - prev, d) >= 0.0 && dot(next - here, d) >= 0.0;
            if (same || collinear)
            {
                p.erase(p.begin() + static_cast<std::ptrdiff_t>(i));
                changed = true;
                break;
            }
        }
    }
    if (p.size() < 3 || !(twiceSignedArea(p) > 0.0))
        p.clear();
}

bool boxesOverlap(std::span<const glm::dvec2> a, std::span<const glm::dvec2> b)
{
    glm::dvec2 aLo = a[0], aHi = a[0], bLo = b[0], bHi = b[0];
    for (const glm::dvec2& p : a)
    {
        aLo = glm::dvec2(std::min(aLo.x, p.x), std::min(aLo.y, p.y));
        aHi = glm::dvec2(std::max(aHi.x, p.x), std::max(aHi.y, p.y));
    }
    for (const glm::dvec2& p : b)
    {
        bLo = glm::dvec2(std::min(bLo.x, p.x), std::min(bLo.y, p.y));
        bHi = glm::dvec2(std::max(bHi.x, p.x), std::max(bHi.y, p.y));
    }
    return aLo.x < bHi.x && bLo.x < aHi.x && aLo.y < bHi.y && bLo.y < aHi.y;
}

/// Grows a convex counter-clockwise polygon by `grow` (see footprintPolygon).
std::vector<glm::dvec2> growConvex(const std::vector<glm::dvec2>& q, double grow)
{
    if (!(grow > 0.0))
        return q;
    std::vector<glm::dvec2> out;
    out.reserve(q.size() * 2);
    const size_t n = q.size();
    for (size_t i = 0; i < n; ++i)
    {
        const glm::dvec2& prev = q[(i + n - 1) % n];
        const glm::dvec2& at = q[i];
        const glm::dvec2& next = q[(i + 1) % n];
        const glm::dvec2 n1 = outwardNormal(prev, at), n2 = outwardNormal(at, next);
        const double c = dot(n1, n2);
        if (1.0 + c >= 0.5)
        {
            // The mitre: where the two moved edges meet, at most 2 × grow from the corner.
            out.push_back(at + (n1 + n2) * (grow / (1.0 + c)));
            continue;
        }
        // A sharp corner: cut by the tangent to the grow circle across the bisector.
        glm::dvec2 b = n1 + n2;
        const double bLen = length(b);
        b = bLen > 1.0e-12 ? b / bLen : glm::dvec2(-n1.y, n1.x);
        const glm::dvec2 u1 = (at - prev) / length(at - prev);
        const glm::dvec2 u2 = (next - at) / length(next - at);
        const double t = grow * (1.0 - dot(n1, b)) / std::max(dot(u1, b), 1.0e-12);
        const double s = grow * (1.0 - dot(n2, b)) / std::max(-dot(u2, b), 1.0e-12);
        out.push_back(at + n1 * grow + u1 * t);
        out.push_back(at + n2 * grow - u2 * s);
    }
    return out;
}

} // namespace

double twiceSignedArea(std::span<const glm::dvec2> polygon)
{
    double sum = 0.0;
    for (size_t i = 0; i < polygon.size(); ++i)
        sum += cross(polygon[i], polygon[(i + 1) % polygon.size()]);
    return sum;
}

Status validateFootprint(const FootprintDef& def)
{
    auto sizeOk = [](float v) { return std::isfinite(v) && v > 0.0f && v <= kMaxFootprintSize; };
    switch (def.shape)
    {
    case FootprintShape::Circle:
        if (!sizeOk(def.radius))
            return makeError("E_INVALID_PARAMS", "the radius is a number in (0, 1e4] m", "/shape/radius");
        break;
    case FootprintShape::Box:
        if (!sizeOk(def.halfExtents.x) || !sizeOk(def.halfExtents.y))
            return makeError("E_INVALID_PARAMS", "half extents are numbers in (0, 1e4] m", "/shape/half_extents");
        break;
    case FootprintShape::Polygon: {
        const size_t n = def.points.size();
        if (n < 3 || n > kMaxFootprintPoints)
            return makeError("E_INVALID_PARAMS", "a polygon footprint has 3..32 points", "/shape/points");
        for (size_t i = 0; i < n; ++i)
            if (!finite2(def.points[i]) || std::fabs(def.points[i].x) > kMaxFootprintSize ||
                std::fabs(def.points[i].y) > kMaxFootprintSize)
                return makeError("E_INVALID_PARAMS", "a point is a pair of finite numbers within 1e4 m",
                                 "/shape/points/" + std::to_string(i));
        std::vector<glm::dvec2> p(def.points.begin(), def.points.end());
        for (size_t i = 0; i < n; ++i)
            if (dot(p[(i + 1) % n] - p[i], p[(i + 1) % n] - p[i]) <= 1.0e-12)
                return makeError("E_INVALID_PARAMS", "two consecutive points are the same",
                                 "/shape/points/" + std::to_string((i + 1) % n));
        if (!(twiceSignedArea(p) > 0.0))
            return makeError("E_INVALID_PARAMS", "the polygon is clockwise or has no area; give it counter-clockwise",
                             "/shape/points");
        // Convex: every point on the left of (or on) every edge.
        for (size_t i = 0; i < n; ++i)
        {
            const glm::dvec2 a = p[i], d = p[(i + 1) % n] - p[i];
            for (size_t k = 0; k < n; ++k)
                if (cross(d, p[k] - a) < -1.0e-9 * length(d))
                    return makeError("E_INVALID_PARAMS", "the polygon is not convex", "/shape/points");
        }
        break;
    }
    default:
        return makeError("E_INVALID_PARAMS", "unknown footprint shape", "/shape/type");
    }
    if (!std::isfinite(def.angleDeg) || std::fabs(def.angleDeg) > 1.0e6f)
        return makeError("E_INVALID_PARAMS", "the angle is a finite number of degrees, at most 1e6", "/shape/angle_deg");
    return Status::success();
}

Result<std::vector<glm::dvec2>> footprintPolygon(const FootprintDef& def, const glm::dvec2& position, double grow)
{
    SPARK_TRY(validateFootprint(def));
    if (!std::isfinite(position.x) || !std::isfinite(position.y))
        return makeError("E_INVALID_PARAMS", "the position must be finite", "/position");
    if (!std::isfinite(grow) || grow < 0.0)
        return makeError("E_INVALID_PARAMS", "the growth is a finite number >= 0", "/grow");
    std::vector<glm::dvec2> shape;
    switch (def.shape)
    {
    case FootprintShape::Circle: {
        // A regular polygon whose edges touch the grown circle: nothing of it outside.
        const double r = static_cast<double>(def.radius) + grow;
        const double step = det::kTwoPi / kCircleFootprintSides;
        const double corner = r / det::cos(step * 0.5);
        for (uint32_t k = 0; k < kCircleFootprintSides; ++k)
        {
            double s = 0.0, c = 0.0;
            det::sinCos(step * (static_cast<double>(k) + 0.5), s, c);
            shape.push_back(position + glm::dvec2(c, s) * corner);
        }
        return shape;
    }
    case FootprintShape::Box: {
        const double hx = def.halfExtents.x, hz = def.halfExtents.y;
        for (const glm::dvec2 corner : {glm::dvec2(-hx, -hz), glm::dvec2(hx, -hz), glm::dvec2(hx, hz), glm::dvec2(-hx, hz)})
            shape.push_back(corner);
        break;
    }
    case FootprintShape::Polygon:
        shape.assign(def.points.begin(), def.points.end());
        break;
    }
    if (def.angleDeg != 0.0f)
    {
        double s = 0.0, c = 0.0;
        det::sinCos(static_cast<double>(def.angleDeg) * (det::kPi / 180.0), s, c);
        for (glm::dvec2& p : shape)
            p = glm::dvec2(p.x * c - p.y * s, p.x * s + p.y * c);
    }
    std::vector<glm::dvec2> grown = growConvex(shape, grow);
    for (glm::dvec2& p : grown)
        p += position;
    return grown;
}

void clipConvexLeft(std::span<const glm::dvec2> polygon, const glm::dvec2& a, const glm::dvec2& b,
                    std::vector<glm::dvec2>& out)
{
    out.clear();
    const glm::dvec2 d = b - a;
    const double len = length(d);
    if (polygon.size() < 3 || !(len > 0.0))
        return;
    auto side = [&](const glm::dvec2& p) { return cross(d, p - a) / len; }; // > 0: left
    const size_t n = polygon.size();
    for (size_t i = 0; i < n; ++i)
    {
        const glm::dvec2& p = polygon[i];
        const glm::dvec2& q = polygon[(i + 1) % n];
        const double sp = side(p), sq = side(q);
        if (sp >= -kOnLine)
            out.push_back(p);
        if ((sp > kOnLine && sq < -kOnLine) || (sp < -kOnLine && sq > kOnLine))
            out.push_back(p + (q - p) * (sp / (sp - sq)));
    }
    cleanPolygon(out);
}

void subtractConvex(std::span<const glm::dvec2> polygon, std::span<const glm::dvec2> cut, double minArea,
                    std::vector<std::vector<glm::dvec2>>& out)
{
    if (polygon.size() < 3)
        return;
    if (cut.size() < 3 || !boxesOverlap(polygon, cut))
    {
        out.emplace_back(polygon.begin(), polygon.end());
        return;
    }
    std::vector<glm::dvec2> left(polygon.begin(), polygon.end()), inside, piece;
    for (size_t k = 0; k < cut.size() && !left.empty(); ++k)
    {
        const glm::dvec2& a = cut[k];
        const glm::dvec2& b = cut[(k + 1) % cut.size()];
        clipConvexLeft(left, b, a, piece); // outside this edge of the cut
        if (!piece.empty() && twiceSignedArea(piece) * 0.5 >= minArea)
            out.push_back(piece);
        clipConvexLeft(left, a, b, inside);
        left.swap(inside);
    }
}

void splitConvex(std::span<const glm::dvec2> polygon, uint32_t maxVerts, std::vector<std::vector<glm::dvec2>>& out)
{
    maxVerts = std::max<uint32_t>(maxVerts, 3);
    if (polygon.size() <= maxVerts)
    {
        out.emplace_back(polygon.begin(), polygon.end());
        return;
    }
    // The diagonal from vertex 0 to the middle one halves the vertex count.
    const size_t n = polygon.size(), mid = n / 2;
    splitConvex(polygon.subspan(0, mid + 1), maxVerts, out);
    std::vector<glm::dvec2> rest(polygon.begin() + static_cast<std::ptrdiff_t>(mid), polygon.end());
    rest.push_back(polygon[0]);
    splitConvex(rest, maxVerts, out);
}

void carveConvex(std::span<const glm::dvec2> polygon, std::span<const std::vector<glm::dvec2>> cuts,
                 uint32_t maxVerts, std::vector<std::vector<glm::dvec2>>& out)
{
    out.clear();
    std::vector<std::vector<glm::dvec2>> pieces, next;
    pieces.emplace_back(polygon.begin(), polygon.end());
    for (const std::vector<glm::dvec2>& cut : cuts)
    {
        next.clear();
        for (const std::vector<glm::dvec2>& p : pieces)
            subtractConvex(p, cut, kMinCarvedPieceArea, next);
        pieces.swap(next);
        if (pieces.empty())
            break;
    }
    for (const std::vector<glm::dvec2>& p : pieces)
        splitConvex(p, maxVerts, out);
    std::erase_if(out, [](const std::vector<glm::dvec2>& p) { return twiceSignedArea(p) * 0.5 < kMinCarvedPieceArea; });
}

namespace
{

/// Points within the tolerance the clipping works to (kOnLine) count as one:
/// two pieces clipped off one line meet at points computed from either side.
bool samePoint(const glm::dvec2& a, const glm::dvec2& b)
{
    return std::fabs(a.x - b.x) <= kOnLine && std::fabs(a.y - b.y) <= kOnLine;
}

/// `a` and `b` joined across the edge a[i] → a[i + 1] = b[j + 1] → b[j], when
/// the union is convex with at most `maxVerts` points (collinear points at the
/// joins dropped); empty otherwise.
std::vector<glm::dvec2> joinAcross(std::span<const glm::dvec2> a, size_t i, std::span<const glm::dvec2> b, size_t j,
                                   uint32_t maxVerts)
{
    std::vector<glm::dvec2> u;
    const size_t na = a.size(), nb = b.size();
    for (size_t k = 0; k < na; ++k) // a from a[i + 1] round to a[i]
        u.push_back(a[(i + 1 + k) % na]);
    for (size_t k = 2; k < nb; ++k) // b's points off the shared edge, after b[j + 1] = a[i]
        u.push_back(b[(j + k) % nb]);
    cleanPolygon(u);
    if (u.size() < 3 || u.size() > maxVerts)
        return {};
    for (size_t k = 0; k < u.size(); ++k)
    {
        const glm::dvec2& p = u[k];
        const glm::dvec2& q = u[(k + 1) % u.size()];
        const glm::dvec2& r = u[(k + 2) % u.size()];
        const glm::dvec2 d = q - p;
        if (!(cross(d, r - q) > kOnLine * length(d))) // a reflex or flat corner at q
            return {};
    }
    return u;
}

} // namespace

void mergeConvexPieces(std::vector<std::vector<glm::dvec2>>& pieces, uint32_t maxVerts)
{
    maxVerts = std::max<uint32_t>(maxVerts, 3);
    // Greedy (Hertel–Mehlhorn): the first pair in (i, j, edge) order that
    // shares a whole edge and joins into a convex polygon is joined, until
    // no pair does. Each scan starts again from the first pair, but a pair
    // of pieces that did not join never will while both stay as they are:
    // such pairs are remembered (by piece ids; a joined piece takes a new id)
    // and skipped, which keeps the order and so the result, while the scans
    // cost a test per new pair instead of one per pair (a polygon cut by many
    // obstacles has dozens of pieces).
    const size_t ids = 2 * pieces.size() + 1; // every join makes one new id
    std::vector<uint32_t> id(pieces.size());
    for (size_t k = 0; k < id.size(); ++k)
        id[k] = static_cast<uint32_t>(k);
    uint32_t nextId = static_cast<uint32_t>(pieces.size());
    std::vector<uint8_t> apart(ids * ids, 0); // apart[x * ids + y]: pieces x and y do not join
    // Pieces whose boxes, grown by twice the point tolerance (samePoint's,
    // with room for rounding), do not meet share no edge.
    std::vector<std::array<glm::dvec2, 2>> box(pieces.size());
    auto boxOf = [](const std::vector<glm::dvec2>& piece) {
        if (piece.empty())
            return std::array<glm::dvec2, 2>{};
        std::array<glm::dvec2, 2> b{piece.front(), piece.front()};
        for (const glm::dvec2& q : piece)
            b = {glm::dvec2(std::min(b[0].x, q.x), std::min(b[0].y, q.y)),
                 glm::dvec2(std::max(b[1].x, q.x), std::max(b[1].y, q.y))};
        return b;
    };
    for (size_t k = 0; k < pieces.size(); ++k)
        box[k] = boxOf(pieces[k]);
    auto boxesMeet = [&](size_t i, size_t j) {
        constexpr double m = 2.0 * kOnLine;
        return box[i][0].x <= box[j][1].x + m && box[j][0].x <= box[i][1].x + m && box[i][0].y <= box[j][1].y + m &&
               box[j][0].y <= box[i][1].y + m;
    };
    bool joined = true;
    while (joined)
    {
        joined = false;
        for (size_t i = 0; i < pieces.size() && !joined; ++i)
            for (size_t j = i + 1; j < pieces.size() && !joined; ++j)
            {
                uint8_t& known = apart[id[i] * ids + id[j]];
                if (known)
                    continue;
                if (!boxesMeet(i, j))
                {
                    known = 1;
                    continue;
                }
                const std::vector<glm::dvec2>& a = pieces[i];
                const std::vector<glm::dvec2>& b = pieces[j];
                for (size_t ei = 0; ei < a.size() && !joined; ++ei)
                    for (size_t ej = 0; ej < b.size() && !joined; ++ej)
                    {
                        if (!samePoint(a[ei], b[(ej + 1) % b.size()]) || !samePoint(a[(ei + 1) % a.size()], b[ej]))
                            continue;
                        std::vector<glm::dvec2> u = joinAcross(a, ei, b, ej, maxVerts);
                        if (u.empty())
                            continue;
                        pieces[i] = std::move(u);
                        pieces.erase(pieces.begin() + static_cast<std::ptrdiff_t>(j));
                        id[i] = nextId++;
                        id.erase(id.begin() + static_cast<std::ptrdiff_t>(j));
                        box[i] = boxOf(pieces[i]);
                        box.erase(box.begin() + static_cast<std::ptrdiff_t>(j));
                        joined = true;
                    }
                if (!joined)
                    known = 1;
            }
    }
}

} // namespace spark::nav
