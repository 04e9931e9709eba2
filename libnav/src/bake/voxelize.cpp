/// \file voxelize.cpp
/// Stage 1 of the 3D bake: triangles into solid spans.
///
/// Design note. Each triangle is cut into row slabs along z by repeated
/// polygon splitting against axis-aligned lines, the scheme of Recast's
/// rasteriser (M. Mononen, Recast Navigation, `RecastRasterization.cpp`).
/// Recast then splits each row again cell by cell; we do not: the piece of a
/// row in a column is bounded by the row polygon's vertices inside the column
/// and by the points where its edges cross the column's two lines, and since
/// height is linear along an edge those points give the piece's vertical
/// extent. Each edge is crossed with each line once, so a row costs its
/// vertices plus its columns instead of a polygon clip per cell. The piece
/// gives the vertical extent [floor(ymin), ceil(ymax)) in cell_height units,
/// which is inserted into the column's sorted span list; overlapping or
/// touching spans merge. A merged span remembers its highest walkable surface;
/// it is walkable when that surface lies within the step height of the span's
/// top (so a floor beats the top edge of a wall ending at the floor, but not a
/// wall rising above it). Unlike Recast's merge of area flags, this does not
/// depend on the order in which the pieces of a wall arrive.
/// The spans live in one pool with a free list: no allocation per span beyond
/// the pool's amortised growth.
/// Rasterising surfaces leaves the inside of a closed solid empty: under a box
/// standing on a floor, each column holds the floor (and the box's bottom) and
/// the box's top, with the box's height of free space between them, which an
/// agent shorter than the box could walk. So the runs of triangles the input
/// names as solids are filled (Recast has no such step and leaves a walkable
/// floor inside a box taller than an agent): a run that closes up is crossed
/// with the vertical line through each column's centre; crossings of faces
/// turned down enter the solid, of faces turned up leave it (the run's winding
/// sign is taken from its volume), and each stretch between entering and
/// leaving becomes a solid span merged with the surfaces' spans. A centre on
/// an edge shared by two faces is counted in exactly one of them (the
/// rasterisers' top-left rule), so parity holds on every shared edge.
/// A last pass over each column, bottom up, settles walkability: the step
/// rule above, then Recast's low-obstacle filter (a non-walkable span whose
/// top is at most the step height above a walkable span right below it takes
/// that span's area: an agent steps onto a kerb). Recast filters low obstacles
/// in a pass of its own; here it shares the walk, as each pass over the
/// columns waits on memory for spans scattered over the pool.

