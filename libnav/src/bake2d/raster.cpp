/// \file raster.cpp
/// Design note — rasterising 2D shapes into a grid for the 2D bake.
///
/// The grid is aligned to the lattice of multiples of the cell size, so two
/// bakes of overlapping regions share cell boundaries (and a tile map whose tile
/// size is a multiple of the cell size has its tiles on cell boundaries).
/// Coverage rules, chosen so obstacles are never under-estimated:
///  - walkable polygons and area rectangles: a cell belongs to the shape when its
///    centre does (even-odd scanline fill at the row centres, half-open on the
///    right, as in the classic polygon scan conversion of Foley, van Dam et al.,
///    "Computer Graphics: Principles and Practice", §3.6);
///  - obstacle polygons and solid rectangles: a cell is blocked when the shape
///    overlaps the cell's open interior, i.e. its centre is inside, or an edge
///    passes through the interior (each edge is clipped to every row strip it
///    crosses, and the open cell intervals it meets are marked), so a wall
///    thinner than a cell still blocks. A boundary exactly on a cell line does
///    not spill into the neighbouring cell.
/// Solid rectangles go through a 2D difference array (`blockCellRects`, shared
/// with libscene's 2D scene; linear in cells plus rectangles); area rectangles are painted last-first per row with a
/// "next unpainted cell" union-find, so the last rectangle wins and the cost
/// stays linear. Every computation is plain IEEE double arithmetic in grid
/// units, the same on any machine.

#include "spark/nav/bake2d.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

