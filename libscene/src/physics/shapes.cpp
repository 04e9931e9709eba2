// Shapes of the physics subset: bounds, support points, GJK distance between
// cores, analytic ray casts and the swept test.
//
// GJK (Gilbert, Johnson, Keerthi 1988): the distance between two convex sets
// is the distance of their Minkowski difference A − B to the origin. Keep a
// simplex of up to four points of A − B; each round find the simplex's point v
// closest to the origin (Ericson's Voronoi-region routines for segment,
// triangle and tetrahedron, reducing the simplex to the feature that holds v),
// add the support point of A − B in direction −v, and stop when that point
// brings v no closer. Barycentric weights of v give the closest points on A
// and B. Everything is double precision with fixed tie rules.
//
// The sweep is conservative advancement (Mirtich 1996): with gap d and normal n
// from the obstacle to the mover, the mover can travel (d − skin)/(−motion·n)
// of the motion before the gap can have closed to the skin, because under a
// translation the gap is a convex function of time (it lies above its tangent).

#include "spark/scene/physics.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace spark::scene::physics
{
namespace
{

using glm::dvec3;

struct Vertex
{
    dvec3 w; // a − b
    dvec3 a;
    dvec3 b;
};

struct Simplex
{
    Vertex v[4];
    double lambda[4] = {0, 0, 0, 0};
    int n = 0;
};

// Closest point to the origin on segment v0 v1; keeps the feature that holds it.
dvec3 closestSegment(Simplex& s)
{
    const dvec3 a = s.v[0].w, b = s.v[1].w;
    const dvec3 ab = b - a;
    const double t = -glm::dot(a, ab);
    const double len2 = glm::dot(ab, ab);
    if (t <= 0.0 || len2 <= 0.0)
    {
        s.n = 1;
        s.lambda[0] = 1.0;
        return a;
    }
    if (t >= len2)
    {
        s.v[0] = s.v[1];
        s.n = 1;
        s.lambda[0] = 1.0;
        return b;
    }
    const double u = t / len2;
    s.lambda[0] = 1.0 - u;
    s.lambda[1] = u;
    return a + ab * u;
}

// Ericson 5.1.5 for the origin and triangle v0 v1 v2, reducing the simplex.
dvec3 closestTriangle(Simplex& s)
{
    const Vertex A = s.v[0], B = s.v[1], C = s.v[2];
    const dvec3 a = A.w, b = B.w, c = C.w;
    const dvec3 ab = b - a, ac = c - a, ap = -a;
    const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0)
    {
        s.n = 1;
        s.lambda[0] = 1.0;
        return a;
    }
    const dvec3 bp = -b;
    const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3)
    {
        s.v[0] = B;
        s.n = 1;
        s.lambda[0] = 1.0;
        return b;
    }
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0)
    {
        const double u = d1 / (d1 - d3);
        s.n = 2;
        s.lambda[0] = 1.0 - u;
        s.lambda[1] = u;
        return a + ab * u;
    }
    const dvec3 cp = -c;
    const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6)
    {
        s.v[0] = C;
        s.n = 1;
        s.lambda[0] = 1.0;
        return c;
    }
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0)
    {
        const double u = d2 / (d2 - d6);
        s.v[1] = C;
        s.n = 2;
        s.lambda[0] = 1.0 - u;
        s.lambda[1] = u;
        return a + ac * u;
    }
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
    {
        const double u = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        s.v[0] = B;
        s.v[1] = C;
        s.n = 2;
        s.lambda[0] = 1.0 - u;
        s.lambda[1] = u;
        return b + (c - b) * u;
    }
    const double sum = va + vb + vc;
    if (!(sum > 0.0))
    {
        // Degenerate (collinear) triangle: the best of its edges.
        Simplex e1{{A, B}, {}, 2}, e2{{B, C}, {}, 2}, e3{{A, C}, {}, 2};
        const dvec3 p1 = closestSegment(e1), p2 = closestSegment(e2), p3 = closestSegment(e3);
        const double q1 = glm::dot(p1, p1), q2 = glm::dot(p2, p2), q3 = glm::dot(p3, p3);
        if (q1 <= q2 && q1 <= q3)
        {
            s = e1;
            return p1;
        }
        if (q2 <= q3)
        {
            s = e2;
            return p2;
        }
        s = e3;
        return p3;
    }
    const double denom = 1.0 / sum;
    const double v = vb * denom, w = vc * denom;
    s.n = 3;
    s.lambda[0] = 1.0 - v - w;
    s.lambda[1] = v;
    s.lambda[2] = w;
    return a + ab * v + ac * w;
}

