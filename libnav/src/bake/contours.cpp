/// \file contours.cpp
/// Stage 5 of the 3D bake: region outlines.
///
/// Design note. As in Recast's `rcBuildContours` (M. Mononen, Recast
/// Navigation, `RecastContour.cpp`), each region's outline is walked along the
/// cell edges that separate it from anything else, keeping a hand on the
/// boundary: on a boundary edge record its start corner and turn one way,
/// otherwise step into the neighbour span and turn the other way. Every corner
/// carries the region on the far side of its edge and the corner height (the
/// highest of the up to four floors round it).
///
/// Before simplification, the border ends a monotone sweep leaves on
/// obstacles' corners move a step or two along the wall (see
/// findJunctionMoves), where the outlines stay simple.
///
/// Simplification keeps the corners where the far-side region changes (so
/// neighbouring regions keep common vertices), then refines every stretch with
/// Douglas–Peucker (D. Douglas, T. Peucker, 1973) to within
/// max_simplification_error cells, and halves edges longer than max_edge_len.
/// Both refinements walk a stretch from its lexicographically smaller end, so
/// two regions sharing a border choose the same points from either side. An
/// outline that collapses to two points (a region thinner than the error) gets
/// the farthest corner of both its stretches back. Last, simplified outlines
/// of different regions at one height must not cross (a wall edge straying
/// over a region that touches it only at a corner): such wall edges get
/// corners back until none does (separateCrossingOutlines).
/// Outlines come out with positive winding in the x–z plane; a degenerate or
/// hole-shaped outline is marked for the row-run fallback.

#include "bake_stages.h"
#include "outline_geometry.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <span>
#include <tuple>