namespace spark::nav
{
namespace
{

bool finite2(glm::vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }

Status checkPolygons(const std::vector<std::vector<glm::vec2>>& polys, const std::string& name, int& total)
{
    for (size_t p = 0; p < polys.size(); ++p)
    {
        const auto& poly = polys[p];
        const std::string field = "/" + name + "/" + std::to_string(p);
        if (poly.size() < 3)
            return makeError("E_NAV_CONFIG", "A polygon needs at least 3 points.", field);
        if (poly.size() > static_cast<size_t>(kMaxShapePolygonVertices))
            return makeError("E_NAV_LIMIT",
                             "A polygon has at most " + std::to_string(kMaxShapePolygonVertices) + " points.", field);
        total += static_cast<int>(poly.size());
        if (total > kMaxShapeTotalVertices)
            return makeError("E_NAV_LIMIT",
                             "The shapes have at most " + std::to_string(kMaxShapeTotalVertices) + " points in all.",
                             field);
        for (size_t i = 0; i < poly.size(); ++i)
            if (!finite2(poly[i]))
                return makeError("E_NAV_CONFIG", "Coordinates must be finite numbers.",
                                 field + "/" + std::to_string(i));
    }
    return Status::success();
}

Status checkRect(glm::vec2 mn, glm::vec2 mx, const std::string& field)
{
    if (!finite2(mn) || !finite2(mx))
        return makeError("E_NAV_CONFIG", "Coordinates must be finite numbers.", field);
    if (mn.x > mx.x || mn.y > mx.y)
        return makeError("E_NAV_CONFIG", "A rectangle's min must not exceed its max.", field);
    return Status::success();
}

/// Grid-unit geometry shared by the fill routines.
struct Lattice
{
    int width = 0;
    int height = 0;
    double ox = 0.0;
    double oy = 0.0;
    double cell = 1.0;
    double u(double x) const { return (x - ox) / cell; }
    double v(double y) const { return (y - oy) / cell; }
};

int clampInt(double value, int lo, int hi)
{
    if (!(value > lo))
        return lo;
    if (!(value < hi))
        return hi;
    return static_cast<int>(value);
}

/// Calls mark(x, y) for every cell whose centre is inside the polygon (even-odd).
template <class Mark>
void fillPolygonCentres(const Lattice& lat, const std::vector<glm::vec2>& poly, std::vector<double>& xs, Mark mark)
{
    double minV = lat.v(poly[0].y), maxV = minV;
    for (const glm::vec2& p : poly)
    {
        minV = std::min(minV, lat.v(p.y));
        maxV = std::max(maxV, lat.v(p.y));
    }
    // Rows whose centre j + 0.5 lies in [minV, maxV].
    const int j0 = clampInt(std::floor(minV - 0.5), 0, lat.height);
    const int j1 = clampInt(std::ceil(maxV - 0.5), 0, lat.height - 1);
    const size_t n = poly.size();
    for (int j = j0; j <= j1 && j < lat.height; ++j)
    {
        const double yc = j + 0.5;
        xs.clear();
        for (size_t i = 0; i < n; ++i)
        {
            const double ax = lat.u(poly[i].x), ay = lat.v(poly[i].y);
            const double bx = lat.u(poly[(i + 1) % n].x), by = lat.v(poly[(i + 1) % n].y);
            if ((ay > yc) == (by > yc))
                continue;
            xs.push_back(ax + (yc - ay) * (bx - ax) / (by - ay));
        }
        std::sort(xs.begin(), xs.end());
        for (size_t k = 0; k + 1 < xs.size(); k += 2)
        {
            // Cells whose centre i + 0.5 is in [xs[k], xs[k + 1]).
            const int i0 = clampInt(std::ceil(xs[k] - 0.5), 0, lat.width);
            const int i1 = clampInt(std::ceil(xs[k + 1] - 0.5), 0, lat.width);
            for (int i = i0; i < i1; ++i)
                mark(i, j);
        }
    }
}

/// Calls mark(x, y) for every cell whose open interior the segment a–b meets.
template <class Mark> void touchSegment(const Lattice& lat, glm::vec2 a, glm::vec2 b, Mark mark)
{
    const double ax = lat.u(a.x), ay = lat.v(a.y), bx = lat.u(b.x), by = lat.v(b.y);
    const double yLo = std::min(ay, by), yHi = std::max(ay, by);
    // Rows j with j < yHi and j + 1 > yLo.
    const int j0 = clampInt(std::floor(yLo), 0, lat.height);
    const int j1 = clampInt(std::ceil(yHi) - 1.0, -1, lat.height - 1);
    for (int j = j0; j <= j1; ++j)
    {
        double xa, xb;
        if (ay == by)
        {
            xa = std::min(ax, bx);
            xb = std::max(ax, bx);
        }
        else
        {
            const double s0 = std::max<double>(yLo, j), s1 = std::min<double>(yHi, j + 1.0);
            const double x0 = ax + (s0 - ay) * (bx - ax) / (by - ay);
            const double x1 = ax + (s1 - ay) * (bx - ax) / (by - ay);
            xa = std::min(x0, x1);
            xb = std::max(x0, x1);
        }
        // Cells i with i < xb and i + 1 > xa.
        const int i0 = clampInt(std::floor(xa), 0, lat.width);
        const int i1 = clampInt(std::ceil(xb) - 1.0, -1, lat.width - 1);
        for (int i = i0; i <= i1; ++i)
            mark(i, j);
    }
}

} // namespace

void blockCellRects(Grid2D& io, std::span<const CellRect> rects)
{
    // +1 at a rectangle's low corner, -1 at the two corners beside it and +1
    // at the far one; prefix sums along x (run) and then y (above) give each
    // cell the number of rectangles covering it.
    const size_t stride = static_cast<size_t>(io.width) + 1;
    std::vector<int32_t> diff;
    for (const CellRect& r : rects)
    {
        const int x0 = r.x, x1 = r.x + r.width, y0 = r.y, y1 = r.y + r.height;
        assert(0 <= x0 && x1 <= io.width && 0 <= y0 && y1 <= io.height);
        if (x0 >= x1 || y0 >= y1)
            continue;
        if (diff.empty())
            diff.assign(stride * (static_cast<size_t>(io.height) + 1), 0);
        diff[y0 * stride + x0] += 1;
        diff[y0 * stride + x1] -= 1;
        diff[y1 * stride + x0] -= 1;
        diff[y1 * stride + x1] += 1;
    }
    if (diff.empty())
        return;
    std::vector<int32_t> above(stride, 0);
    for (int y = 0; y < io.height; ++y)
    {
        int32_t run = 0;
        for (int x = 0; x < io.width; ++x)
        {
            run += diff[y * stride + x];
            above[x] += run;
            if (above[x] > 0)
                io.blocked[static_cast<size_t>(y) * io.width + x] = 1;
        }
    }
}

Result<Grid2D> rasterizeShapes2D(const Shapes2D& shapes)
{
    // 1. Validate every number before touching memory.
    if (!std::isfinite(shapes.cellSize) || !(shapes.cellSize > 0.0f))
        return makeError("E_NAV_CONFIG", "The cell size must be a finite number > 0.", "/cell_size");
    int totalVertices = 0;
    SPARK_TRY(checkPolygons(shapes.walkable, "walkable", totalVertices));
    SPARK_TRY(checkPolygons(shapes.obstacles, "obstacles", totalVertices));
    if (shapes.solidRects.size() + shapes.areas.size() > static_cast<size_t>(kMaxShapeRects))
        return makeError("E_NAV_LIMIT", "At most " + std::to_string(kMaxShapeRects) + " rectangles in all.",
                         "/solid_rects");
    for (size_t i = 0; i < shapes.solidRects.size(); ++i)
        SPARK_TRY(checkRect(shapes.solidRects[i].min, shapes.solidRects[i].max, "/solid_rects/" + std::to_string(i)));
    for (size_t i = 0; i < shapes.areas.size(); ++i)
    {
        SPARK_TRY(checkRect(shapes.areas[i].min, shapes.areas[i].max, "/areas/" + std::to_string(i)));
        if (shapes.areas[i].area > 15)
            return makeError("E_NAV_CONFIG", "Area ids are 0..15.", "/areas/" + std::to_string(i) + "/area");
    }

    // 2. Bounds: given, or those of the walkable polygons.
    glm::vec2 mn, mx;
    if (shapes.hasBounds)
    {
        SPARK_TRY(checkRect(shapes.bounds.min, shapes.bounds.max, "/bounds"));
        mn = shapes.bounds.min;
        mx = shapes.bounds.max;
    }
    else
    {
        if (shapes.walkable.empty())
            return makeError("E_NAV_NO_GEOMETRY", "Nothing walkable: give bounds or walkable polygons.", "/bounds");
        mn = mx = shapes.walkable[0][0];
        for (const auto& poly : shapes.walkable)
            for (const glm::vec2& p : poly)
            {
                mn = glm::min(mn, p);
                mx = glm::max(mx, p);
            }
    }
    if (!(mn.x < mx.x) || !(mn.y < mx.y))
        return makeError("E_NAV_CONFIG", "The bounds have no area.", "/bounds");

    // 3. The lattice: cells at multiples of the cell size.
    const double cell = shapes.cellSize;
    const double i0 = std::floor(static_cast<double>(mn.x) / cell), i1 = std::ceil(static_cast<double>(mx.x) / cell);
    const double j0 = std::floor(static_cast<double>(mn.y) / cell), j1 = std::ceil(static_cast<double>(mx.y) / cell);
    const double w = std::max(1.0, i1 - i0), h = std::max(1.0, j1 - j0);
    if (w > kMaxGrid2DCells || h > kMaxGrid2DCells)
        return makeError("E_NAV_LIMIT",
                         "The bounds need " + std::to_string(static_cast<long long>(std::min(w, 1e15))) + " x " +
                             std::to_string(static_cast<long long>(std::min(h, 1e15))) + " cells; at most " +
                             std::to_string(kMaxGrid2DCells) + " per axis are allowed.",
                         "/bounds", "Use a larger cell_size or smaller bounds.");
    Grid2D grid;
    grid.width = static_cast<int>(w);
    grid.height = static_cast<int>(h);
    grid.cellSize = shapes.cellSize;
    grid.origin = glm::vec2(static_cast<float>(i0 * cell), static_cast<float>(j0 * cell));
    if (!finite2(grid.origin))
        return makeError("E_NAV_CONFIG", "The bounds are beyond the float range.", "/bounds");
    Lattice lat{grid.width, grid.height, grid.origin.x, grid.origin.y, cell};
    const size_t cells = static_cast<size_t>(grid.width) * static_cast<size_t>(grid.height);
    auto at = [&](int x, int y) { return static_cast<size_t>(y) * grid.width + x; };

    // 4. Walkable polygons open cells (everything is open when there are none) ...
    std::vector<double> xs;
    grid.blocked.assign(cells, shapes.walkable.empty() ? 0 : 1);
    for (const auto& poly : shapes.walkable)
        fillPolygonCentres(lat, poly, xs, [&](int x, int y) { grid.blocked[at(x, y)] = 0; });
    // Outside the given bounds is blocked too (the lattice may round them outwards).
    if (shapes.hasBounds)
    {
        // Cells whose centre lies outside [min, max) of the bounds.
        const double bx0 = lat.u(mn.x), bx1 = lat.u(mx.x), by0 = lat.v(mn.y), by1 = lat.v(mx.y);
        for (int y = 0; y < grid.height; ++y)
            for (int x = 0; x < grid.width; ++x)
            {
                const double xc = x + 0.5, yc = y + 0.5;
                if (xc < bx0 || xc >= bx1 || yc < by0 || yc >= by1)
                    grid.blocked[at(x, y)] = 1;
            }
    }
    // ... obstacles close them (centres inside, plus every cell an edge passes through) ...
    for (const auto& poly : shapes.obstacles)
    {
        fillPolygonCentres(lat, poly, xs, [&](int x, int y) { grid.blocked[at(x, y)] = 1; });
        for (size_t i = 0; i < poly.size(); ++i)
            touchSegment(lat, poly[i], poly[(i + 1) % poly.size()],
                         [&](int x, int y) { grid.blocked[at(x, y)] = 1; });
    }
    // ... and so do solid rectangles: the cells whose open interior overlaps theirs.
    if (!shapes.solidRects.empty())
    {
        std::vector<CellRect> cellRects;
        cellRects.reserve(shapes.solidRects.size());
        for (const Rect2D& r : shapes.solidRects)
        {
            const int x0 = clampInt(std::floor(lat.u(r.min.x)), 0, grid.width);
            const int x1 = clampInt(std::ceil(lat.u(r.max.x)), 0, grid.width);
            const int y0 = clampInt(std::floor(lat.v(r.min.y)), 0, grid.height);
            const int y1 = clampInt(std::ceil(lat.v(r.max.y)), 0, grid.height);
            if (r.min.x < r.max.x && r.min.y < r.max.y)
                cellRects.push_back(CellRect{x0, y0, x1 - x0, y1 - y0, 0});
        }
        blockCellRects(grid, cellRects);
    }

    // 5. Areas: the last rectangle containing a cell's centre wins.
    if (!shapes.areas.empty())
    {
        grid.areas.assign(cells, 0);
        std::vector<int> next(static_cast<size_t>(grid.width) + 1);
        auto find = [&](int i) {
            int root = i;
            while (next[root] != root)
                root = next[root];
            while (next[i] != root)
            {
                const int up = next[i];
                next[i] = root;
                i = up;
            }
            return root;
        };
        for (int y = 0; y < grid.height; ++y)
        {
            const double yc = y + 0.5;
            for (int i = 0; i <= grid.width; ++i)
                next[i] = i;
            for (size_t k = shapes.areas.size(); k-- > 0;)
            {
                const AreaRect2D& r = shapes.areas[k];
                if (!(lat.v(r.min.y) <= yc && yc < lat.v(r.max.y)))
                    continue;
                const int x0 = clampInt(std::ceil(lat.u(r.min.x) - 0.5), 0, grid.width);
                const int x1 = clampInt(std::ceil(lat.u(r.max.x) - 0.5), 0, grid.width);
                for (int x = find(x0); x < x1; x = find(x + 1))
                {
                    grid.areas[at(x, y)] = r.area;
                    next[x] = x + 1;
                }
            }
        }
    }
    return grid;
}

} // namespace spark::nav