// Is the origin on the other side of plane (a, b, c) from d?
bool originOutsidePlane(const dvec3& a, const dvec3& b, const dvec3& c, const dvec3& d)
{
    const dvec3 n = glm::cross(b - a, c - a);
    const double signO = glm::dot(-a, n);
    const double signD = glm::dot(d - a, n);
    return signO * signD < 0.0;
}

// Ericson 5.1.6: closest point on a tetrahedron; n = 4 when the origin is inside.
dvec3 closestTetrahedron(Simplex& s)
{
    const Vertex V[4] = {s.v[0], s.v[1], s.v[2], s.v[3]};
    const dvec3 a = V[0].w, b = V[1].w, c = V[2].w, d = V[3].w;
    const double volume = glm::dot(glm::cross(b - a, c - a), d - a);
    const int faces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
    bool any = false;
    double best = 0.0;
    Simplex bestS;
    dvec3 bestP{0.0};
    const double edge = std::max({glm::length(b - a), glm::length(c - a), glm::length(d - a)});
    const bool flat = std::abs(volume) <= 1e-12 * edge * edge * edge;
    for (const auto& f : faces)
    {
        if (!flat && !originOutsidePlane(V[f[0]].w, V[f[1]].w, V[f[2]].w, V[f[3]].w))
            continue;
        Simplex t;
        t.v[0] = V[f[0]];
        t.v[1] = V[f[1]];
        t.v[2] = V[f[2]];
        t.n = 3;
        const dvec3 p = closestTriangle(t);
        const double q = glm::dot(p, p);
        if (!any || q < best)
        {
            any = true;
            best = q;
            bestS = t;
            bestP = p;
        }
    }
    if (!any)
    {
        s.n = 4; // inside
        return dvec3(0.0);
    }
    s = bestS;
    return bestP;
}

double maxAbs(const dvec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); }

} // namespace

Bounds shapeBounds(const Shape& s)
{
    dvec3 lo{0.0}, hi{0.0};
    switch (s.kind)
    {
    case CoreKind::Point:
        lo = hi = s.center;
        break;
    case CoreKind::Segment:
    {
        const dvec3 e = glm::abs(s.axis[1] * s.half.y);
        lo = s.center - e;
        hi = s.center + e;
        break;
    }
    case CoreKind::Box:
    {
        const dvec3 e = glm::abs(s.axis[0]) * s.half.x + glm::abs(s.axis[1]) * s.half.y + glm::abs(s.axis[2]) * s.half.z;
        lo = s.center - e;
        hi = s.center + e;
        break;
    }
    case CoreKind::Triangle:
        lo = glm::min(s.vertex[0], glm::min(s.vertex[1], s.vertex[2]));
        hi = glm::max(s.vertex[0], glm::max(s.vertex[1], s.vertex[2]));
        break;
    }
    const dvec3 r(s.radius);
    return {lo - r, hi + r};
}

Shape translated(const Shape& s, const dvec3& offset)
{
    Shape out = s;
    out.center += offset;
    if (s.kind == CoreKind::Triangle)
        for (dvec3& v : out.vertex)
            v += offset;
    return out;
}