namespace spark::nav::bake
{
namespace
{

/// A traced corner: position in cells and the far-side region of the edge it ends.
struct RawVertex
{
    int32_t x, y, z;
    uint32_t farRegion;
};

struct SimpleVertex
{
    int32_t x, y, z;
    int32_t raw; ///< Index of the raw vertex it came from.
};

/// Squared distance of point (px, pz) to segment a–b, in cells².
[[gnu::always_inline]] inline float distanceToSegment2(int px, int pz, int ax, int az, int bx, int bz)
{
    const float dx = static_cast<float>(bx - ax);
    const float dz = static_cast<float>(bz - az);
    float ex = static_cast<float>(px - ax);
    float ez = static_cast<float>(pz - az);
    const float len2 = dx * dx + dz * dz;
    float t = len2 > 0.0f ? (dx * ex + dz * ez) / len2 : 0.0f;
    t = std::clamp(t, 0.0f, 1.0f);
    ex -= dx * t;
    ez -= dz * t;
    return ex * ex + ez * ez;
}

/// True when b lies after a in the canonical (x, then z) order.
inline bool canonicalForward(int ax, int az, int bx, int bz)
{
    return bx > ax || (bx == ax && bz > az);
}

/// The raw corner farthest from segment a–b (x–z) among those from `first`
/// up to `end` (excluded), walking by `step` (1 forward, n - 1 back); -1 when
/// none is off the segment. The first of equally far corners wins.
struct Farthest
{
    int corner = -1;
    float dist2 = 0.0f; ///< [Units: cells²]
};
Farthest farthestCorner(std::span<const RawVertex> raw, int first, int end, int step, int ax, int az, int bx, int bz)
{
    const int n = static_cast<int>(raw.size());
    Farthest out;
    // (ci + step) % n without a division per corner.
    for (int ci = first; ci != end; ci = ci + step >= n ? ci + step - n : ci + step)
    {
        const float d = distanceToSegment2(raw[ci].x, raw[ci].z, ax, az, bx, bz);
        if (d > out.dist2)
            out = {ci, d};
    }
    return out;
}

/// True when the stretch that ends at raw corner `end` is a wall: nothing
/// walkable beyond it, or a region of another area.
inline bool wallStretch(std::span<const RawVertex> raw, const std::vector<uint8_t>& regionArea, uint8_t area,
                        int end)
{
    const uint32_t far = raw[static_cast<size_t>(end)].farRegion;
    return far == 0 || regionArea[far] != area;
}

void simplifyOutline(std::span<const RawVertex> raw, const std::vector<uint8_t>& regionArea, uint8_t area,
                     const CellSettings& cells, std::vector<SimpleVertex>& out)
{
    const int n = static_cast<int>(raw.size());
    out.clear();
    // Keep the corners where the far side changes. Corner i ends edge i (whose
    // far side it carries) and starts edge i + 1.
    for (int i = 0; i < n; ++i)
    {
        const int next = i + 1 == n ? 0 : i + 1;
        if (raw[i].farRegion != raw[next].farRegion)
            out.push_back({raw[i].x, raw[i].y, raw[i].z, i});
    }
    if (out.empty())
    {
        // One neighbour all round: start from the lowest-left and highest-right corners.
        int lo = 0, hi = 0;
        for (int i = 1; i < n; ++i)
        {
            if (raw[i].x < raw[lo].x || (raw[i].x == raw[lo].x && raw[i].z < raw[lo].z))
                lo = i;
            if (raw[i].x > raw[hi].x || (raw[i].x == raw[hi].x && raw[i].z > raw[hi].z))
                hi = i;
        }
        out.push_back({raw[lo].x, raw[lo].y, raw[lo].z, lo});
        if (hi != lo)
            out.push_back({raw[hi].x, raw[hi].y, raw[hi].z, hi});
    }

    // Douglas–Peucker on every wall stretch, always scanned from its canonical
    // start. A stretch between two regions of one area stays straight: both
    // regions keep exactly its two ends, as Recast's contours do.
    const float maxError2 = cells.maxError * cells.maxError;
    for (size_t i = 0; i < out.size();)
    {
        const size_t ii = (i + 1) % out.size();
        int ax = out[i].x, az = out[i].z, ai = out[i].raw;
        int bx = out[ii].x, bz = out[ii].z, bi = out[ii].raw;
        if (!wallStretch(raw, regionArea, area, bi))
        {
            ++i;
            continue;
        }
        int step, ci, endi;
        if (canonicalForward(ax, az, bx, bz))
        {
            step = 1;
            ci = (ai + 1) % n;
            endi = bi;
        }
        else
        {
            step = n - 1;
            ci = (bi + n - 1) % n;
            endi = ai;
            std::swap(ax, bx);
            std::swap(az, bz);
        }
        const auto [maxI, maxD] = farthestCorner(raw, ci, endi, step, ax, az, bx, bz);
        if (maxI != -1 && maxD > maxError2)
            out.insert(out.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                       SimpleVertex{raw[maxI].x, raw[maxI].y, raw[maxI].z, maxI});
        else
            ++i;
    }

    // A thin region can collapse to a segment within the error: put back the
    // farthest corner of each stretch so it keeps an area.
    if (out.size() == 2)
    {
        std::vector<SimpleVertex> widened;
        for (size_t i = 0; i < 2; ++i)
        {
            const SimpleVertex& a = out[i];
            const SimpleVertex& b = out[1 - i];
            widened.push_back(a);
            const int maxI = farthestCorner(raw, (a.raw + 1) % n, b.raw, 1, a.x, a.z, b.x, b.z).corner;
            if (maxI != -1)
                widened.push_back({raw[maxI].x, raw[maxI].y, raw[maxI].z, maxI});
        }
        out.swap(widened);
    }

    // Halve edges longer than the limit, at the middle raw corner counted canonically.
    if (cells.maxEdgeLen > 0)
    {
        const int64_t maxLen2 = static_cast<int64_t>(cells.maxEdgeLen) * cells.maxEdgeLen;
        for (size_t i = 0; i < out.size();)
        {
            const size_t ii = (i + 1) % out.size();
            const int ai = out[i].raw, bi = out[ii].raw;
            const int64_t dx = out[ii].x - out[i].x;
            const int64_t dz = out[ii].z - out[i].z;
            const int span = (bi - ai + n) % n;
            int mid = -1;
            if (dx * dx + dz * dz > maxLen2 && span > 1 && wallStretch(raw, regionArea, area, bi))
            {
                if (canonicalForward(out[i].x, out[i].z, out[ii].x, out[ii].z))
                    mid = (ai + span / 2) % n;
                else
                    mid = (ai + (span + 1) / 2) % n;
            }
            if (mid != -1)
                out.insert(out.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                           SimpleVertex{raw[mid].x, raw[mid].y, raw[mid].z, mid});
            else
                ++i;
        }
    }

    // Drop repeated positions.
    for (size_t i = 0; i < out.size() && out.size() > 1;)
    {
        const size_t ii = (i + 1) % out.size();
        if (out[i].x == out[ii].x && out[i].z == out[ii].z)
            out.erase(out.begin() + static_cast<std::ptrdiff_t>(ii));
        else
            ++i;
    }
}

/// True when the segments a–b and c–d cross at a point inside both (x–z, cells).
inline bool properlyCross(const SimpleVertex& a, const SimpleVertex& b, const SimpleVertex& c, const SimpleVertex& d)
{
    using outline::Point;
    const Point pa{a.x, a.z}, pb{b.x, b.z}, pc{c.x, c.z}, pd{d.x, d.z};
    const int64_t abc = outline::cross(pa, pb, pc), abd = outline::cross(pa, pb, pd);
    const int64_t cda = outline::cross(pc, pd, pa), cdb = outline::cross(pc, pd, pb);
    return ((abc > 0 && abd < 0) || (abc < 0 && abd > 0)) && ((cda > 0 && cdb < 0) || (cda < 0 && cdb > 0));
}

/// Makes simplified outlines of different regions stop crossing each other.
///
/// Douglas–Peucker lets a wall edge stray up to the error (1.3 cells by
/// default) off its region, over cells beyond the wall. Where those cells
/// belong to another region at about the same height (one touching this
/// region only at a corner, or across a wall one cell thick), the two
/// outlines cross and their polygons overlap (e.g. a one-cell island diagonal
/// to a long sloped wall, issue 33). Every wall edge that crosses an edge of
/// another outline within `heightMargin` cells of its height gets the
/// farthest corner of its stretch back, as Douglas–Peucker would past the
/// error, until no such crossing is left: the traced outlines never cross, so
/// this ends. Outlines that cross nothing keep their vertices (and the
/// meshes their bytes). Broad phase: outlines sorted by their x–z boxes.
void separateCrossingOutlines(const std::vector<std::span<const RawVertex>>& rawOf,
                              std::vector<std::vector<SimpleVertex>>& simpleOf, const std::vector<uint8_t>& areaOf,
                              const std::vector<uint8_t>& regionArea, int heightMargin)
{
    struct Box
    {
        int32_t x0, x1, z0, z1, y0, y1;
        uint32_t outline;
    };
    // The two edges' heights where they cross (interpolated between their
    // ends) closer than the margin: one floor, not two layers stacked.
    auto heightsMeet = [heightMargin](const SimpleVertex& a, const SimpleVertex& b, const SimpleVertex& c,
                                      const SimpleVertex& d) {
        using outline::Point;
        const Point pa{a.x, a.z}, pb{b.x, b.z}, pc{c.x, c.z}, pd{d.x, d.z};
        const double cda = static_cast<double>(outline::cross(pc, pd, pa));
        const double cdb = static_cast<double>(outline::cross(pc, pd, pb));
        const double abc = static_cast<double>(outline::cross(pa, pb, pc));
        const double abd = static_cast<double>(outline::cross(pa, pb, pd));
        const double t = cda / (cda - cdb), u = abc / (abc - abd);
        const double y1 = a.y + t * (b.y - a.y), y2 = c.y + u * (d.y - c.y);
        return std::fabs(y1 - y2) < heightMargin;
    };
    std::vector<std::vector<uint8_t>> refine(simpleOf.size());
    // The outlines that gained a corner in the last pass (every one before
    // the first). A pair of which neither did is as it was when last tested,
    // when the edges it marked had nothing to take back: it is not tested
    // again (on the 1 km terrain this halves the function's work).
    std::vector<uint8_t> changed(simpleOf.size(), 1), changedNow(simpleOf.size(), 0);
    for (bool again = true; again;)
    {
        again = false;
        std::vector<Box> boxes;
        for (uint32_t o = 0; o < simpleOf.size(); ++o)
        {
            const std::vector<SimpleVertex>& v = simpleOf[o];
            if (v.size() < 3)
                continue;
            Box b{v[0].x, v[0].x, v[0].z, v[0].z, v[0].y, v[0].y, o};
            for (const SimpleVertex& p : v)
            {
                b.x0 = std::min(b.x0, p.x), b.x1 = std::max(b.x1, p.x);
                b.z0 = std::min(b.z0, p.z), b.z1 = std::max(b.z1, p.z);
                b.y0 = std::min(b.y0, p.y), b.y1 = std::max(b.y1, p.y);
            }
            boxes.push_back(b);
            refine[o].assign(v.size(), 0);
        }
        std::sort(boxes.begin(), boxes.end(),
                  [](const Box& a, const Box& b) { return std::tie(a.x0, a.outline) < std::tie(b.x0, b.outline); });
        // Broad phase by bands of kBand rows: each box is listed (in the x
        // order above) in the bands it spans, and a pair of boxes is tested in
        // the band of the larger of their first rows only, so once. On a
        // single grid a sweep along x alone met every pair of outlines that
        // share columns, however far apart along z (a 1 km terrain: 56 % of
        // this function). Testing a pair only sets refine flags, so the
        // order of the pairs does not change the result.
        constexpr int32_t kBand = 64;
        int32_t zLow = 0;
        for (size_t i = 0; i < boxes.size(); ++i)
            zLow = i == 0 ? boxes[i].z0 : std::min(zLow, boxes[i].z0);
        auto bandOf = [zLow](int32_t z) { return static_cast<size_t>((z - zLow) / kBand); };
        std::vector<std::vector<uint32_t>> bands;
        for (uint32_t i = 0; i < boxes.size(); ++i)
        {
            const size_t last = bandOf(boxes[i].z1);
            if (bands.size() <= last)
                bands.resize(last + 1);
            for (size_t b = bandOf(boxes[i].z0); b <= last; ++b)
                bands[b].push_back(i);
        }
        // A wall edge k (from vertex k to k + 1) with corners between its ends can be refined.
        auto refinable = [&](uint32_t o, size_t k) {
            const std::vector<SimpleVertex>& v = simpleOf[o];
            const int n = static_cast<int>(rawOf[o].size());
            const int ai = v[k].raw, bi = v[(k + 1) % v.size()].raw;
            return (bi - ai + n) % n > 1 && wallStretch(rawOf[o], regionArea, areaOf[o], bi);
        };
        for (size_t band = 0; band < bands.size(); ++band)
        {
            const std::vector<uint32_t>& in = bands[band];
            for (size_t i = 0; i < in.size(); ++i)
                for (size_t j = i + 1; j < in.size() && boxes[in[j]].x0 <= boxes[in[i]].x1; ++j)
                {
                    const Box& A = boxes[in[i]];
                    const Box& B = boxes[in[j]];
                    if ((!changed[A.outline] && !changed[B.outline]) || A.z0 > B.z1 || B.z0 > A.z1 ||
                        A.y0 > B.y1 + heightMargin || B.y0 > A.y1 + heightMargin ||
                        bandOf(std::max(A.z0, B.z0)) != band)
                        continue;
                    const std::vector<SimpleVertex>& va = simpleOf[A.outline];
                    const std::vector<SimpleVertex>& vb = simpleOf[B.outline];
                    for (size_t e = 0; e < va.size(); ++e)
                    {
                        const SimpleVertex& a = va[e];
                        const SimpleVertex& b = va[e + 1 == va.size() ? 0 : e + 1]; // no division in this loop
                        for (size_t f = 0; f < vb.size(); ++f)
                        {
                            const SimpleVertex& c = vb[f];
                            const SimpleVertex& d = vb[f + 1 == vb.size() ? 0 : f + 1];
                            if (!properlyCross(a, b, c, d) || !heightsMeet(a, b, c, d))
                                continue;
                            if (refinable(A.outline, e))
                                refine[A.outline][e] = 1;
                            if (refinable(B.outline, f))
                                refine[B.outline][f] = 1;
                        }
                    }
                }
        }
        for (const Box& box : boxes)
        {
            std::vector<SimpleVertex>& v = simpleOf[box.outline];
            std::span<const RawVertex> raw = rawOf[box.outline];
            const int n = static_cast<int>(raw.size());
            for (size_t k = v.size(); k-- > 0;) // from the back, so the edges before stay where they are
            {
                if (!refine[box.outline][k])
                    continue;
                const SimpleVertex& a = v[k];
                const SimpleVertex& b = v[(k + 1) % v.size()];
                const int maxI = farthestCorner(raw, (a.raw + 1) % n, b.raw, 1, a.x, a.z, b.x, b.z).corner;
                if (maxI == -1)
                    continue;
                v.insert(v.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                         SimpleVertex{raw[maxI].x, raw[maxI].y, raw[maxI].z, maxI});
                changedNow[box.outline] = 1;
                again = true;
            }
        }
        changed.swap(changedNow);
        std::fill(changedNow.begin(), changedNow.end(), uint8_t{0});
    }
}

/// One region outline as traced, before simplification.
struct TracedOutline
{
    std::span<const RawVertex> raw; ///< Its corners (in the trace's one array).
    uint32_t region = 0;
    uint8_t area = kNullArea;
    bool usable = false; ///< Closed, with at least three corners.
};

/// A T-junction: a corner of `outline` where the border between `region` and
/// `other` (one area) meets a wall.
struct Junction
{
    int32_t x = 0, z = 0;
    uint32_t region = 0, other = 0;
    uint32_t outline = 0;
    int corner = 0;
};

inline bool junctionBefore(const Junction& a, const Junction& b)
{
    return std::tie(a.x, a.z, a.region, a.other) < std::tie(b.x, b.z, b.region, b.other);
}

inline bool sameJunction(const Junction& a, const Junction& b)
{
    return std::tie(a.x, a.z, a.region, a.other) == std::tie(b.x, b.z, b.region, b.other);
}

/// One junction moved along a wall by `steps` corners. Outline `a` has the
/// border before the wall at corner `ca`, outline `b` the wall before the
/// border at corner `cb` (the same point). `alongB`: the junction moves back
/// along b's wall (a's wall goes on straight), else forward along a's wall.
struct JunctionMove
{
    uint32_t a = 0, b = 0;
    int ca = 0, cb = 0;
    int steps = 0;
    bool alongB = false;
    uint32_t regionA = 0, regionB = 0;
};

/// Most wall corners a junction moves by.
constexpr int kJunctionSteps = 2;

inline size_t wrapIndex(int i, size_t n)
{
    const int m = static_cast<int>(n);
    const int r = i % m; // one division, not two
    return static_cast<size_t>(r < 0 ? r + m : r);
}

/// The T-junctions a monotone partition leaves on obstacles' corners, and how
/// far each moves.
///
/// A sweep row that an obstacle splits starts new regions, so a region border
/// runs along the obstacle's first row and meets the wall exactly at the
/// obstacle's corner. Both regions keep every border end, so that corner stays
/// a mesh vertex however little it sticks out, and paths bend round it (a
/// watershed partition's borders meet walls mid-face instead). Where one
/// region's wall goes on straight along the border's line and the other's
/// turns away at a right angle (the corner is then reflex: the walkable side
/// wraps round it), the junction moves up to kJunctionSteps corners along the
/// turning wall, as long as the corners it passes lie within the simplification
/// error of the border's line. The region on the straight side takes the thin
/// wedge between the old and the new border (both regions keep the same two
/// ends, so their shared edge stays one segment), and its wall stretch now
/// starts at the new junction, so simplification may cut the corner as it
/// would anywhere else on a wall. Deterministic: junctions are paired by
/// position and regions in sorted order, and each corner takes part in at most
/// one move.
std::vector<JunctionMove> findJunctionMoves(const std::vector<TracedOutline>& outlines,
                                            const std::vector<uint8_t>& regionArea, const CellSettings& cells)
{
    std::vector<JunctionMove> moves;
    std::vector<Junction> borderFirst, wallFirst;
    for (uint32_t o = 0; o < outlines.size(); ++o)
    {
        const TracedOutline& t = outlines[o];
        if (!t.usable)
            continue;
        const size_t n = t.raw.size();
        for (size_t c = 0; c < n; ++c)
        {
            const RawVertex& v = t.raw[c];
            const uint32_t next = t.raw[c + 1 == n ? 0 : c + 1].farRegion;
            if (v.farRegion != 0 && next == 0 && regionArea[v.farRegion] == t.area)
                borderFirst.push_back({v.x, v.z, t.region, v.farRegion, o, static_cast<int>(c)});
            else if (v.farRegion == 0 && next != 0 && regionArea[next] == t.area)
                wallFirst.push_back(
                    {v.x, v.z, next, t.region, o, static_cast<int>(c)}); // keyed as the other sees it
        }
    }
    if (borderFirst.empty() || wallFirst.empty())
        return moves;
    std::sort(wallFirst.begin(), wallFirst.end(), junctionBefore);

    std::vector<std::vector<uint8_t>> touched(outlines.size());
    auto touch = [&](uint32_t o) -> std::vector<uint8_t>&
    {
        if (touched[o].empty())
            touched[o].assign(outlines[o].raw.size(), 0);
        return touched[o];
    };
    const float maxError2 = cells.maxError * cells.maxError;

    for (const Junction& j : borderFirst)
    {
        // The matching corner of the other region's outline, where its wall comes first.
        const auto at = std::lower_bound(wallFirst.begin(), wallFirst.end(), j, junctionBefore);
        if (at == wallFirst.end() || !sameJunction(*at, j) ||
            (at + 1 != wallFirst.end() && sameJunction(at[1], j)) || at->outline == j.outline)
            continue;
        const std::span<const RawVertex> a = outlines[j.outline].raw;   // border, then a wall
        const std::span<const RawVertex> b = outlines[at->outline].raw; // a wall, then the border
        auto A = [&](int i) -> const RawVertex& { return a[wrapIndex(i, a.size())]; };
        auto B = [&](int i) -> const RawVertex& { return b[wrapIndex(i, b.size())]; };
        const int ca = j.corner, cb = at->corner;
        const RawVertex& v = A(ca);
        // Unit steps: the border's direction (in a's order), a's wall leaving v, b's wall reaching v.
        const int bx = v.x - A(ca - 1).x, bz = v.z - A(ca - 1).z;
        const int ax = A(ca + 1).x - v.x, az = A(ca + 1).z - v.z;
        const int wx = v.x - B(cb - 1).x, wz = v.z - B(cb - 1).z;
        if (std::abs(bx) + std::abs(bz) != 1 || B(cb + 1).x - v.x != -bx || B(cb + 1).z - v.z != -bz ||
            std::abs(ax) + std::abs(az) != 1 || std::abs(wx) + std::abs(wz) != 1)
            continue;
        // A border of two edges at least, seen from both sides.
        if (A(ca - 1).farRegion != j.other || B(cb + 2).farRegion != j.region)
            continue;
        const bool alongB = ax == bx && az == bz && wx * bx + wz * bz == 0;
        const bool alongA = wx == -bx && wz == -bz && ax * bx + az * bz == 0;
        if (!alongA && !alongB)
            continue;
        // Distance² of a corner from the border's line, in cells².
        auto offLine2 = [&](const RawVertex& p)
        {
            const float cr = static_cast<float>((p.x - v.x) * bz - (p.z - v.z) * bx);
            return cr * cr;
        };
        std::vector<uint8_t>& ta = touch(j.outline);
        std::vector<uint8_t>& tb = touch(at->outline);
        // The moved junction: b's corner cb - k or a's corner ca + k. Every wall
        // edge up to it and the one after it are walls (it lands inside the wall
        // stretch), the corners it passes lie near the border's line, no corner
        // involved is part of another move, and the wall goes on from it along
        // the obstacle's face (the turning wall's first direction), so that the
        // face keeps its line from there and only the corner is cut.
        int k = 0;
        for (int step = 1; step <= kJunctionSteps; ++step)
        {
            bool ok = alongB ? B(cb - step).farRegion == 0 && offLine2(B(cb - step + 1)) <= maxError2
                             : A(ca + step + 1).farRegion == 0 && offLine2(A(ca + step - 1)) <= maxError2;
            for (int t = 0; t <= step && ok; ++t)
                ok = alongB ? !tb[wrapIndex(cb - t, b.size())] : !ta[wrapIndex(ca + t, a.size())];
            if (!ok)
                break;
            const bool onFace =
                alongB
                    ? B(cb - step).x - B(cb - step - 1).x == wx && B(cb - step).z - B(cb - step - 1).z == wz
                    : A(ca + step + 1).x - A(ca + step).x == ax && A(ca + step + 1).z - A(ca + step).z == az;
            if (onFace)
                k = step;
        }
        if (k == 0 || (alongB ? ta[static_cast<size_t>(ca)] : tb[static_cast<size_t>(cb)]))
            continue;
        for (int t = 0; t <= k; ++t)
            (alongB ? tb[wrapIndex(cb - t, b.size())] : ta[wrapIndex(ca + t, a.size())]) = 1;
        (alongB ? ta[static_cast<size_t>(ca)] : tb[static_cast<size_t>(cb)]) = 1;
        moves.push_back({j.outline, at->outline, ca, cb, k, alongB, j.region, j.other});
    }
    return moves;
}

/// Where junction move `mv` puts the junction (x, z in cells).
std::pair<int32_t, int32_t> movedJunction(const std::vector<TracedOutline>& outlines, const JunctionMove& mv)
{
    const RawVertex& v = mv.alongB
                             ? outlines[mv.b].raw[wrapIndex(mv.cb - mv.steps, outlines[mv.b].raw.size())]
                             : outlines[mv.a].raw[wrapIndex(mv.ca + mv.steps, outlines[mv.a].raw.size())];
    return {v.x, v.z};
}

/// The moves that involve each outline: outline o's are `index[first[o]]`
/// to `index[first[o + 1]]` (indices into the moves, in their order).
struct MovesByOutline
{
    std::vector<uint32_t> first, index;