#include "bake_stages.h"

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace spark::nav::bake
{
namespace
{

/// Largest vertex count a triangle reaches after four axis-aligned cuts.
constexpr int kClipCapacity = 12;
/// Rounding slack of span heights. [Units: cells]
constexpr float kSnap = 1.0e-4f;

/// floor(x) and ceil(x) as ints from one truncation, for the cell coordinates
/// of the rasteriser (a row vertex's two edges want both): without SSE4.1 the
/// library's floorf is a call; this is exact for every float in int range,
/// and values are clamped to it first.
inline void floorCeilInt(float x, int& outFloor, int& outCeil)
{
    x = std::clamp(x, -1.0e9f, 1.0e9f);
    const int i = static_cast<int>(x);
    const float t = static_cast<float>(i);
    outFloor = t > x ? i - 1 : i;
    outCeil = t < x ? i + 1 : i;
}
/// floor(x) alone (the unused ceiling is dropped by the compiler).
inline int floorInt(float x)
{
    int floor = 0, ceil = 0;
    floorCeilInt(x, floor, ceil);
    return floor;
}

/// Splits the convex polygon `in` by the plane `coord[axis] = line` into the
/// part below (`outBelow`) and the part above (`outAbove`). Vertices on the
/// line go to both parts.
void splitPolygon(const float* in, int n, float* outBelow, int& nBelow, float* outAbove, int& nAbove, float line,
                  int axis)
{
    float d[kClipCapacity];
    for (int i = 0; i < n; ++i)
        d[i] = line - in[i * 3 + axis];
    nBelow = 0;
    nAbove = 0;
    for (int i = 0, j = n - 1; i < n; j = i, ++i)
    {
        const bool inI = d[i] >= 0.0f;
        const bool inJ = d[j] >= 0.0f;
        if (inI != inJ)
        {
            // The edge j -> i crosses the line: both parts get the crossing point.
            // The point is kept in registers and stored to both parts: reading
            // one part's copy back would load 8 bytes over two 4-byte stores,
            // which the CPU cannot forward (a stall of a dozen cycles or more).
            const float s = d[j] / (d[j] - d[i]);
            const float px = in[j * 3] + (in[i * 3] - in[j * 3]) * s;
            const float py = in[j * 3 + 1] + (in[i * 3 + 1] - in[j * 3 + 1]) * s;
            const float pz = in[j * 3 + 2] + (in[i * 3 + 2] - in[j * 3 + 2]) * s;
            float* b = outBelow + nBelow * 3;
            b[0] = px;
            b[1] = py;
            b[2] = pz;
            float* a = outAbove + nAbove * 3;
            a[0] = px;
            a[1] = py;
            a[2] = pz;
            ++nBelow;
            ++nAbove;
            // Vertex i goes to its own side; a vertex exactly on the line goes to one
            // side only here, the crossing point already covers the other.
            if (d[i] > 0.0f)
            {
                float* p = outBelow + nBelow * 3;
                p[0] = in[i * 3];
                p[1] = in[i * 3 + 1];
                p[2] = in[i * 3 + 2];
                ++nBelow;
            }
            else if (d[i] < 0.0f)
            {
                float* p = outAbove + nAbove * 3;
                p[0] = in[i * 3];
                p[1] = in[i * 3 + 1];
                p[2] = in[i * 3 + 2];
                ++nAbove;
            }
        }
        else
        {
            if (d[i] >= 0.0f)
            {
                float* p = outBelow + nBelow * 3;
                p[0] = in[i * 3];
                p[1] = in[i * 3 + 1];
                p[2] = in[i * 3 + 2];
                ++nBelow;
                if (d[i] != 0.0f)
                    continue;
            }
            float* p = outAbove + nAbove * 3;
            p[0] = in[i * 3];
            p[1] = in[i * 3 + 1];
            p[2] = in[i * 3 + 2];
            ++nAbove;
        }
    }
}

/// Stores `span` in the pool (a released slot first) and returns its index.
[[gnu::always_inline]] inline int32_t allocateSpan(SolidField& field, const SolidSpan& span)
{
    const int32_t s = field.freeList;
    if (s != -1)
    {
        field.freeList = field.spans[s].next;
        field.spans[s] = span;
        return s;
    }
    field.spans.push_back(span);
    return static_cast<int32_t>(field.spans.size() - 1);
}

void releaseSpan(SolidField& field, int32_t s)
{
    field.spans[s].next = field.freeList;
    field.freeList = s;
}

/// Folds a span's walkable surface into a merge: the merged span keeps the
/// highest walkable surface, ties going to the larger area code. The order in
/// which spans are folded does not matter.
inline void foldSurface(uint8_t spanArea, int spanWalkTop, uint8_t& area, int& walkTop)
{
    if (spanArea == kNullArea)
        return;
    if (area == kNullArea || spanWalkTop > walkTop)
    {
        area = spanArea;
        walkTop = spanWalkTop;
    }
    else if (spanWalkTop == walkTop)
    {
        area = std::max(area, spanArea);
    }
}

/// The rare part of addSpan: the piece [bottom, top) reaches above span
/// `cur`, which it touches. `cur` takes the merge in place; the spans above it
/// that the merge reaches are released.
[[gnu::noinline]] void mergeSpan(SolidField& field, int32_t cur, int bottom, int top, uint8_t area, int walkTop)
{
    SolidSpan& span = field.spans[cur];
    foldSurface(span.area, span.walkTop, area, walkTop);
    bottom = std::min<int>(bottom, span.bottom);
    top = std::max<int>(top, span.top);
    int32_t next = span.next;
    while (next != -1 && field.spans[next].bottom <= top)
    {
        const SolidSpan absorbed = field.spans[next];
        foldSurface(absorbed.area, absorbed.walkTop, area, walkTop);
        top = std::max<int>(top, absorbed.top);
        releaseSpan(field, next);
        --field.spanCount;
        next = absorbed.next;
    }
    span.bottom = static_cast<uint16_t>(bottom);
    span.top = static_cast<uint16_t>(top);
    span.walkTop = static_cast<uint16_t>(walkTop);
    span.area = area;
    span.next = next;
}

/// Inserts [bottom, top) with `area` into column `col`, merging with every span it touches.
/// Inlined into the rasteriser's loops (a call's register saves cost a third
/// of its instructions); the merge that grows a span is out of line.
[[gnu::always_inline]] inline void addSpan(SolidField& field, int col, int bottom, int top, uint8_t area)
{
    const int walkTop = area != kNullArea ? top : 0;
    int32_t prev = -1;
    int32_t cur = static_cast<int32_t>(field.columns[col]);
    while (cur != -1 && field.spans[cur].top < bottom)
    {
        prev = cur;
        cur = field.spans[cur].next;
    }
    if (cur == -1 || field.spans[cur].bottom > top)
    {
        // Touches nothing: a new span between prev and cur, written whole.
        const int32_t n = allocateSpan(field, SolidSpan{static_cast<uint16_t>(bottom), static_cast<uint16_t>(top),
                                                        static_cast<uint16_t>(walkTop), area, cur});
        if (prev == -1)
            field.columns[col] = static_cast<uint32_t>(n);
        else
            field.spans[prev].next = n;
        ++field.spanCount;
        return;
    }
    SolidSpan& span = field.spans[cur];
    if (top <= span.top)
    {
        // Inside the span (most pieces of a wall), or reaching out of it only
        // downwards, where the walk stopped because the span below ends under
        // `bottom`: the span's top and links stay, its bottom may move down,
        // and only a walkable piece can raise its surface. (A span without a
        // walkable surface has walkTop 0, so a piece without one changes
        // nothing.) Taking the downward case here rather than in mergeSpan
        // halves the merges (dungeon: 23,853 to 10,852) and the mispredicted
        // branches that chose between the two: voxelize 4 % faster.
        span.bottom = std::min(span.bottom, static_cast<uint16_t>(bottom));
        if (area != kNullArea)
        {
            uint8_t mergedArea = area;
            int mergedTop = walkTop;
            foldSurface(span.area, span.walkTop, mergedArea, mergedTop);
            span.walkTop = static_cast<uint16_t>(mergedTop);
            span.area = mergedArea;
        }
        return;
    }
    mergeSpan(field, cur, bottom, top, area, walkTop);
}

/// Per-row scratch of the rasteriser, one entry per column k of a row: the y
/// extent of the edge crossings on the column's low line (x of its left side)
/// and of the row's vertices inside the column. One 16-byte entry, so a row's
/// reset is one store per column.
struct ColumnExtent
{
    float lineLo, lineHi, vertLo, vertHi;
};
/// The rasteriser's scratch: the extents of a row's columns, and the x of
/// every column line of the grid (lineX[x] = origin.x + x × cell size, the
/// float the rows used to compute for each line they met), taken once per grid.
struct RowScratch
{
    std::vector<ColumnExtent> extent;
    std::vector<float> lineX;
};

/// "No height yet" for the extents.
constexpr float kNoY = 3.0e38f;

/// The cell range [bottom, top) of a piece whose heights run from yMin to
/// yMax; `bottom` is -1 when the piece lies wholly outside the height range.
struct PieceCells
{
    int bottom = -1, top = 0;
};

inline PieceCells pieceCells(const Grid& g, float yMin, float yMax, float ich)
{
    const float lo = (yMin - g.origin.y) * ich;
    const float hi = (yMax - g.origin.y) * ich;
    if (hi < 0.0f || lo > static_cast<float>(kMaxSpanHeight))
        return {};
    // A ten-thousandth of a cell of slack absorbs the rounding of the cuts,
    // so a surface exactly on a cell boundary stays on it. Both ends are
    // clamped to the height range before rounding (the same cells as
    // rounding first, as the range's ends are whole): then they are never
    // below -1, where truncation toward zero is the floor of a non-negative
    // value and rounds a value in (-1, 0] up to its ceiling, 0.
    const float bottomAt = std::clamp(lo + kSnap, 0.0f, static_cast<float>(kMaxSpanHeight - 1));
    const float topAt = std::min(hi - kSnap, static_cast<float>(kMaxSpanHeight));
    const int bottom = static_cast<int>(bottomAt);
    const int topTrunc = static_cast<int>(topAt);
    const int top = static_cast<float>(topTrunc) < topAt ? topTrunc + 1 : topTrunc;
    return {bottom, std::max(top, bottom + 1)};
}

/// Adds the span of a piece whose heights run from yMin to yMax to column `col`.
/// Inlined: a call per piece saved and restored most registers.
[[gnu::always_inline]] inline void addPiece(SolidField& field, int col, float yMin, float yMax, uint8_t area, float ich)
{
    const PieceCells cells = pieceCells(field.grid, yMin, yMax, ich);
    if (cells.bottom >= 0)
        addSpan(field, col, cells.bottom, cells.top, area);
}

void rasterizeTriangle(const glm::vec3& v0, const glm::vec3& v1, const glm::vec3& v2, uint8_t area,
                       SolidField& field, RowScratch& scratch)
{
    const Grid& g = field.grid;
    const float ics = 1.0f / g.cellSize;
    const float ich = 1.0f / g.cellHeight;
    const float minZ = std::min({v0.z, v1.z, v2.z});
    const float maxZ = std::max({v0.z, v1.z, v2.z});
    const float minX = std::min({v0.x, v1.x, v2.x});
    const float maxX = std::max({v0.x, v1.x, v2.x});
    const float extentX = static_cast<float>(g.width) * g.cellSize;
    const float extentZ = static_cast<float>(g.depth) * g.cellSize;
    if (maxX < g.origin.x || minX > g.origin.x + extentX || maxZ < g.origin.z || minZ > g.origin.z + extentZ)
        return;

    // Cuts of a level triangle interpolate equal heights, so its rows stay level.
    const bool flat = v0.y == v1.y && v1.y == v2.y;
    const PieceCells flatCells = flat ? pieceCells(g, v0.y, v0.y, ich) : PieceCells{};
    const int z0 = std::clamp(floorInt((minZ - g.origin.z) * ics), 0, g.depth - 1);
    const int z1 = std::clamp(floorInt((maxZ - g.origin.z) * ics), 0, g.depth - 1);

    float bufA[kClipCapacity * 3], bufB[kClipCapacity * 3], row[kClipCapacity * 3];
    float* in = bufA;
    float* rest = bufB;
    int nIn = 3;
    in[0] = v0.x, in[1] = v0.y, in[2] = v0.z;
    in[3] = v1.x, in[4] = v1.y, in[5] = v1.z;
    in[6] = v2.x, in[7] = v2.y, in[8] = v2.z;

    for (int z = z0; z <= z1 && nIn >= 3; ++z)
    {
        // The last row takes what is left without a cut.
        int nRow = 0, nRest = 0;
        const float* rowPoly = in;
        if (z < z1)
        {
            const float lineZ = g.origin.z + static_cast<float>(z + 1) * g.cellSize;
            splitPolygon(in, nIn, row, nRow, rest, nRest, lineZ, 2);
            std::swap(in, rest);
            nIn = nRest;
            rowPoly = row;
        }
        else
        {
            nRow = nIn;
            nIn = 0;
        }
        if (nRow < 3)
            continue;

        float rowMinX = rowPoly[0], rowMaxX = rowPoly[0];
        float rowMinY = rowPoly[1], rowMaxY = rowPoly[1];
        for (int i = 1; i < nRow; ++i)
        {
            rowMinX = std::min(rowMinX, rowPoly[i * 3]);
            rowMaxX = std::max(rowMaxX, rowPoly[i * 3]);
            rowMinY = std::min(rowMinY, rowPoly[i * 3 + 1]);
            rowMaxY = std::max(rowMaxY, rowPoly[i * 3 + 1]);
        }
        const int x0 = std::clamp(floorInt((rowMinX - g.origin.x) * ics), 0, g.width - 1);
        const int x1 = std::clamp(floorInt((rowMaxX - g.origin.x) * ics), 0, g.width - 1);
        if (!(rowMaxX > rowMinX))
        {
            // A piece standing in one x (a wall along z): one column holds all of it.
            addPiece(field, x0 + z * g.width, rowMinY, rowMaxY, area, ich);
            continue;
        }
        const int columns = x1 - x0 + 1;
        const float* rowLines = scratch.lineX.data() + x0;
        auto lineX = [rowLines](int k) { return rowLines[k]; };
        // Whether the row covers column x0 + k with some width.
        auto covers = [&](int k) { return std::min(rowMaxX, lineX(k + 1)) > std::max(rowMinX, lineX(k)); };
        if (x0 == x1)
        {
            // The row lies in one column (most rows of a wall across z): its
            // piece there is the whole row, whose extent is its vertices'.
            if (covers(0))
                addPiece(field, x0 + z * g.width, rowMinY, rowMaxY, area, ich);
            continue;
        }

        if (flat)
        {
            // A level triangle: every column the row covers with some width
            // gets the same piece, so no crossing needs its height.
            if (flatCells.bottom < 0)
                return;
            for (int k = 0; k < columns; ++k)
                if (covers(k))
                    addSpan(field, x0 + k + z * g.width, flatCells.bottom, flatCells.top, area);
            continue;
        }

        // The piece of the row in column x is bounded by its vertices inside
        // the column and by where its edges cross the column's two lines; y is
        // linear along each edge, so those points give its extent.
        ColumnExtent* extent = scratch.extent.data();
        std::fill(extent, extent + columns + 1, ColumnExtent{kNoY, -kNoY, kNoY, -kNoY});
        // Each vertex's x in cells, floored and ceiled once for its two edges.
        int vFloor[kClipCapacity], vCeil[kClipCapacity];
        for (int i = 0; i < nRow; ++i)
        {
            const float cx = (rowPoly[i * 3] - g.origin.x) * ics;
            floorCeilInt(cx, vFloor[i], vCeil[i]);
            vFloor[i] -= x0;
            vCeil[i] -= x0;
        }
        for (int i = 0, j = nRow - 1; i < nRow; j = i++)
        {
            const float* a = rowPoly + j * 3;
            const float* b = rowPoly + i * 3;
            // The vertex, in the column that holds it (a vertex on a line is
            // also a crossing of that line, so the column before sees it too).
            ColumnExtent& own = extent[std::clamp(vFloor[i], 0, columns - 1)];
            own.vertLo = std::min(own.vertLo, b[1]);
            own.vertHi = std::max(own.vertHi, b[1]);
            if (a[0] == b[0])
                continue;
            // The edge's ends by x, chosen by index (a conditional move, not
            // a branch: the order is a coin toss from edge to edge).
            const int swapMask = -static_cast<int>(b[0] < a[0]);
            const int loIndex = j ^ ((i ^ j) & swapMask);
            const int hiIndex = i ^ j ^ loIndex;
            const float* lo = rowPoly + loIndex * 3;
            const float* hi = rowPoly + hiIndex * 3;
            const int k0 = std::max(1, vCeil[loIndex]);
            const int k1 = std::min(columns - 1, vFloor[hiIndex]);
            if (k0 > k1)
                continue;
            const float dy = hi[1] - lo[1];
            const float invDx = 1.0f / (hi[0] - lo[0]);
            for (int k = k0; k <= k1; ++k)
            {
                const float cx = lineX(k);
                if (cx < lo[0] || cx > hi[0])
                    continue;
                const float y = lo[1] + dy * ((cx - lo[0]) * invDx);
                extent[k].lineLo = std::min(extent[k].lineLo, y);
                extent[k].lineHi = std::max(extent[k].lineHi, y);
            }
        }
        for (int k = 0; k < columns; ++k)
        {
            if (!covers(k))
                continue;
            const float yMin = std::min({extent[k].vertLo, extent[k].lineLo, extent[k + 1].lineLo});
            const float yMax = std::max({extent[k].vertHi, extent[k].lineHi, extent[k + 1].lineHi});
            if (yMin > yMax)
                continue;
            addPiece(field, x0 + k + z * g.width, yMin, yMax, area, ich);
        }
    }
}

/// x-z order of points: by x, then by z (the point's second coordinate).
inline bool lessXZ(const glm::dvec2& a, const glm::dvec2& b)
{
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}

/// Whether `r` lies inside the edge p -> q of a counter-clockwise triangle in
/// x-z. The side is computed along the edge's canonical direction (lesser
/// point first), so the two triangles that share the edge get exact opposite
/// values; a point on the edge belongs to the triangle on the left of the
/// canonical direction only.
inline bool insideEdge(const glm::dvec2& p, const glm::dvec2& q, const glm::dvec2& r)
{
    const bool canonical = lessXZ(p, q);
    const glm::dvec2& s = canonical ? p : q;
    const glm::dvec2& t = canonical ? q : p;
    const double side = (t.x - s.x) * (r.y - s.y) - (t.y - s.y) * (r.x - s.x);
    return canonical ? side >= 0.0 : side < 0.0;
}

/// Twice the signed x-z area of (a, b, c) (positive counter-clockwise seen from above).
inline double areaXZ(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c)
{
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

/// One crossing of a column's centre line with a solid's face.
struct Crossing
{
    int32_t x;    ///< Column in the row.
    float y;      ///< Height of the crossing. [Units: m]
    int32_t step; ///< +1 entering the solid going up, -1 leaving it.
};

/// Fills the inside of the closed run `run` with solid spans (see the design note).
void fillSolid(const BakeInput& input, const SolidRange& run, SolidField& field)
{
    const int sign = closedSolidSign(input, run);
    // One-sided input (an OBJ's winding means something): a closed run wound
    // inward is a room seen from inside, hollow, not a solid.
    if (sign == 0 || (input.oneSided && sign < 0))
        return;
    const Grid& g = field.grid;
    const double cs = g.cellSize;
    const float ich = 1.0f / g.cellHeight;
    // The faces that are not vertical, by the first row whose centre line they may meet.
    struct Face
    {
        glm::dvec2 p[3]; // x-z, counter-clockwise
        double y[3];
        int32_t step, row0, row1, x0, x1;
    };
    std::vector<Face> faces;
    for (uint32_t t = run.firstTriangle; t < run.firstTriangle + run.triangleCount; ++t)
    {
        const uint32_t* tri = &input.indices[static_cast<size_t>(t) * 3];
        Face f;
        for (int k = 0; k < 3; ++k)
        {
            const glm::vec3& v = input.vertices[tri[k]];
            f.p[k] = glm::dvec2(v.x, v.z);
            f.y[k] = v.y;
        }
        const double area = areaXZ(f.p[0], f.p[1], f.p[2]);
        if (area == 0.0)
            continue; // vertical: no centre line crosses it
        // Counter-clockwise from above means the face turns down (an entry
        // going up) when the run winds outward.
        f.step = area > 0.0 ? sign : -sign;
        if (area < 0.0)
        {
            std::swap(f.p[1], f.p[2]);
            std::swap(f.y[1], f.y[2]);
        }
        // Cells whose centres (origin + (i + 0.5) * cell size) the face's box holds.
        auto firstCell = [&](double lo, double origin, int n) {
            const double first = std::ceil((lo - origin) / cs - 0.5);
            return static_cast<int32_t>(std::clamp(first, 0.0, static_cast<double>(n)));
        };
        auto lastCell = [&](double hi, double origin, int n) {
            return static_cast<int32_t>(std::clamp(std::floor((hi - origin) / cs - 0.5), -1.0, n - 1.0));
        };
        const double minX = std::min({f.p[0].x, f.p[1].x, f.p[2].x});
        const double maxX = std::max({f.p[0].x, f.p[1].x, f.p[2].x});
        const double minZ = std::min({f.p[0].y, f.p[1].y, f.p[2].y});
        const double maxZ = std::max({f.p[0].y, f.p[1].y, f.p[2].y});
        f.x0 = firstCell(minX, g.origin.x, g.width);
        f.x1 = lastCell(maxX, g.origin.x, g.width);
        f.row0 = firstCell(minZ, g.origin.z, g.depth);
        f.row1 = lastCell(maxZ, g.origin.z, g.depth);
        if (f.x0 <= f.x1 && f.row0 <= f.row1)
            faces.push_back(f);
    }
    std::stable_sort(faces.begin(), faces.end(),
                     [](const Face& a, const Face& b) { return a.row0 < b.row0; });

    // Rows in turn, with the faces that reach them, so a large solid needs
    // crossings of one row at a time.
    std::vector<const Face*> active;
    std::vector<Crossing> crossings;
    size_t nextFace = 0;
    for (int32_t z = faces.empty() ? 0 : faces.front().row0; nextFace < faces.size() || !active.empty(); ++z)
    {
        while (nextFace < faces.size() && faces[nextFace].row0 == z)
            active.push_back(&faces[nextFace++]);
        std::erase_if(active, [z](const Face* f) { return f->row1 < z; });
        crossings.clear();
        const double cz = g.origin.z + (z + 0.5) * cs;
        for (const Face* f : active)
            for (int32_t x = f->x0; x <= f->x1; ++x)
            {
                const glm::dvec2 r(g.origin.x + (x + 0.5) * cs, cz);
                if (!insideEdge(f->p[0], f->p[1], r) || !insideEdge(f->p[1], f->p[2], r) ||
                    !insideEdge(f->p[2], f->p[0], r))
                    continue;
                // Height on the face's plane, from the barycentric weights.
                const double w0 = areaXZ(f->p[1], f->p[2], r), w1 = areaXZ(f->p[2], f->p[0], r);
                const double w2 = areaXZ(f->p[0], f->p[1], r);
                const double y = (w0 * f->y[0] + w1 * f->y[1] + w2 * f->y[2]) / (w0 + w1 + w2);
                crossings.push_back({x, static_cast<float>(y), f->step});
            }
        // By column, then upwards; at one height a face left comes before a face entered.
        std::sort(crossings.begin(), crossings.end(), [](const Crossing& a, const Crossing& b) {
            return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.step < b.step;
        });
        int winding = 0;
        float enteredAt = 0.0f;
        for (size_t i = 0; i < crossings.size(); ++i)
        {
            const Crossing& c = crossings[i];
            if (i > 0 && c.x != crossings[i - 1].x)
                winding = 0; // an unclosed stretch of the previous column is dropped
            const int before = winding;
            winding += c.step;
            if (before <= 0 && winding > 0)
                enteredAt = c.y;
            else if (before > 0 && winding <= 0)
                addPiece(field, c.x + z * g.width, enteredAt, c.y, kNullArea, ich);
        }
    }
}

} // namespace

/// The sign of a closed run's volume (+1 outward winding, -1 inward), or 0
/// when the run is open (some edge is not run once each way) or flat.
int closedSolidSign(const BakeInput& input, const SolidRange& run)
{
    std::vector<uint64_t> edges, reversed;
    edges.reserve(static_cast<size_t>(run.triangleCount) * 3);
    reversed.reserve(edges.capacity());
    double volume = 0.0;
    for (uint32_t t = run.firstTriangle; t < run.firstTriangle + run.triangleCount; ++t)
    {
        const uint32_t* tri = &input.indices[static_cast<size_t>(t) * 3];
        for (int e = 0; e < 3; ++e)
        {
            const uint64_t a = tri[e], b = tri[(e + 1) % 3];
            edges.push_back(a << 32 | b);
            reversed.push_back(b << 32 | a);
        }
        const glm::dvec3 a(input.vertices[tri[0]]), b(input.vertices[tri[1]]), c(input.vertices[tri[2]]);
        volume += glm::dot(a, glm::cross(b, c));
    }
    std::sort(edges.begin(), edges.end());
    std::sort(reversed.begin(), reversed.end());
    if (edges.empty() || edges != reversed)
        return 0;
    return volume > 0.0 ? 1 : volume < 0.0 ? -1 : 0;
}

void voxelizeTriangles(const BakeInput& input, const CellSettings& cells, SolidField& outField,
                       const InputPart& part)
{
    const size_t triangles = part.triangles != nullptr ? part.triangles->size() : input.indices.size() / 3;
    const Grid& g = outField.grid;
    const size_t columns = static_cast<size_t>(g.width) * static_cast<size_t>(g.depth);
    outField.columns.reserve(columns + 1); // + the open field's end entry (bake_stages.h)
    outField.columns.assign(columns, kEmptyColumn);
    outField.spans.clear();
    outField.spans.reserve(columns + 3 * triangles);
    outField.freeList = -1;
    outField.spanCount = 0;

    RowScratch scratch;
    scratch.extent.resize(static_cast<size_t>(g.width) + 2);
    scratch.lineX.resize(static_cast<size_t>(g.width) + 1);
    for (int x = 0; x <= g.width; ++x)
        scratch.lineX[static_cast<size_t>(x)] = g.origin.x + static_cast<float>(x) * g.cellSize;
    const float cos2 = cells.walkableCos * cells.walkableCos;
    for (size_t i = 0; i < triangles; ++i)
    {
        const size_t t = part.triangles != nullptr ? (*part.triangles)[i] : i;
        const glm::vec3& a = input.vertices[input.indices[t * 3]];
        const glm::vec3& b = input.vertices[input.indices[t * 3 + 1]];
        const glm::vec3& c = input.vertices[input.indices[t * 3 + 2]];
        const glm::vec3 e0 = b - a;
        const glm::vec3 e1 = c - a;
        const float nx = e0.y * e1.z - e0.z * e1.y;
        const float ny = e0.z * e1.x - e0.x * e1.z;
        const float nz = e0.x * e1.y - e0.y * e1.x;
        const float len2 = nx * nx + ny * ny + nz * nz;
        if (!(len2 > 0.0f))
            continue; // degenerate: no surface
        // Two-sided: the slope is the angle between the normal's line and +Y;
        // one-sided: the front must face up as well.
        const bool facing = !input.oneSided || ny > 0.0f;
        const bool walkable = facing && ny * ny >= cos2 * len2;
        const uint8_t areaId = input.areas.empty() ? uint8_t{0} : input.areas[t];
        const uint8_t area = walkable ? static_cast<uint8_t>(areaId + 1) : kNullArea;
        rasterizeTriangle(a, b, c, area, outField, scratch);
    }
    for (const SolidRange& run : part.triangles != nullptr ? part.solids : std::span<const SolidRange>(input.solids))
        fillSolid(input, run, outField);

    // A span is walkable when its highest walkable surface is within a step
    // of its top; then the low-obstacle filter, judging each span against the
    // walkability of the one below before the filter, so a stack of low steps
    // does not climb without limit.
    for (int32_t head : outField.columns)
    {
        bool prevWalkable = false;
        uint8_t prevArea = kNullArea;
        int prevTop = 0;
        for (int32_t s = head; s != -1; s = outField.spans[s].next)
        {
            SolidSpan& span = outField.spans[s];
            if (span.area != kNullArea && span.top - span.walkTop > cells.walkableClimb)
                span.area = kNullArea;
            const bool walkable = span.area != kNullArea;
            if (!walkable && prevWalkable && static_cast<int>(span.top) - prevTop <= cells.walkableClimb)
                span.area = prevArea;
            prevWalkable = walkable;
            prevArea = span.area;
            prevTop = span.top;
        }
    }
}

} // namespace spark::nav::bake