dvec3 coreSupport(const Shape& s, const dvec3& dir)
{
    switch (s.kind)
    {
    case CoreKind::Point:
        return s.center;
    case CoreKind::Segment:
        return glm::dot(dir, s.axis[1]) >= 0.0 ? s.center + s.axis[1] * s.half.y : s.center - s.axis[1] * s.half.y;
    case CoreKind::Box:
    {
        dvec3 p = s.center;
        for (int i = 0; i < 3; ++i)
            p += s.axis[i] * (glm::dot(dir, s.axis[i]) >= 0.0 ? s.half[i] : -s.half[i]);
        return p;
    }
    case CoreKind::Triangle:
    {
        int best = 0;
        double bestDot = glm::dot(dir, s.vertex[0]);
        for (int i = 1; i < 3; ++i)
        {
            const double d = glm::dot(dir, s.vertex[i]);
            if (d > bestDot)
            {
                best = i;
                bestDot = d;
            }
        }
        return s.vertex[best];
    }
    }
    return s.center;
}

namespace
{

bool isRound(const Shape& s) { return s.kind == CoreKind::Point || s.kind == CoreKind::Segment; }

void endsOf(const Shape& s, dvec3& p, dvec3& q)
{
    if (s.kind == CoreKind::Point)
    {
        p = q = s.center;
        return;
    }
    p = s.center - s.axis[1] * s.half.y;
    q = s.center + s.axis[1] * s.half.y;
}

// Closest points of segments p1 q1 and p2 q2 (Ericson 5.1.9); a segment may be a point.
CoreDistance segmentSegment(const dvec3& p1, const dvec3& q1, const dvec3& p2, const dvec3& q2)
{
    const dvec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const double a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
    double s = 0.0, t = 0.0;
    if (a <= 0.0 && e <= 0.0)
    {
    }
    else if (a <= 0.0)
        t = std::clamp(f / e, 0.0, 1.0);
    else
    {
        const double c = glm::dot(d1, r);
        if (e <= 0.0)
            s = std::clamp(-c / a, 0.0, 1.0);
        else
        {
            const double b = glm::dot(d1, d2);
            const double denom = a * e - b * b;
            s = denom > 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0)
            {
                t = 0.0;
                s = std::clamp(-c / a, 0.0, 1.0);
            }
            else if (t > 1.0)
            {
                t = 1.0;
                s = std::clamp((b - c) / a, 0.0, 1.0);
            }
        }
    }
    CoreDistance out;
    out.onA = p1 + d1 * s;
    out.onB = p2 + d2 * t;
    out.distance = glm::length(out.onA - out.onB);
    out.overlap = !(out.distance > 0.0);
    return out;
}

// Closest points of segment p q (a point when p == q) and an oriented box.
// In the box's frame the squared distance along the segment is a piecewise
// quadratic whose pieces change where the segment crosses a face plane: split
// at those crossings (at most 6), minimise each piece in closed form, keep the
// smallest. Exact up to rounding, in a fixed order.
CoreDistance segmentBox(const dvec3& p, const dvec3& q, const Shape& box)
{
    const dvec3 rel = p - box.center;
    const dvec3 seg = q - p;
    double o[3], d[3];
    for (int i = 0; i < 3; ++i)
    {
        o[i] = glm::dot(rel, box.axis[i]);
        d[i] = glm::dot(seg, box.axis[i]);
    }
    const double h[3] = {box.half.x, box.half.y, box.half.z};
    double cuts[8];
    int n = 0;
    cuts[n++] = 0.0;
    for (int i = 0; i < 3; ++i)
        if (d[i] != 0.0)
            for (const double bound : {-h[i], h[i]})
            {
                const double t = (bound - o[i]) / d[i];
                if (t > 0.0 && t < 1.0)
                    cuts[n++] = t;
            }
    cuts[n++] = 1.0;
    for (int i = 1; i < n; ++i) // insertion sort of at most 8 values
        for (int j = i; j > 0 && cuts[j] < cuts[j - 1]; --j)
            std::swap(cuts[j], cuts[j - 1]);
    double bestT = 0.0, best = -1.0;
    for (int k = 0; k + 1 < n; ++k)
    {
        const double ta = cuts[k], tb = cuts[k + 1];
        const double tm = 0.5 * (ta + tb);
        double a = 0.0, b = 0.0;
        for (int i = 0; i < 3; ++i)
        {
            const double x = o[i] + d[i] * tm;
            if (x >= -h[i] && x <= h[i])
                continue; // inside this slab on the whole piece
            const double bound = x < -h[i] ? -h[i] : h[i];
            a += d[i] * d[i];
            b += d[i] * (o[i] - bound);
        }
        double t = a > 0.0 ? std::clamp(-b / a, ta, tb) : ta;
        double dist2 = 0.0;
        for (int i = 0; i < 3; ++i)
        {
            const double x = o[i] + d[i] * t;
            const double over = x < -h[i] ? x + h[i] : (x > h[i] ? x - h[i] : 0.0);
            dist2 += over * over;
        }
        if (best < 0.0 || dist2 < best)
        {
            best = dist2;
            bestT = t;
        }
    }
    CoreDistance out;
    out.onA = p + seg * bestT;
    dvec3 onB = box.center;
    for (int i = 0; i < 3; ++i)
        onB += box.axis[i] * std::clamp(o[i] + d[i] * bestT, -h[i], h[i]);
    out.onB = onB;
    out.distance = std::sqrt(best);
    out.overlap = !(out.distance > 0.0);
    return out;
}

} // namespace

