/// \file debug_draw.cpp
/// Design note — a deterministic software rasteriser for navmesh pictures.
///
/// World x–z points go through one affine view (double arithmetic, IEEE-exact
/// for the same inputs) and are rounded once to fixed point with 8 fractional
/// bits (1/256 px). Everything after that is integer:
///  - polygons: scanline fill at pixel-row centres with exact 128-bit crossing
///    arithmetic and a half-open rule on both axes (a pixel is inside when its
///    centre is, top-left style: y in [y0, y1), x in [x0, x1)), so polygons that
///    share an edge never paint a pixel twice or leave a gap (J. E. Bresenham's
///    and Pineda's fill conventions, see Foley, van Dam et al., "Computer
///    Graphics: Principles and Practice", §3.5–3.6);
///  - lines: clipped to the picture (Liang–Barsky, in double on the fixed-point
///    values), then Bresenham's integer line algorithm (IBM Systems Journal 4(1),
///    1965) with a square brush; dashed lines count steps;
///  - discs: every pixel whose centre lies within the radius, integer squares.
/// No anti-aliasing, no blending: each pixel is written with a solid colour, so a
/// picture depends only on the mesh, the overlay and the settings.

#include "spark/nav/debug_draw.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace spark::nav
{
namespace
{

constexpr int64_t kFix = 256; // sub-pixel steps per pixel

int64_t floorDiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

/// A picture being drawn.
struct Canvas
{
    Image& image;

    void put(int64_t x, int64_t y, uint32_t rgba)
    {
        if (x < 0 || y < 0 || x >= image.width || y >= image.height)
            return;
        uint8_t* p = image.rgba.data() + (static_cast<size_t>(y) * image.width + static_cast<size_t>(x)) * 4;
        p[0] = static_cast<uint8_t>(rgba >> 24);
        p[1] = static_cast<uint8_t>(rgba >> 16);
        p[2] = static_cast<uint8_t>(rgba >> 8);
        p[3] = static_cast<uint8_t>(rgba);
    }

    void brush(int64_t x, int64_t y, int size, uint32_t rgba)
    {
        const int lo = -(size - 1) / 2;
        for (int dy = lo; dy < lo + size; ++dy)
            for (int dx = lo; dx < lo + size; ++dx)
                put(x + dx, y + dy, rgba);
    }
};

struct FixPoint
{
    int64_t x = 0;
    int64_t y = 0;
};

/// Fixed-point view transform.
struct Projector
{
    DebugView view;
    FixPoint operator()(const glm::vec3& p) const
    {
        const double px = view.offsetX + (static_cast<double>(p.x) - view.minX) * view.scale;
        const double py = view.offsetY + (static_cast<double>(p.z) - view.minZ) * view.scale;
        return FixPoint{static_cast<int64_t>(std::llround(px * kFix)), static_cast<int64_t>(std::llround(py * kFix))};
    }
};

/// Even-odd scanline fill of a polygon given in fixed point.
void fillPolygon(Canvas& canvas, const std::vector<FixPoint>& poly, uint32_t rgba, std::vector<int64_t>& xs)
{
    if (poly.size() < 3)
        return;
    int64_t minY = poly[0].y, maxY = poly[0].y;
    for (const FixPoint& p : poly)
    {
        minY = std::min(minY, p.y);
        maxY = std::max(maxY, p.y);
    }
    // Rows whose centre (row·256 + 128) is in [minY, maxY).
    const int64_t row0 = std::max<int64_t>(0, floorDiv(minY - kFix / 2 + kFix - 1, kFix));
    const int64_t row1 = std::min<int64_t>(canvas.image.height - 1, floorDiv(maxY - kFix / 2 - 1, kFix));
    const size_t n = poly.size();
    for (int64_t row = row0; row <= row1; ++row)
    {
        const int64_t yc = row * kFix + kFix / 2;
        xs.clear();
        for (size_t i = 0; i < n; ++i)
        {
            const FixPoint& a = poly[i];
            const FixPoint& b = poly[(i + 1) % n];
            if ((a.y <= yc) == (b.y <= yc))
                continue;
            // x at yc, rounded down, exactly (128-bit products).
            const __int128 num = static_cast<__int128>(yc - a.y) * (b.x - a.x);
            const __int128 den = b.y - a.y;
            __int128 q = num / den;
            if ((num % den != 0) && ((num < 0) != (den < 0)))
                --q;
            const __int128 x = a.x + q;
            const __int128 lim = static_cast<__int128>(canvas.image.width + 2) * kFix;
            xs.push_back(static_cast<int64_t>(std::clamp<__int128>(x, -lim, lim)));
        }
        std::sort(xs.begin(), xs.end());
        for (size_t k = 0; k + 1 < xs.size(); k += 2)
        {
            // Pixels whose centre col·256 + 128 is in [xs[k], xs[k + 1]).
            const int64_t c0 = std::max<int64_t>(0, floorDiv(xs[k] - kFix / 2 + kFix - 1, kFix));
            const int64_t c1 = std::min<int64_t>(canvas.image.width - 1, floorDiv(xs[k + 1] - kFix / 2 - 1, kFix));
            for (int64_t c = c0; c <= c1; ++c)
                canvas.put(c, row, rgba);
        }
    }
}

/// Line a → b (fixed point) with a square brush; dashed when dashOn > 0.
void drawLine(Canvas& canvas, FixPoint a, FixPoint b, int size, uint32_t rgba, int dashOn = 0, int dashOff = 0)
{
    // Liang–Barsky clip to the picture plus a guard band, on the fixed-point values.
    const double guard = static_cast<double>(size + 2) * kFix;
    const double xmin = -guard, ymin = -guard;
    const double xmax = static_cast<double>(canvas.image.width) * kFix + guard;
    const double ymax = static_cast<double>(canvas.image.height) * kFix + guard;
    const double x0 = static_cast<double>(a.x), y0 = static_cast<double>(a.y);
    const double dx = static_cast<double>(b.x) - x0, dy = static_cast<double>(b.y) - y0;
    double t0 = 0.0, t1 = 1.0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {x0 - xmin, xmax - x0, y0 - ymin, ymax - y0};
    for (int i = 0; i < 4; ++i)
    {
        if (p[i] == 0.0)
        {
            if (q[i] < 0.0)
                return;
            continue;
        }
        const double r = q[i] / p[i];
        if (p[i] < 0.0)
            t0 = std::max(t0, r);
        else
            t1 = std::min(t1, r);
    }
    if (t0 > t1)
        return;
    // Dashes continue from the clipped start as if the line had been walked from a.
    int64_t px0 = floorDiv(static_cast<int64_t>(std::floor(x0 + t0 * dx)), kFix);
    int64_t py0 = floorDiv(static_cast<int64_t>(std::floor(y0 + t0 * dy)), kFix);
    const int64_t px1 = floorDiv(static_cast<int64_t>(std::floor(x0 + t1 * dx)), kFix);
    const int64_t py1 = floorDiv(static_cast<int64_t>(std::floor(y0 + t1 * dy)), kFix);
    const int64_t sx = px0 < px1 ? 1 : -1, sy = py0 < py1 ? 1 : -1;
    const int64_t ax = std::abs(px1 - px0), ay = -std::abs(py1 - py0);
    int64_t err = ax + ay;
    int64_t step = 0;
    const int64_t skipped = static_cast<int64_t>(std::max(std::fabs(t0 * dx), std::fabs(t0 * dy)) / kFix);
    for (;;)
    {
        const bool on = dashOn <= 0 || ((step + skipped) % (dashOn + dashOff)) < dashOn;
        if (on)
            canvas.brush(px0, py0, size, rgba);
        if (px0 == px1 && py0 == py1)
            break;
        const int64_t e2 = 2 * err;
        if (e2 >= ay)
        {
            err += ay;
            px0 += sx;
        }
        if (e2 <= ax)
        {
            err += ax;
            py0 += sy;
        }
        ++step;
    }
}

/// Disc of every pixel whose centre is within `radius` (fixed point) of `c`.
void fillDisc(Canvas& canvas, FixPoint c, int64_t radius, uint32_t rgba)
{
    const int64_t w = canvas.image.width, h = canvas.image.height;
    const int64_t c0 = std::max<int64_t>(0, floorDiv(c.x - radius, kFix));
    const int64_t c1 = std::min<int64_t>(w - 1, floorDiv(c.x + radius, kFix));
    const int64_t r0 = std::max<int64_t>(0, floorDiv(c.y - radius, kFix));
    const int64_t r1 = std::min<int64_t>(h - 1, floorDiv(c.y + radius, kFix));
    const int64_t r2 = radius * radius;
    for (int64_t row = r0; row <= r1; ++row)
        for (int64_t col = c0; col <= c1; ++col)
        {
            const int64_t dx = col * kFix + kFix / 2 - c.x;
            const int64_t dy = row * kFix + kFix / 2 - c.y;
            if (dx * dx + dy * dy <= r2)
                canvas.put(col, row, rgba);
        }
}

uint32_t shade(uint32_t rgba, int numerator, int denominator)
{
    auto channel = [&](int shift) {
        const int v = static_cast<int>((rgba >> shift) & 0xffu) * numerator / denominator;
        return static_cast<uint32_t>(std::clamp(v, 0, 255)) << shift;
    };
    return channel(24) | channel(16) | channel(8) | 0xffu;
}

bool finite3(const glm::vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

/// Largest overlay coordinate magnitude. [Units: m]
constexpr float kMaxOverlayCoordinate = 1.0e7f;

bool inRange(const glm::vec3& p)
{
    return finite3(p) && std::fabs(p.x) <= kMaxOverlayCoordinate && std::fabs(p.y) <= kMaxOverlayCoordinate &&
           std::fabs(p.z) <= kMaxOverlayCoordinate;
}

Status checkOverlay(const DebugOverlay& overlay)
{
    for (size_t i = 0; i < overlay.paths.size(); ++i)
        for (size_t j = 0; j < overlay.paths[i].size(); ++j)
            if (!inRange(overlay.paths[i][j]))
                return makeError("E_NAV_CONFIG", "Path points must be finite, within +-1e7.",
                                 "/paths/" + std::to_string(i) + "/" + std::to_string(j));
    for (size_t i = 0; i < overlay.obstacles.size(); ++i)
        for (size_t j = 0; j < overlay.obstacles[i].size(); ++j)
            if (!inRange(overlay.obstacles[i][j]))
                return makeError("E_NAV_CONFIG", "Obstacle points must be finite, within +-1e7.",
                                 "/obstacles/" + std::to_string(i) + "/" + std::to_string(j));
    for (size_t i = 0; i < overlay.agents.size(); ++i)
    {
        const DebugAgent& a = overlay.agents[i];
        if (!inRange(a.position) || !inRange(a.heading) || !std::isfinite(a.radius) || a.radius < 0.0f ||
            a.radius > kMaxOverlayCoordinate)
            return makeError("E_NAV_CONFIG", "Agent position, heading and radius must be finite.",
                             "/agents/" + std::to_string(i));
    }
    for (size_t i = 0; i < overlay.links.size(); ++i)
        if (!inRange(overlay.links[i].start) || !inRange(overlay.links[i].end))
            return makeError("E_NAV_CONFIG", "Link ends must be finite, within +-1e7.", "/links/" + std::to_string(i));
    return Status::success();
}

} // namespace

DebugDrawDef defaultDebugDrawDef() { return DebugDrawDef{}; }

uint32_t debugAreaColor(uint8_t area)
{
    static constexpr uint32_t kPalette[16] = {
        0x4a7fb0ffu, // 0 default walkable: steel blue
        0x9a7040ffu, // 1 brown (mud)
        0x3aa0a8ffu, // 2 teal (water)
        0x5e9e4cffu, // 3 green
        0x8a5cb0ffu, // 4 purple
        0xb08a3cffu, // 5 ochre
        0xb05a6effu, // 6 rose
        0x6a8a9affu, // 7 slate
        0x4cb088ffu, // 8 jade
        0xa0a040ffu, // 9 olive
        0x7070c8ffu, // 10 periwinkle
        0xc87848ffu, // 11 orange
        0x58a0d8ffu, // 12 sky
        0x909090ffu, // 13 grey
        0xb888c8ffu, // 14 lilac
        0x78b858ffu, // 15 lime
    };
    return kPalette[area & 15u];
}

Result<DebugView> debugViewFor(const NavMesh& mesh, const DebugDrawDef& def)
{
    if (def.width < kMinDebugImageSize || def.width > kMaxDebugImageSize)
        return makeError("E_NAV_CONFIG", "The picture width is 16..4096 px.", "/width");
    if (def.height < kMinDebugImageSize || def.height > kMaxDebugImageSize)
        return makeError("E_NAV_CONFIG", "The picture height is 16..4096 px.", "/height");
    if (def.margin < 0 || def.margin > std::min(def.width, def.height) / 4)
        return makeError("E_NAV_CONFIG", "The margin is 0..min(width, height)/4 px.", "/margin");
    double minX, minZ, maxX, maxZ;
    if (def.hasBounds)
    {
        minX = def.minX;
        minZ = def.minZ;
        maxX = def.maxX;
        maxZ = def.maxZ;
        const bool finite = std::isfinite(minX) && std::isfinite(minZ) && std::isfinite(maxX) && std::isfinite(maxZ);
        if (!finite || !(maxX - minX >= 1e-3) || !(maxZ - minZ >= 1e-3) || maxX - minX > 1e7 || maxZ - minZ > 1e7 ||
            std::fabs(minX) > 1e7 || std::fabs(minZ) > 1e7)
            return makeError("E_NAV_CONFIG",
                             "The bounds must be finite, min < max, each extent 0.001..1e7 m, within +-1e7.",
                             "/bounds");
    }
    else
    {
        if (mesh.empty())
            return makeError("E_NAV_NO_GEOMETRY", "The mesh is empty: give bounds to draw.", "/bounds");
        minX = mesh.bounds().min.x;
        minZ = mesh.bounds().min.z;
        maxX = mesh.bounds().max.x;
        maxZ = mesh.bounds().max.z;
        // A degenerate extent (a one-cell-wide strip) gets a minimum size.
        if (maxX - minX < 1e-3)
            maxX = minX + 1e-3;
        if (maxZ - minZ < 1e-3)
            maxZ = minZ + 1e-3;
    }
    const double innerW = def.width - 2.0 * def.margin, innerH = def.height - 2.0 * def.margin;
    DebugView view;
    view.scale = std::min(innerW / (maxX - minX), innerH / (maxZ - minZ));
    view.offsetX = (def.width - (maxX - minX) * view.scale) / 2.0;
    view.offsetY = (def.height - (maxZ - minZ) * view.scale) / 2.0;
    view.minX = minX;
    view.minZ = minZ;
    return view;
}

Result<Image> drawNavMeshDebug(const NavMesh& mesh, const DebugOverlay& overlay, const DebugDrawDef& def)
{
    auto viewResult = debugViewFor(mesh, def);
    if (!viewResult.ok())
        return viewResult.error();
    SPARK_TRY(checkOverlay(overlay));
    const Projector project{viewResult.value()};
    const double scale = viewResult->scale;

    Image image = makeImage(def.width, def.height, kDebugBackground);
    Canvas canvas{image};
    std::vector<FixPoint> poly;
    std::vector<int64_t> xs;

    // Polygons: area colour, shaded by mean height within the mesh's height range
    // (from 60 % at the lowest to 100 % at the highest; flat meshes at 85 %).
    const double lowY = mesh.bounds().min.y, highY = mesh.bounds().max.y;
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        if (mesh.disabled(p))
            continue; // carved away: its pieces are drawn
        const uint32_t n = mesh.polygonVertexCount(p);
        poly.clear();
        double sumY = 0.0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const glm::vec3 v = mesh.polygonVertex(p, i);
            poly.push_back(project(v));
            sumY += v.y;
        }
        int level = 85;
        if (highY - lowY > 1e-6)
            level = 60 + static_cast<int>(40.0 * ((sumY / n - lowY) / (highY - lowY)));
        fillPolygon(canvas, poly, shade(debugAreaColor(mesh.area(p)), level, 100), xs);
    }
    // Polygon edges, darker.
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        if (mesh.disabled(p))
            continue;
        const uint32_t n = mesh.polygonVertexCount(p);
        const uint32_t edge = shade(debugAreaColor(mesh.area(p)), 45, 100);
        for (uint32_t i = 0; i < n; ++i)
            drawLine(canvas, project(mesh.polygonVertex(p, i)), project(mesh.polygonVertex(p, (i + 1) % n)), 1, edge);
    }
    // Tile borders, faint and dashed, only where there are several tiles (a
    // one-tile or untiled mesh draws as before tiles existed). Tile (x, z)
    // covers [x·T, (x+1)·T) cells of the world's lattice (docs/tiles.md).
    if (mesh.tiled() && mesh.tiles().size() > 1)
    {
        const double side = static_cast<double>(mesh.tileSize()) * static_cast<double>(mesh.settings().cellSize);
        const double y = lowY;
        for (const NavTile& tile : mesh.tiles())
        {
            const double x0 = tile.x * side, x1 = (tile.x + 1.0) * side;
            const double z0 = tile.z * side, z1 = (tile.z + 1.0) * side;
            const glm::vec3 corners[4] = {
                {static_cast<float>(x0), static_cast<float>(y), static_cast<float>(z0)},
                {static_cast<float>(x1), static_cast<float>(y), static_cast<float>(z0)},
                {static_cast<float>(x1), static_cast<float>(y), static_cast<float>(z1)},
                {static_cast<float>(x0), static_cast<float>(y), static_cast<float>(z1)}};
            for (int i = 0; i < 4; ++i)
                drawLine(canvas, project(corners[i]), project(corners[(i + 1) % 4]), 1, kDebugTileBorder, 3, 5);
        }
    }
    // Walls.
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        for (const NavWall& wall : mesh.walls(p))
            drawLine(canvas, project(wall.a), project(wall.b), 2, kDebugWall);
    // Obstacles.
    for (const auto& outline : overlay.obstacles)
    {
        poly.clear();
        for (const glm::vec3& v : outline)
            poly.push_back(project(v));
        fillPolygon(canvas, poly, kDebugObstacleFill, xs);
        for (size_t i = 0; i < poly.size() && poly.size() >= 2; ++i)
            drawLine(canvas, poly[i], poly[(i + 1) % poly.size()], 2, kDebugObstacleEdge);
    }
    // Off-mesh links.
    const int64_t dot = 3 * kFix;
    for (const DebugLink& link : overlay.links)
    {
        drawLine(canvas, project(link.start), project(link.end), 2, kDebugLink, 6, 4);
        fillDisc(canvas, project(link.start), dot, kDebugLinkStart);
        fillDisc(canvas, project(link.end), dot, kDebugLinkEnd);
    }
    // Paths, then their corners.
    for (const auto& path : overlay.paths)
        for (size_t i = 0; i + 1 < path.size(); ++i)
            drawLine(canvas, project(path[i]), project(path[i + 1]), 2, kDebugPath);
    for (const auto& path : overlay.paths)
        for (const glm::vec3& corner : path)
            fillDisc(canvas, project(corner), dot, kDebugPathCorner);
    // Agents: disc, then a heading line from the centre to 1.6 radii.
    for (const DebugAgent& agent : overlay.agents)
    {
        const double rPx = std::clamp(static_cast<double>(agent.radius) * scale, 3.0, 4096.0);
        const FixPoint centre = project(agent.position);
        fillDisc(canvas, centre, static_cast<int64_t>(std::llround(rPx * kFix)), kDebugAgent);
        const double hx = agent.heading.x, hz = agent.heading.z;
        const double len = std::sqrt(hx * hx + hz * hz);
        if (len > 1e-9)
        {
            const double reach = 1.6 * rPx * kFix / len;
            const FixPoint tip{centre.x + static_cast<int64_t>(std::llround(hx * reach)),
                               centre.y + static_cast<int64_t>(std::llround(hz * reach))};
            drawLine(canvas, centre, tip, 2, kDebugAgentHeading);
        }
    }
    return image;
}

} // namespace spark::nav
