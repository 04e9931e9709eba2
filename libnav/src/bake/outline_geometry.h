#pragma once
/// \file outline_geometry.h
/// Exact predicates on outline points in integer cell coordinates (x–z),
/// shared by the contour stage (checking moved junctions) and the polygon
/// stage (ear clipping). All in 64-bit integers: no rounding.

#include <cstdint>

namespace spark::nav::bake::outline
{

/// A point of an outline, in cells.
struct Point
{
    int64_t x, z;
};

/// Twice the signed area of triangle a, b, c (positive when c is left of a→b).
inline int64_t cross(const Point& a, const Point& b, const Point& c)
{
    return (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
}

inline bool collinear(const Point& a, const Point& b, const Point& c)
{
    return cross(a, b, c) == 0;
}

/// True when c lies on the closed segment a–b.
inline bool between(const Point& a, const Point& b, const Point& c)
{
    if (!collinear(a, b, c))
        return false;
    if (a.x != b.x)
        return (a.x <= c.x && c.x <= b.x) || (a.x >= c.x && c.x >= b.x);
    return (a.z <= c.z && c.z <= b.z) || (a.z >= c.z && c.z >= b.z);
}

/// True when the closed segments a–b and c–d meet: a proper crossing, or an
/// end of one on the other.
inline bool segmentsIntersect(const Point& a, const Point& b, const Point& c, const Point& d)
{
    const int64_t abc = cross(a, b, c), abd = cross(a, b, d), cda = cross(c, d, a), cdb = cross(c, d, b);
    if (((abc > 0) != (abd > 0)) && abc != 0 && abd != 0 && ((cda > 0) != (cdb > 0)) && cda != 0 && cdb != 0)
        return true;
    return between(a, b, c) || between(a, b, d) || between(c, d, a) || between(c, d, b);
}

} // namespace spark::nav::bake::outline