CoreDistance coreDistance(const Shape& A, const Shape& B)
{
    if (isRound(A) && B.kind == CoreKind::Box)
    {
        dvec3 p, q;
        endsOf(A, p, q);
        return segmentBox(p, q, B);
    }
    if (A.kind == CoreKind::Box && isRound(B))
    {
        dvec3 p, q;
        endsOf(B, p, q);
        CoreDistance d = segmentBox(p, q, A);
        std::swap(d.onA, d.onB);
        return d;
    }
    if (isRound(A) && isRound(B))
    {
        // Points and segments: exact closest points, no iteration.
        dvec3 p1, q1, p2, q2;
        endsOf(A, p1, q1);
        endsOf(B, p2, q2);
        return segmentSegment(p1, q1, p2, q2);
    }
    CoreDistance out;
    Simplex s;
    dvec3 v = coreSupport(A, dvec3(1, 0, 0)) - coreSupport(B, dvec3(-1, 0, 0));
    {
        // Start from a real vertex of A − B.
        const dvec3 a = coreSupport(A, -v), b = coreSupport(B, v);
        s.v[0] = {a - b, a, b};
        s.n = 1;
        s.lambda[0] = 1.0;
        v = a - b;
    }
    const double scale = 1.0 + maxAbs(A.center) + maxAbs(B.center) + maxAbs(A.half) + maxAbs(B.half);
    const double tiny = 1e-24 * scale * scale;
    double lastDist2 = glm::dot(v, v);
    for (int iter = 0; iter < 64; ++iter)
    {
        const double dist2 = glm::dot(v, v);
        if (dist2 <= tiny)
        {
            out.overlap = true;
            break;
        }
        const dvec3 a = coreSupport(A, -v), b = coreSupport(B, v);
        const dvec3 w = a - b;
        // No support point brings v closer: v is the closest point.
        if (dist2 - glm::dot(v, w) <= 1e-13 * dist2 + 1e-30)
            break;
        bool repeated = false;
        for (int i = 0; i < s.n; ++i)
            if (s.v[i].w == w)
                repeated = true;
        if (repeated)
            break;
        s.v[s.n++] = {w, a, b};
        Simplex next = s;
        dvec3 p{0.0};
        if (next.n == 2)
            p = closestSegment(next);
        else if (next.n == 3)
            p = closestTriangle(next);
        else
            p = closestTetrahedron(next);
        if (next.n == 4)
        {
            out.overlap = true;
            s = next;
            break;
        }
        const double d2 = glm::dot(p, p);
        if (d2 >= lastDist2)
            break; // no progress: keep the previous simplex and v
        lastDist2 = d2;
        s = next;
        v = p;
    }
    if (out.overlap)
    {
        out.distance = 0.0;
        out.onA = out.onB = dvec3(0.0);
        return out;
    }
    // The weights of the current simplex (after reduction) give the closest points.
    Simplex final = s;
    if (final.n == 1)
        final.lambda[0] = 1.0;
    else if (final.n == 2)
        closestSegment(final);
    else if (final.n == 3)
        closestTriangle(final);
    dvec3 pa{0.0}, pb{0.0};
    for (int i = 0; i < final.n; ++i)
    {
        pa += final.v[i].a * final.lambda[i];
        pb += final.v[i].b * final.lambda[i];
    }
    out.onA = pa;
    out.onB = pb;
    out.distance = glm::length(pa - pb);
    return out;
}