    MovesByOutline(size_t outlines, const std::vector<JunctionMove>& moves) : first(outlines + 1, 0)
    {
        for (const JunctionMove& mv : moves)
            ++first[mv.a + 1], ++first[mv.b + 1];
        for (size_t o = 0; o < outlines; ++o)
            first[o + 1] += first[o];
        index.resize(first[outlines]);
        std::vector<uint32_t> at(first.begin(), first.end() - 1);
        for (uint32_t m = 0; m < moves.size(); ++m)
            index[at[moves[m].a]++] = m, index[at[moves[m].b]++] = m;
    }
    std::span<const uint32_t> of(uint32_t o) const
    {
        return std::span<const uint32_t>(index).subspan(first[o], first[o + 1] - first[o]);
    }
};

/// Outline `o`'s corners with the enabled moves that involve it applied
/// (indices in `moves` are those of the traced outlines).
void applyJunctionMoves(const std::vector<TracedOutline>& outlines, uint32_t o,
                        const std::vector<JunctionMove>& moves, const MovesByOutline& movesOf,
                        const std::vector<uint8_t>& enabled, std::vector<RawVertex>& out)
{
    const std::span<const RawVertex> raw = outlines[o].raw;
    const size_t n = raw.size();
    std::vector<uint8_t> removed(n, 0);
    std::vector<uint32_t> far(n, UINT32_MAX);
    std::vector<std::pair<size_t, RawVertex>> before, after;
    for (const uint32_t m : movesOf.of(o))
    {
        const JunctionMove& mv = moves[m];
        if (!enabled[m])
            continue;
        if (mv.alongB && mv.a == o)
        {
            // The moved junction (b's corner) ends the border just before the old one, which now ends a wall
            // edge.
            const std::span<const RawVertex> b = outlines[mv.b].raw;
            RawVertex moved = b[wrapIndex(mv.cb - mv.steps, b.size())];
            moved.farRegion = mv.regionB;
            before.emplace_back(static_cast<size_t>(mv.ca), moved);
            far[static_cast<size_t>(mv.ca)] = 0;
        }
        else if (mv.alongB)
        {
            // b drops the wall corners from the old junction back to the moved one.
            for (int t = 0; t < mv.steps; ++t)
                removed[wrapIndex(mv.cb - t, n)] = 1;
        }
        else if (mv.a == o)
        {
            // a drops the wall corners from the old junction up to the moved one, which now ends the border.
            for (int t = 0; t < mv.steps; ++t)
                removed[wrapIndex(mv.ca + t, n)] = 1;
            far[wrapIndex(mv.ca + mv.steps, n)] = mv.regionB;
        }
        else
        {
            // The moved junction (a's corner) follows the old one, as the end of a wall edge.
            const std::span<const RawVertex> a = outlines[mv.a].raw;
            RawVertex moved = a[wrapIndex(mv.ca + mv.steps, a.size())];
            moved.farRegion = 0;
            after.emplace_back(static_cast<size_t>(mv.cb), moved);
        }
    }
    // Each corner takes part in one move at most: walk the insertions in corner order.
    auto byCorner = [](const std::pair<size_t, RawVertex>& x, const std::pair<size_t, RawVertex>& y)
    { return x.first < y.first; };
    std::sort(before.begin(), before.end(), byCorner);
    std::sort(after.begin(), after.end(), byCorner);
    out.clear();
    out.reserve(n + before.size() + after.size());
    size_t nextBefore = 0, nextAfter = 0;
    for (size_t c = 0; c < n; ++c)
    {
        for (; nextBefore < before.size() && before[nextBefore].first == c; ++nextBefore)
            out.push_back(before[nextBefore].second);
        if (!removed[c])
        {
            out.push_back(raw[c]);
            if (far[c] != UINT32_MAX)
                out.back().farRegion = far[c];
        }
        for (; nextAfter < after.size() && after[nextAfter].first == c; ++nextAfter)
            out.push_back(after[nextAfter].second);
    }
}

/// Marks in `changed` the edges of the simplified outline `v` (simplified from
/// the corners `raw`) that a junction move may have changed: those of the two
/// stretches on either side of each moved junction in `movedAt`, as far as the
/// next corner where the far side changes (each stretch is simplified on its
/// own between two such corners). A moved junction that is not a vertex of `v`
/// marks every edge.
void markMovedStretches(const std::vector<SimpleVertex>& v, std::span<const RawVertex> raw,
                        const std::vector<std::pair<int32_t, int32_t>>& movedAt,
                        std::vector<uint8_t>& changed)
{
    const size_t m = v.size(), n = raw.size();
    changed.assign(m, 0);
    auto anchor = [&](size_t k)
    {
        const size_t r = static_cast<size_t>(v[k].raw);
        return raw[r].farRegion != raw[(r + 1) % n].farRegion;
    };
    for (const auto& [x, z] : movedAt)
    {
        size_t t = 0;
        while (t < m && (v[t].x != x || v[t].z != z))
            ++t;
        if (t == m)
        {
            changed.assign(m, 1);
            return;
        }
        // Edge k runs from v[k] to v[k + 1].
        for (size_t k = t;;)
        {
            changed[k] = 1;
            k = (k + 1) % m;
            if (k == t || anchor(k))
                break;
        }
        for (size_t k = t;;)
        {
            k = (k + m - 1) % m;
            changed[k] = 1;
            if (k == t || anchor(k))
                break;
        }
    }
}

/// True when no edge of the closed polygon `v` (x–z, cells) marked in
/// `changed` meets another edge except its neighbours at their shared end, or
/// folds back onto a neighbour: with the edges a junction move may have
/// changed marked, whether the moves kept a simple outline simple.
bool changedEdgesSimple(const std::vector<SimpleVertex>& v, const std::vector<uint8_t>& changed)
{
    const size_t m = v.size();
    if (m < 3)
        return false;
    auto at = [&](size_t k) { return outline::Point{v[k % m].x, v[k % m].z}; };
    // The next edge runs back along this one (collinear, turning by 90° or more).
    auto foldsBack = [](const outline::Point& p, const outline::Point& q, const outline::Point& r)
    { return outline::collinear(p, q, r) && (q.x - p.x) * (r.x - q.x) + (q.z - p.z) * (r.z - q.z) <= 0; };
    for (size_t i = 0; i < m; ++i)
    {
        if (!changed[i])
            continue;
        const outline::Point p = at(i), q = at(i + 1);
        if (foldsBack(at(i + m - 1), p, q) || foldsBack(p, q, at(i + 2)))
            return false;
        for (size_t j = 0; j < m; ++j)
        {
            if (j == i || j == (i + 1) % m || (j + 1) % m == i)
                continue; // itself and its neighbours
            if (outline::segmentsIntersect(p, q, at(j), at(j + 1)))
                return false;
        }
    }
    return true;
}

} // namespace

int cornerHeight(const OpenField& field, int x, int z, uint32_t i, int dir)
{
    // Neighbours by column index, not by x and z.
    const int64_t width = field.grid.width;
    const std::array<int64_t, 4> step = columnSteps(width);
    const int64_t c = x + z * width;
    const int turn = (dir + 1) & 3;
    const uint32_t* cellFirst = field.cellFirst.data();
    const uint16_t* y = field.y.data();
    int height = y[i];
    // Across edge `first` and then across edge `second` of that neighbour.
    auto around = [&](int first, int second)
    {
        const uint32_t link = connectionOf(field, i, first);
        if (link == kNoConnection)
            return;
        const int64_t nc = c + step[first];
        const uint32_t a = cellFirst[nc] + link;
        height = std::max<int>(height, y[a]);
        const uint32_t diagonal = connectionOf(field, a, second);
        if (diagonal != kNoConnection)
            height = std::max<int>(height, y[cellFirst[nc + step[second]] + diagonal]);
    };
    around(dir, turn);
    around(turn, dir);
    return height;
}

void buildContours(const OpenField& field, const CellSettings& cells, ContourSet& outSet)
{
    const Grid& g = field.grid;
    outSet.grid = g;
    outSet.contours.clear();
    const size_t n = field.spanCount();

    // The area of every region, to tell walls from portals. A tile's bake
    // gives the walkable spans of its border four more far-side regions of no
    // area, one per side of the tile: a stretch along the tile's edge is a
    // wall kept apart from the others (its ends, the tile's corners among
    // them, stay corners), so simplification never cuts across the seam, and
    // it is straight, so both tiles reach the seam line.
    const uint32_t tileEdge = field.regionCount + 1; // + the direction of the edge
    std::vector<uint8_t> regionArea(static_cast<size_t>(field.regionCount) + 5, kNullArea);

    // Boundary edges of every span: bit d set when the far side of edge d is
    // another region, and bit 4 + d while that edge is not yet traced (one
    // array, filled in the pass that notes the regions' areas). The pass
    // reads the field through local pointers: its byte stores may alias
    // anything, and would have the vectors' pointers reloaded every span.
    constexpr int kUntraced = 4;
    std::vector<uint8_t> boundary(n, 0);
    // Each boundary edge is traced at most once, as one corner: their count
    // sizes the corners' array once (it grows to tens of MB on a big level).
    size_t boundaryEdges = 0;
    constexpr uint8_t kEdgeCount[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4}; // set bits of 0..15
    {
        const uint32_t* region = field.region.data();
        const uint32_t* cellFirst = field.cellFirst.data();
        const uint32_t* con = field.con.data();
        const uint8_t* area = field.area.data();
        uint8_t* bits = boundary.data();
        uint8_t* areaOf = regionArea.data();
        const std::array<int64_t, 4> step = columnSteps(g.width);
        for (const uint32_t c : field.usedColumns)
            for (uint32_t i = cellFirst[c]; i < cellFirst[c + 1]; ++i)
            {
                const uint32_t r = region[i];
                if (r == 0)
                    continue;
                areaOf[r] = area[i];
                uint32_t b = 0;
                for (int dir = 0; dir < 4; ++dir)
                {
                    const uint32_t link = connectionIn(con[i], dir);
                    const uint32_t far =
                        link == kNoConnection ? 0 : region[cellFirst[static_cast<int64_t>(c) + step[dir]] + link];
                    b |= far != r ? 1u << dir : 0u;
                }
                bits[i] = static_cast<uint8_t>(b | (b << kUntraced));
                boundaryEdges += static_cast<size_t>(kEdgeCount[b]);
            }
    }

    // Every outline's corners in one array, outline after outline.
    std::vector<TracedOutline> outlines;
    std::vector<size_t> firstCorner;
    std::vector<RawVertex> raw;
    raw.reserve(boundaryEdges);
    const size_t maxSteps = n * 8 + 16;
    // Outlines start at the spans with an untraced edge, in storage order:
    // a row's spans are scanned as one run of bytes, and the column looked up
    // only where an outline starts.
    for (int z = 0; z < g.depth; ++z)
    {
        const SpanRange row = rowSpans(field, z);
        for (uint32_t start = row.first; start < row.last; ++start)
        {
            if ((boundary[start] >> kUntraced) == 0)
                continue;
            const int x = static_cast<int>(columnOfSpan(field, z, start) - static_cast<int64_t>(z) * g.width);
            int startDir = 0;
            while ((boundary[start] & (1u << (kUntraced + startDir))) == 0)
                ++startDir;

            // Walk the outline with the boundary on one hand.
            const size_t begin = raw.size();
            int cx = x, cz = z, dir = startDir;
            uint32_t i = start;
            bool closed = false;
            for (size_t steps = 0; steps < maxSteps; ++steps)
            {
                if ((boundary[i] & (1u << dir)) != 0)
                {
                    if ((boundary[i] & (1u << (kUntraced + dir))) == 0)
                        break; // an edge met twice: the outline is not simple
                    int px = cx, pz = cz;
                    if (dir == 0)
                        pz += 1;
                    else if (dir == 1)
                        px += 1, pz += 1;
                    else if (dir == 2)
                        px += 1;
                    const uint32_t link = connectionOf(field, i, dir);
                    uint32_t far = 0;
                    if (link != kNoConnection)
                    {
                        const uint32_t j = field.cellFirst[static_cast<size_t>((cx + kDirX[dir]) +
                                                                               (cz + kDirZ[dir]) * g.width)] +
                                           link;
                        far = field.region[j];
                        if (far == 0 && !field.borderWalkable.empty() && field.borderWalkable[j] != 0)
                            far = tileEdge + static_cast<uint32_t>(dir);
                    }
                    raw.push_back({px, cornerHeight(field, cx, cz, i, dir), pz, far});
                    boundary[i] = static_cast<uint8_t>(boundary[i] & ~(1u << (kUntraced + dir)));
                    dir = (dir + 1) & 3;
                }
                else
                {
                    const uint32_t link = connectionOf(field, i, dir);
                    cx += kDirX[dir];
                    cz += kDirZ[dir];
                    i = field.cellFirst[static_cast<size_t>(cx + cz * g.width)] + link;
                    dir = (dir + 3) & 3;
                }
                if (i == start && dir == startDir)
                {
                    closed = true;
                    break;
                }
            }

            firstCorner.push_back(begin);
            outlines.push_back(
                {{}, field.region[start], field.area[start], closed && raw.size() - begin >= 3});
        }
    }

    firstCorner.push_back(raw.size());
    for (size_t o = 0; o < outlines.size(); ++o)
        outlines[o].raw =
            std::span<const RawVertex>(raw).subspan(firstCorner[o], firstCorner[o + 1] - firstCorner[o]);

    // Junction moves, kept only where the outlines they change stay simple: a
    // move whose outline (either of its two) now folds or crosses itself where
    // it changed is undone, with every other move on that outline, and the
    // outlines those touch are simplified again, until every move left holds.
    const std::vector<JunctionMove> moves =
        cells.moveJunctions ? findJunctionMoves(outlines, regionArea, cells) : std::vector<JunctionMove>();
    std::vector<uint8_t> enabled(moves.size(), 1);
    std::vector<std::vector<SimpleVertex>> simplified(outlines.size());
    std::vector<uint8_t> dirty(outlines.size(), 0);
    for (const JunctionMove& mv : moves)
        dirty[mv.a] = dirty[mv.b] = 1;
    const std::vector<uint8_t> involved = dirty; // simplified below; the others as they are emitted
    const MovesByOutline movesOf(outlines.size(), moves);
    // The moved corners of each involved outline, as last simplified: an
    // outline is made again whenever one of its moves is undone, so when the
    // loop ends these are the corners of the moves that hold.
    std::vector<std::vector<RawVertex>> editedOf(outlines.size());
    std::vector<std::pair<int32_t, int32_t>> movedAt;
    std::vector<uint8_t> changed;
    std::vector<uint32_t> undo;
    for (bool again = !moves.empty(); again;)
    {
        undo.clear();
        for (uint32_t o = 0; o < outlines.size(); ++o)
        {
            if (!dirty[o])
                continue;
            dirty[o] = 0;
            std::vector<RawVertex>& edited = editedOf[o];
            applyJunctionMoves(outlines, o, moves, movesOf, enabled, edited);
            if (edited.size() < 3)
            {
                undo.push_back(o); // cannot happen with the moves' own checks; kept out of simplification
                continue;
            }
            simplifyOutline(edited, regionArea, outlines[o].area, cells, simplified[o]);
            movedAt.clear();
            for (const uint32_t m : movesOf.of(o))
                if (enabled[m])
                    movedAt.push_back(movedJunction(outlines, moves[m]));
            markMovedStretches(simplified[o], edited, movedAt, changed);
            if (!changedEdgesSimple(simplified[o], changed))
                undo.push_back(o);
        }
        again = false;
        for (uint32_t o : undo)
            for (const uint32_t m : movesOf.of(o))
                if (enabled[m])
                {
                    enabled[m] = 0;
                    dirty[moves[m].a] = dirty[moves[m].b] = 1;
                    again = true;
                }
    }

    // Every usable outline simplified, with the corners it was simplified from
    // (the moved ones for outlines with junction moves), then kept from crossing.
    std::vector<std::span<const RawVertex>> rawOf(outlines.size());
    std::vector<uint8_t> areaOf(outlines.size());
    for (uint32_t o = 0; o < outlines.size(); ++o)
    {
        const TracedOutline& outline = outlines[o];
        areaOf[o] = outline.area;
        if (!outline.usable)
            continue;
        if (involved[o])
        {
            rawOf[o] = editedOf[o];
        }
        else
        {
            rawOf[o] = outline.raw;
            simplifyOutline(outline.raw, regionArea, outline.area, cells, simplified[o]);
        }
    }
    separateCrossingOutlines(rawOf, simplified, areaOf, regionArea, cells.walkableHeight);

    for (uint32_t o = 0; o < outlines.size(); ++o)
    {
        const TracedOutline& outline = outlines[o];
        Contour contour;
        contour.region = outline.region;
        contour.area = outline.area;
        if (!outline.usable)
        {
            contour.needsFallback = true;
            outSet.contours.push_back(std::move(contour));
            continue;
        }
        const std::vector<SimpleVertex>& simple = simplified[o];
        // The walk winds negatively in x–z; store it reversed (positive).
        contour.verts.reserve(simple.size() * 3);
        for (size_t k = simple.size(); k-- > 0;)
        {
            contour.verts.push_back(simple[k].x);
            contour.verts.push_back(simple[k].y);
            contour.verts.push_back(simple[k].z);
        }
        int64_t area2 = 0;
        const size_t m = simple.size();
        for (size_t k = 0, j = m - 1; k < m; j = k++)
            area2 += static_cast<int64_t>(contour.verts[j * 3]) * contour.verts[k * 3 + 2] -
                     static_cast<int64_t>(contour.verts[k * 3]) * contour.verts[j * 3 + 2];
        if (m < 3 || area2 <= 0)
            contour.needsFallback = true;
        outSet.contours.push_back(std::move(contour));
    }
}

} // namespace spark::nav::bake