Gap shapeGap(const Shape& a, const Shape& b)
{
    const CoreDistance d = coreDistance(a, b);
    Gap g;
    if (d.overlap || d.distance <= 0.0)
    {
        g.overlap = true;
        g.gap = -(a.radius + b.radius);
        return g;
    }
    g.gap = d.distance - a.radius - b.radius;
    g.normal = (d.onA - d.onB) / d.distance;
    return g;
}

namespace
{

RayHit insideHit(const dvec3& from)
{
    RayHit h;
    h.hit = true;
    h.fraction = 0.0;
    h.point = from;
    return h;
}

// Segment o + t·d, t in [0, 1], against a sphere; nullopt-like miss as hit = false.
RayHit raySphere(const dvec3& c, double r, const dvec3& o, const dvec3& d)
{
    RayHit h;
    const dvec3 m = o - c;
    const double cc = glm::dot(m, m) - r * r;
    if (cc <= 0.0)
        return insideHit(o);
    const double a = glm::dot(d, d);
    const double b = glm::dot(m, d);
    if (a <= 0.0 || b >= 0.0)
        return h;
    const double disc = b * b - a * cc;
    if (disc < 0.0)
        return h;
    const double t = (-b - std::sqrt(disc)) / a;
    if (t < 0.0 || t > 1.0)
        return h;
    h.hit = true;
    h.fraction = t;
    h.point = o + d * t;
    h.normal = (h.point - c) / r;
    return h;
}

RayHit rayCapsule(const Shape& s, const dvec3& o, const dvec3& d)
{
    const dvec3 p0 = s.center - s.axis[1] * s.half.y;
    const dvec3 p1 = s.center + s.axis[1] * s.half.y;
    const double r = s.radius;
    // Inside: the start is within r of the segment.
    {
        const dvec3 ab = p1 - p0;
        const double len2 = glm::dot(ab, ab);
        const double t = len2 > 0.0 ? std::clamp(glm::dot(o - p0, ab) / len2, 0.0, 1.0) : 0.0;
        const dvec3 q = p0 + ab * t;
        if (glm::dot(o - q, o - q) <= r * r)
            return insideHit(o);
    }
    RayHit best;
    // The cylinder's side: remove the axis component.
    const dvec3 ax = s.axis[1];
    const dvec3 m = o - p0;
    const dvec3 dPerp = d - ax * glm::dot(d, ax);
    const dvec3 mPerp = m - ax * glm::dot(m, ax);
    const double a = glm::dot(dPerp, dPerp);
    const double b = glm::dot(mPerp, dPerp);
    const double c = glm::dot(mPerp, mPerp) - r * r;
    if (a > 0.0 && c > 0.0 && b < 0.0)
    {
        const double disc = b * b - a * c;
        if (disc >= 0.0)
        {
            const double t = (-b - std::sqrt(disc)) / a;
            if (t >= 0.0 && t <= 1.0)
            {
                const dvec3 p = o + d * t;
                const double along = glm::dot(p - p0, ax);
                if (along >= 0.0 && along <= 2.0 * s.half.y)
                {
                    best.hit = true;
                    best.fraction = t;
                    best.point = p;
                    best.normal = glm::normalize(p - (p0 + ax * along));
                }
            }
        }
    }
    for (const dvec3& cap : {p0, p1})
    {
        const RayHit h = raySphere(cap, r, o, d);
        if (h.hit && (!best.hit || h.fraction < best.fraction))
            best = h;
    }
    return best;
}

RayHit rayBox(const Shape& s, const dvec3& o, const dvec3& d)
{
    RayHit h;
    const dvec3 rel = o - s.center;
    double tmin = 0.0, tmax = 1.0;
    int axis = -1;
    double sign = 0.0;
    bool inside = true;
    for (int i = 0; i < 3; ++i)
    {
        const double oi = glm::dot(rel, s.axis[i]);
        const double di = glm::dot(d, s.axis[i]);
        const double e = s.half[i];
        if (oi < -e || oi > e)
            inside = false;
        if (di == 0.0)
        {
            if (oi < -e || oi > e)
                return h;
            continue;
        }
        double t1 = (-e - oi) / di, t2 = (e - oi) / di;
        double enterSign = -1.0; // entering through the −e face
        if (t1 > t2)
        {
            std::swap(t1, t2);
            enterSign = 1.0;
        }
        if (t1 > tmin)
        {
            tmin = t1;
            axis = i;
            sign = enterSign;
        }
        tmax = std::min(tmax, t2);
        if (tmin > tmax)
            return h;
    }
    if (inside)
        return insideHit(o);
    if (axis < 0)
        return h;
    h.hit = true;
    h.fraction = tmin;
    h.point = o + d * tmin;
    h.normal = s.axis[axis] * sign;
    return h;
}

RayHit rayTriangle(const Shape& s, const dvec3& o, const dvec3& d)
{
    // Möller–Trumbore, two-sided.
    RayHit h;
    const dvec3 e1 = s.vertex[1] - s.vertex[0], e2 = s.vertex[2] - s.vertex[0];
    const dvec3 p = glm::cross(d, e2);
    const double det = glm::dot(e1, p);
    if (det == 0.0)
        return h;
    const double inv = 1.0 / det;
    const dvec3 t0 = o - s.vertex[0];
    const double u = glm::dot(t0, p) * inv;
    if (u < 0.0 || u > 1.0)
        return h;
    const dvec3 q = glm::cross(t0, e1);
    const double v = glm::dot(d, q) * inv;
    if (v < 0.0 || u + v > 1.0)
        return h;
    const double t = glm::dot(e2, q) * inv;
    if (t < 0.0 || t > 1.0)
        return h;
    dvec3 n = glm::normalize(glm::cross(e1, e2));
    if (glm::dot(n, d) > 0.0)
        n = -n;
    h.hit = true;
    h.fraction = t;
    h.point = o + d * t;
    h.normal = n;
    return h;
}

} // namespace

RayHit raycastShape(const Shape& s, const dvec3& from, const dvec3& to)
{
    const dvec3 d = to - from;
    switch (s.kind)
    {
    case CoreKind::Point:
        return raySphere(s.center, s.radius, from, d);
    case CoreKind::Segment:
        return rayCapsule(s, from, d);
    case CoreKind::Box:
        return rayBox(s, from, d);
    case CoreKind::Triangle:
        return rayTriangle(s, from, d);
    }
    return {};
}

SweepHit sweepShape(const Shape& mover, const dvec3& motion, const Shape& obstacle)
{
    SweepHit out;
    double t = 0.0;
    for (int iter = 0; iter < 32; ++iter)
    {
        const Gap g = shapeGap(translated(mover, motion * t), obstacle);
        if (g.overlap)
            return out; // cores overlap: let it through (it can only get out)
        const double approach = -glm::dot(motion, g.normal);
        if (g.gap <= kSkin)
        {
            if (t == 0.0 && approach <= 0.0)
                return out; // already close but moving away or along
            out.hit = true;
            out.fraction = t;
            out.normal = g.normal;
            return out;
        }
        if (approach <= 1e-12)
            return out;
        const double dt = (g.gap - kSkin) / approach;
        t += dt;
        if (t >= 1.0)
            return out;
        if (dt <= 1e-9 && g.gap - kSkin <= 1e-9)
        {
            out.hit = true;
            out.fraction = t;
            out.normal = g.normal;
            return out;
        }
    }
    // Out of rounds: stop where it is safe.
    out.hit = true;
    out.fraction = t;
    out.normal = shapeGap(translated(mover, motion * t), obstacle).normal;
    return out;
}

} // namespace spark::scene::physics
