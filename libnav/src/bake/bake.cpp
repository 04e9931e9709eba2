/// \file bake.cpp
/// The 3D bake: settings validation and the order of the stages.
///
/// Design note. The pipeline is modelled on Recast (Mikko Mononen, "Recast
/// Navigation", https://github.com/recastnavigation/recastnavigation, and his
/// talk "Navigation Mesh Generation via Voxelization and Watershed
/// Partitioning", 2009), re-written here in our own terms and simplified for a
/// single tile and bit-for-bit determinism:
///
///  1. voxelize.cpp — triangles become solid spans on a cell_size × cell_height
///     grid; a span is walkable when its top triangle is not steeper than
///     max_slope_deg.
///  2. filter.cpp — kerbs lower than step_height become walkable, ledges are
///     flagged, spans without agent_height of head room are dropped; the open
///     field (the free space above each walkable span, linked to the spans an
///     agent can step to) is built.
///  3. erode.cpp — a chamfer distance transform from every border; spans
///     nearer than agent_radius (and the ledges) are dropped.
///  4. regions.cpp — islands under min_region_area are dropped; the rest is
///     cut into monotone regions, and small ones (under merge_region_area, or
///     touching no wall) are merged into a neighbour they meet along one
///     stretch, as Recast does (no holes, no overlaps).
///  5. contours.cpp — each region's outline is traced; the ends of borders
///     the sweep put on obstacles' corners move a step or two along the wall;
///     outlines are simplified with Douglas–Peucker and long edges halved.
///  6. polygons.cpp — ear clipping and greedy convex merging into polygons of
///     at most max_verts_per_poly vertices; row-run rectangles cover a region
///     whose outline cannot be triangulated.
///
/// With def.tileSize > 0 the same stages run per tile (tiles.cpp, and the
/// design note there; docs/tiles.md).
///
/// Differences from Recast: border ends move off obstacles' corners (so a
/// monotone mesh does not keep every obstacle's extreme corners as vertices,
/// which lengthens paths round them); there is no watershed and no height
/// detail mesh; erosion keeps a cell when all of it lies agent_radius from
/// every border (Recast rounds the radius up to whole cells first, which is
/// the same for radii of whole cells); every geometric test on outlines runs
/// on integers. On RecastDemo's settings our bakes come within 2 % of Recast's
/// polygon count and walkable area (bench/bake_bench). Stages own their buffers (flat arrays indexed by span); no
/// stage allocates per span. There are no clocks or hash-map iterations, and
/// tiles bake as independent jobs joined in tile order, so a bake is
/// bit-identical run to run and for any thread count.

#include "bake_stages.h"

#include "spark/core/det_math.h"
#include "spark/core/work.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace spark::nav
{

BakeDef defaultBakeDef()
{
    return BakeDef{};
}

NavMeshDef navMeshDefFromBake(const BakeDef& def, bool is2d)
{
    NavMeshDef out = defaultNavMeshDef();
    out.settings.agentRadius = def.agentRadius;
    out.settings.agentHeight = def.agentHeight;
    out.settings.stepHeight = def.stepHeight;
    out.settings.cellSize = def.cellSize;
    out.settings.cellHeight = def.cellHeight;
    out.settings.maxSlopeDeg = def.maxSlopeDeg;
    out.is2d = is2d;
    out.maxPolyVerts = kMaxBakedPolyVerts;
    out.refuseOverlaps = false; // a bake partitions the walkable space
    return out;
}

namespace bake
{

CellSettings cellSettingsOf(const BakeDef& def)
{
    CellSettings c;
    c.cellSize = def.cellSize;
    c.cellHeight = def.cellHeight;
    const double height = std::ceil(static_cast<double>(def.agentHeight) / def.cellHeight);
    c.walkableHeight = static_cast<int>(std::clamp(height, 1.0, static_cast<double>(kMaxSpanHeight)));
    const double climb = std::floor(static_cast<double>(def.stepHeight) / def.cellHeight);
    c.walkableClimb = static_cast<int>(std::clamp(climb, 0.0, static_cast<double>(kMaxSpanHeight)));
    c.erodeRadius = static_cast<float>(std::min(static_cast<double>(def.agentRadius) / def.cellSize, 1.0e6));
    c.walkableCos = static_cast<float>(det::cos(det::radians(static_cast<double>(def.maxSlopeDeg))));
    if (def.maxSlopeDeg >= 90.0f)
        c.walkableCos = 0.0f;
    c.maxError = def.maxSimplificationError;
    if (def.maxEdgeLen > 0.0f)
    {
        const double cellsLong = std::floor(static_cast<double>(def.maxEdgeLen) / def.cellSize);
        c.maxEdgeLen = static_cast<int>(std::clamp(cellsLong, 1.0, 1.0e6));
    }
    c.maxVertsPerPoly = def.maxVertsPerPoly;
    const double minCells = std::ceil(static_cast<double>(def.minRegionArea) /
                                      (static_cast<double>(def.cellSize) * def.cellSize));
    c.minRegionCells = static_cast<int>(std::clamp(minCells, 0.0, 1.0e9));
    const double mergeCells = std::ceil(static_cast<double>(def.mergeRegionArea) /
                                        (static_cast<double>(def.cellSize) * def.cellSize));
    c.mergeRegionCells = static_cast<int>(std::clamp(mergeCells, 0.0, 1.0e9));
    return c;
}

} // namespace bake

std::vector<SolidRange> connectedTriangleRuns(const BakeInput& input)
{
    const size_t triangles = input.indices.size() / 3;
    for (uint32_t i : input.indices)
        if (i >= input.vertices.size())
            return {};
    // Union-find over vertices: the triangles of one piece share them.
    std::vector<uint32_t> parent(input.vertices.size());
    std::iota(parent.begin(), parent.end(), 0u);
    auto root = [&](uint32_t v) {
        while (parent[v] != v)
            v = parent[v] = parent[parent[v]];
        return v;
    };
    for (size_t t = 0; t < triangles; ++t)
        for (int k = 1; k < 3; ++k)
        {
            const uint32_t a = root(input.indices[t * 3]), b = root(input.indices[t * 3 + k]);
            parent[std::max(a, b)] = std::min(a, b);
        }
    std::vector<SolidRange> runs;
    uint32_t runRoot = 0;
    for (size_t t = 0; t < triangles; ++t)
    {
        const uint32_t r = root(input.indices[t * 3]);
        if (!runs.empty() && r == runRoot)
            ++runs.back().triangleCount;
        else
            runs.push_back({static_cast<uint32_t>(t), 1}), runRoot = r;
    }
    // Only closed runs are solids (an open one, a terrain say, is baked as its
    // surfaces; listing it would make every tile job carry all of it). A
    // closed surface has at least four triangles.
    std::erase_if(runs, [&](const SolidRange& run)
                  { return run.triangleCount < 4 || bake::closedSolidSign(input, run) == 0; });
    return runs;
}

namespace
{

Status checkSetting(float value, bool ok, const char* field, const char* limit)
{
    if (std::isfinite(value) && ok)
        return Status::success();
    return makeError("E_NAV_CONFIG", std::string(field + 1) + " must be " + limit, field);
}

} // namespace

namespace bake
{

Status validateBakeDef(const BakeDef& d)
{
    SPARK_TRY(checkSetting(d.cellSize, d.cellSize > 0.0f, "/cell_size", "a finite number > 0"));
    SPARK_TRY(checkSetting(d.cellHeight, d.cellHeight > 0.0f, "/cell_height", "a finite number > 0"));
    SPARK_TRY(checkSetting(d.agentRadius, d.agentRadius >= 0.0f, "/agent_radius", "a finite number >= 0"));
    SPARK_TRY(checkSetting(d.agentHeight, d.agentHeight > 0.0f, "/agent_height", "a finite number > 0"));
    SPARK_TRY(checkSetting(d.stepHeight, d.stepHeight >= 0.0f, "/step_height", "a finite number >= 0"));
    SPARK_TRY(checkSetting(d.maxSlopeDeg, d.maxSlopeDeg >= 0.0f && d.maxSlopeDeg <= 90.0f, "/max_slope_deg",
                           "between 0 and 90"));
    SPARK_TRY(checkSetting(d.maxSimplificationError, d.maxSimplificationError >= 0.0f, "/max_simplification_error",
                           "a finite number >= 0"));
    SPARK_TRY(checkSetting(d.maxEdgeLen, d.maxEdgeLen >= 0.0f, "/max_edge_len", "a finite number >= 0"));
    SPARK_TRY(checkSetting(d.minRegionArea, d.minRegionArea >= 0.0f, "/min_region_area", "a finite number >= 0"));
    SPARK_TRY(checkSetting(d.mergeRegionArea, d.mergeRegionArea >= 0.0f, "/merge_region_area", "a finite number >= 0"));
    if (d.maxVertsPerPoly < 3 || d.maxVertsPerPoly > 6)
        return makeError("E_NAV_CONFIG", "max_verts_per_poly must be between 3 and 6", "/max_verts_per_poly");
    if (d.agentRadii.size() > kMaxAgentRadii)
        return makeError("E_NAV_CONFIG", "agent_radii holds at most " + std::to_string(kMaxAgentRadii) + " radii",
                         "/agent_radii", "bake the other radii in a second bake");
    for (size_t i = 0; i < d.agentRadii.size(); ++i)
    {
        const float r = d.agentRadii[i];
        const std::string field = "/agent_radii/" + std::to_string(i);
        if (!std::isfinite(r) || r < 0.0f || r > 1000.0f)
            return makeError("E_NAV_CONFIG", "agent_radii holds finite radii 0..1000 (metres)", field);
        for (size_t k = 0; k < i; ++k)
            if (d.agentRadii[k] == r)
                return makeError("E_NAV_CONFIG", "agent_radii lists the radius " + std::to_string(r) + " twice", field,
                                 "each radius gives one mesh: list it once");
    }
    if (!std::isfinite(d.borderRadius) || d.borderRadius < 0.0f || d.borderRadius > 1000.0f)
        return makeError("E_NAV_CONFIG", "border_radius is a finite radius 0..1000 (metres)", "/border_radius");
    if (d.threads < 0 || d.threads > kMaxBakeThreads)
        return makeError("E_NAV_CONFIG", "threads must be between 0 (the hardware's) and 256", "/threads");
    const TileRange all;
    const TileRange& r = d.tileRange;
    if (r.x0 > r.x1 || r.z0 > r.z1)
        return makeError("E_NAV_CONFIG", "the tile range must have x0 <= x1 and z0 <= z1", "/tiles");
    if (d.tileSize == 0 && (r.x0 != all.x0 || r.x1 != all.x1 || r.z0 != all.z0 || r.z1 != all.z1))
        return makeError("E_NAV_CONFIG", "a tile range needs a tiled bake (tile_size > 0)", "/tiles");
    if (d.tileSize != 0)
    {
        const int border = tileBorderCells(d);
        if (d.tileSize < 8 || d.tileSize > kMaxBakeColumns - 2 * border)
            return makeError("E_NAV_CONFIG",
                             "tile_size must be 0 (one grid) or 8.." + std::to_string(kMaxBakeColumns - 2 * border) +
                                 " cells (a tile and its border of " + std::to_string(border) +
                                 " cells make at most 4096)",
                             "/tile_size");
    }
    return Status::success();
}

/// A count or distance for a message: digits up to 10^15, else a power of ten
/// (a huge double converted to an integer type is undefined behaviour).
std::string cellCount(double n)
{
    if (n < 1e15)
        return std::to_string(static_cast<long long>(n));
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", n);
    return text;
}

Status validateBakeInput(const BakeInput& in)
{
    if (in.indices.size() % 3 != 0)
        return makeError("E_NAV_CONFIG", "the triangle index count is not a multiple of 3", "/indices");
    const size_t triangles = in.indices.size() / 3;
    if (!in.areas.empty() && in.areas.size() != triangles)
        return makeError("E_NAV_CONFIG", "areas must be empty or hold one entry per triangle", "/areas");
    for (size_t i = 0; i < in.areas.size(); ++i)
        if (in.areas[i] > 15)
            return makeError("E_NAV_CONFIG", "area ids are 0..15", "/areas/" + std::to_string(i));
    for (size_t i = 0; i < in.solids.size(); ++i)
        if (in.solids[i].firstTriangle > triangles ||
            in.solids[i].triangleCount > triangles - in.solids[i].firstTriangle)
            return makeError("E_NAV_CONFIG", "a solid's triangles run past the last triangle",
                             "/solids/" + std::to_string(i));
    for (size_t i = 0; i < in.indices.size(); ++i)
        if (in.indices[i] >= in.vertices.size())
            return makeError("E_NAV_CONFIG", "triangle index out of range", "/indices/" + std::to_string(i));
    for (size_t i = 0; i < in.vertices.size(); ++i)
    {
        const glm::vec3& v = in.vertices[i];
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
            return makeError("E_NAV_CONFIG", "vertex coordinates must be finite", "/vertices/" + std::to_string(i));
        const float far = std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
        if (far > kMaxCoordinate)
            return makeError("E_NAV_LIMIT",
                             "vertex " + std::to_string(i) + " lies " + cellCount(far) +
                                 " m from the origin, beyond the 1000000 m a mesh may reach",
                             "/vertices/" + std::to_string(i),
                             "move the scene near the origin, or leave out the far geometry");
    }
    return Status::success();
}

namespace
{

/// Erosion onward on a filtered field with its distances (`filtered`: its
/// areas before any drop): the drops of one radius, a tile's border kept
/// out, regions, contours and polygons.
Status erodeOnward(OpenField& open, const std::vector<uint8_t>& filtered, const CellSettings& cells,
                   const KeepBox* keep, BakeStats& ioStats, PolySoup& outMesh)
{
    // Safe points between the stages (spark/core/work.h): a stopped bake has built nothing
    // its caller keeps; the progress counts the finished stages. The tile pool's
    // threads install no control, so there they cost one thread-local read each.
    auto stage = [](const char* next, uint64_t done) { return workCheckpoint(next, done, kBakeStages); };
    dropNearBorder(open, cells, filtered);
    if (keep)
    {
        // A tile's border only informs the filter and erosion: its spans make
        // no polygons. Only the columns outside `keep` are visited: the rows
        // before and after it, and each row's ends.
        open.borderWalkable.assign(open.spanCount(), 0);
        auto dropColumn = [&](const UsedColumn& c) {
            for (uint32_t i = c.first; i < c.last; ++i)
            {
                open.borderWalkable[i] = open.area[i] != kNullArea ? 1 : 0;
                open.area[i] = kNullArea;
            }
        };
        for (int z = 0; z < open.grid.depth; ++z)
        {
            const uint32_t begin = open.rowStart[static_cast<size_t>(z)];
            const uint32_t end = open.rowStart[static_cast<size_t>(z) + 1];
            const bool rowKept = z >= keep->z0 && z < keep->z1;
            uint32_t k = begin;
            for (; k < end && (!rowKept || usedColumn(open, z, k).x < keep->x0); ++k)
                dropColumn(usedColumn(open, z, k));
            for (uint32_t back = end; back > k && usedColumn(open, z, back - 1).x >= keep->x1; --back)
                dropColumn(usedColumn(open, z, back - 1));
        }
    }
    if (!stage("bake: regions", 3))
        return cancelledError("bake: regions");
    buildRegions(open, cells);
    ioStats.regions += open.regionCount;
    if (!stage("bake: contours", 4))
        return cancelledError("bake: contours");
    ContourSet contours;
    buildContours(open, cells, contours);
    if (!stage("bake: polygons", 5))
        return cancelledError("bake: polygons");
    ioStats.fallbackRegions += buildPolygons(contours, open, cells, outMesh);
    return Status::success();
}

/// The spans of the columns in `w` as a field of their own, with their
/// distances and areas; links that leave `w` are cut. A tile's stages after
/// erosion see only the tile and the ring of border cells round it (regions,
/// contours and polygons read no further, and every one of them works on
/// cells relative to each other, so the polygons are the same), not the
/// whole border: with the 1 km terrain's 64-cell tiles and a 0.3 m radius on
/// 0.2 m cells that is 66² columns instead of 74², and 66² instead of 82²
/// for each radius of [0.3, 0.6, 1.2] (whose tiles have 1.2 m's border).
OpenField cropField(const OpenField& f, const KeepBox& w)
{
    OpenField out;
    out.grid = f.grid;
    out.grid.width = w.x1 - w.x0;
    out.grid.depth = w.z1 - w.z0;
    out.grid.latticeX += w.x0;
    out.grid.latticeZ += w.z0;
    out.grid.origin.x += static_cast<float>(w.x0) * f.grid.cellSize; // read off the lattice only
    out.grid.origin.z += static_cast<float>(w.z0) * f.grid.cellSize;
    const size_t width = static_cast<size_t>(out.grid.width);
    const size_t depth = static_cast<size_t>(out.grid.depth);
    const size_t srcWidth = static_cast<size_t>(f.grid.width);
    // A row's spans are stored one after the other, so the window's part of
    // a source row is one run, [cellFirst of x0, cellFirst of x1): it is
    // copied whole (a copy per span and array was a twentieth of a tiled
    // terrain bake), and the window's edges are cut after.
    auto runOf = [&](size_t z) {
        const size_t row = z * srcWidth;
        return std::pair<uint32_t, uint32_t>{f.cellFirst[row + static_cast<size_t>(w.x0)],
                                             f.cellFirst[row + static_cast<size_t>(w.x1)]};
    };
    size_t total = 0;
    for (int z = w.z0; z < w.z1; ++z)
    {
        const auto run = runOf(static_cast<size_t>(z));
        total += run.second - run.first;
    }
    out.cellFirst.resize(width * depth + 1);
    out.rowStart.resize(depth + 1);
    for (auto* v : {&out.y, &out.h, &out.dist})
        v->reserve(total);
    out.con.reserve(total);
    out.area.reserve(total);
    uint32_t next = 0;
    for (int z = w.z0; z < w.z1; ++z)
    {
        const size_t row = static_cast<size_t>(z - w.z0) * width;
        const size_t srcRow = static_cast<size_t>(z) * srcWidth;
        const std::pair<uint32_t, uint32_t> run = runOf(static_cast<size_t>(z));
        const uint32_t first = run.first;
        const uint32_t rowEnd = next + (run.second - first);
        out.rowStart[static_cast<size_t>(z - w.z0)] = static_cast<uint32_t>(out.usedColumns.size());
        for (uint32_t k = f.rowStart[static_cast<size_t>(z)]; k < f.rowStart[static_cast<size_t>(z) + 1]; ++k)
        {
            const int x = static_cast<int>(f.usedColumns[k] - srcRow);
            if (x >= w.x1)
                break;
            if (x >= w.x0)
                out.usedColumns.push_back(static_cast<uint32_t>(row + static_cast<size_t>(x - w.x0)));
        }
        for (int x = w.x0; x < w.x1; ++x)
            out.cellFirst[row + static_cast<size_t>(x - w.x0)] = f.cellFirst[srcRow + static_cast<size_t>(x)] - first + next;
        auto copyRun = [&](auto& to, const auto& from) {
            to.insert(to.end(), from.begin() + run.first, from.begin() + run.second);
        };
        copyRun(out.y, f.y);
        copyRun(out.h, f.h);
        copyRun(out.con, f.con);
        copyRun(out.area, f.area);
        copyRun(out.dist, f.dist);
        // Links across the window's edge are cut (dir: 0 = -x, 1 = +z, 2 = +x, 3 = -z).
        auto cut = [&](uint32_t from, uint32_t to, int dir) {
            for (uint32_t i = from; i < to; ++i)
                out.con[i] |= kNoConnection << (dir * 6);
        };
        if (z == w.z0)
            cut(next, rowEnd, 3);
        if (z == w.z1 - 1)
            cut(next, rowEnd, 1);
        cut(next, width > 1 ? out.cellFirst[row + 1] : rowEnd, 0);
        cut(out.cellFirst[row + width - 1], rowEnd, 2);
        next = rowEnd;
    }
    out.cellFirst.back() = next;
    out.rowStart.back() = static_cast<uint32_t>(out.usedColumns.size());
    out.region.assign(next, 0);
    return out;
}

} // namespace

Status bakeSolid(SolidField& ioSolid, const std::vector<CellSettings>& radii, const KeepBox* keep,
                 std::vector<BakeOutput>& ioOuts)
{
    for (BakeOutput& out : ioOuts)
        out.stats.spans += ioSolid.spanCount;
    if (!workCheckpoint("bake: filter", 1, kBakeStages))
        return cancelledError("bake: filter");
    OpenField open;
    SPARK_TRY(filterSpans(ioSolid, radii.front(), open)); // the filter reads no radius
    ioSolid = SolidField{}; // the open field replaces it (and holds its column array)
    if (!workCheckpoint("bake: erode", 2, kBakeStages))
        return cancelledError("bake: erode");
    borderDistance(open); // the chamfer distances serve every radius
    KeepBox inner{};
    if (keep)
    {
        open = cropField(open, KeepBox{keep->x0 - 1, keep->z0 - 1, keep->x1 + 1, keep->z1 + 1});
        inner = KeepBox{1, 1, 1 + keep->x1 - keep->x0, 1 + keep->z1 - keep->z0};
        keep = &inner;
    }

    // From here on the stages write only the spans' areas (the drops) and
    // regions (which buildRegions clears first; a tile's border flags are
    // assigned whole): each radius starts from the filtered areas again, on
    // the same field — a copy of one byte per span, not of the field.
    const std::vector<uint8_t> filteredArea = radii.size() > 1 ? open.area : std::vector<uint8_t>{};
    for (size_t i = 0; i < radii.size(); ++i)
    {
        open.regionCount = 0;
        SPARK_TRY(erodeOnward(open, radii.size() > 1 ? filteredArea : open.area, radii[i], keep, ioOuts[i].stats,
                              ioOuts[i].mesh));
    }
    return Status::success();
}

} // namespace bake

int tileBorderCells(const BakeDef& def)
{
    BakeDef widest = def;
    widest.agentRadius = std::max(def.agentRadius, def.borderRadius);
    return static_cast<int>(std::ceil(static_cast<double>(bake::cellSettingsOf(widest).erodeRadius))) + 3;
}

std::vector<float> bakeRadii(const BakeDef& def)
{
    return def.agentRadii.empty() ? std::vector<float>{def.agentRadius} : def.agentRadii;
}

BakeDef bakeDefForRadius(const BakeDef& def, float radius)
{
    BakeDef out = def;
    out.agentRadius = radius;
    for (float r : def.agentRadii)
        out.borderRadius = std::max(out.borderRadius, r);
    out.agentRadii.clear();
    return out;
}

namespace
{

Error nothingWalkable(const std::vector<float>& radii, size_t i)
{
    if (radii.size() == 1)
        return makeError("E_NAV_NO_GEOMETRY", "nothing is walkable with these settings", {},
                         "check max_slope_deg, agent_height and agent_radius against the geometry");
    return makeError("E_NAV_NO_GEOMETRY", "nothing is walkable with agent radius " + std::to_string(radii[i]),
                     "/agent_radii/" + std::to_string(i), "leave out this radius, or check it against the geometry");
}

/// The single-grid bake of every radius (validated): the grid spans the
/// input's bounds, whatever the radius, so the voxels, the filtered open
/// field and its distances from the borders are the same for all of them.
/// They are made once; each radius drops the spans near a border from the
/// filtered areas and goes on from there. So radius i's result is that of a
/// bake of radius i alone, bit for bit (tests/nav/bake/radii_test.cpp).
Result<std::vector<BakeOutput>> bakeSingleGrid(const BakeInput& input, const BakeDef& def,
                                               const std::vector<float>& radii)
{
    // Bounds of the referenced vertices.
    glm::vec3 lo = input.vertices[input.indices[0]];
    glm::vec3 hi = lo;
    for (uint32_t idx : input.indices)
    {
        lo = glm::min(lo, input.vertices[idx]);
        hi = glm::max(hi, input.vertices[idx]);
    }
    const double columnsX = std::ceil((static_cast<double>(hi.x) - lo.x) / def.cellSize);
    const double columnsZ = std::ceil((static_cast<double>(hi.z) - lo.z) / def.cellSize);
    constexpr double kMaxColumns = 4096.0;
    if (columnsX > kMaxColumns || columnsZ > kMaxColumns)
        return makeError("E_NAV_LIMIT",
                         "the bake grid would be " + bake::cellCount(columnsX) + " x " + bake::cellCount(columnsZ) +
                             " cells, more than 4096 x 4096",
                         "/cell_size", "bake in tiles (tile_size, e.g. 64) or raise cell_size");
    const double layers = std::ceil((static_cast<double>(hi.y) - lo.y) / def.cellHeight);
    if (layers >= static_cast<double>(bake::kMaxSpanHeight))
        return makeError("E_NAV_LIMIT", "the scene is more than 65534 cells tall", "/cell_height",
                         "raise cell_height");

    std::vector<bake::CellSettings> cells;
    for (float r : radii)
        cells.push_back(bake::cellSettingsOf(bakeDefForRadius(def, r)));
    bake::SolidField solid;
    solid.grid.width = std::max(1, static_cast<int>(columnsX));
    solid.grid.depth = std::max(1, static_cast<int>(columnsZ));
    solid.grid.origin = lo;
    solid.grid.cellSize = def.cellSize;
    solid.grid.cellHeight = def.cellHeight;

    std::vector<BakeOutput> outs(radii.size());
    for (BakeOutput& out : outs)
    {
        out.boundsMin = lo;
        out.boundsMax = hi;
        out.stats.cells = static_cast<uint64_t>(solid.grid.width) * static_cast<uint64_t>(solid.grid.depth);
    }
    // Safe points between the stages (spark/core/work.h): a stopped bake has built nothing
    // its caller keeps.
    if (!workCheckpoint("bake: voxelize", 0, bake::kBakeStages))
        return cancelledError("bake: voxelize");
    bake::voxelizeTriangles(input, cells.front(), solid); // the voxeliser reads no radius
    SPARK_TRY(bake::bakeSolid(solid, cells, nullptr, outs));
    for (size_t i = 0; i < outs.size(); ++i)
        if (outs[i].mesh.polygonCount() == 0)
            return nothingWalkable(radii, i);
    return outs;
}

/// Every radius's `BakeOutput` (validated def and input, at least one triangle).
Result<std::vector<BakeOutput>> bakeEveryRadius(const BakeInput& input, const BakeDef& def)
{
    const std::vector<float> radii = bakeRadii(def);
    if (def.tileSize <= 0)
        return bakeSingleGrid(input, def, radii);
    auto tiled = bake::bakeTiles(input, def);
    if (!tiled.ok())
        return tiled.error();
    for (size_t i = 0; i < radii.size(); ++i)
        if (tiled.value()[i].tiles.empty())
            return nothingWalkable(radii, i);
    return tiled;
}

/// The checks of a bake of every radius of `def`.
Status validateBake(const BakeInput& input, const BakeDef& def)
{
    SPARK_TRY(bake::validateBakeDef(def));
    for (float r : bakeRadii(def)) // the tile size's limit follows the radius's border
        SPARK_TRY(bake::validateBakeDef(bakeDefForRadius(def, r)));
    SPARK_TRY(bake::validateBakeInput(input));
    if (input.indices.empty())
        return makeError("E_NAV_NO_GEOMETRY", "there are no triangles to bake");
    return Status::success();
}

Status requireOneRadius(const BakeDef& def)
{
    if (def.agentRadii.size() > 1)
        return makeError("E_NAV_CONFIG", "agent_radii gives several meshes; this bake makes one", "/agent_radii",
                         "bake several radii with bakeNavMeshes");
    return Status::success();
}

} // namespace

Result<BakeOutput> bakeTriangles(const BakeInput& input, const BakeDef& def)
{
    SPARK_TRY(requireOneRadius(def));
    SPARK_TRY(validateBake(input, def));
    auto outs = bakeEveryRadius(input, def);
    if (!outs.ok())
        return outs.error();
    return std::move(outs.value().front());
}

Result<std::vector<BakedNavMesh>> bakeNavMeshes(const BakeInput& input, const BakeDef& def)
{
    SPARK_TRY(validateBake(input, def));
    auto baked = bakeEveryRadius(input, def);
    if (!baked.ok())
        return baked.error();
    if (!workCheckpoint("bake: navmesh", 6, 6))
        return cancelledError("bake: navmesh");
    const std::vector<float> radii = bakeRadii(def);
    std::vector<BakedNavMesh> out;
    for (size_t i = 0; i < radii.size(); ++i)
    {
        BakeOutput& b = baked.value()[i];
        const NavMeshDef meshDef = navMeshDefFromBake(bakeDefForRadius(def, radii[i]), false);
        auto mesh = def.tileSize > 0
                        ? buildTiledNavMesh(b.mesh, meshDef, static_cast<uint32_t>(def.tileSize), std::move(b.tiles))
                        : buildNavMesh(b.mesh, meshDef);
        if (!mesh.ok())
            return mesh.error();
        out.push_back(BakedNavMesh{std::move(mesh.value()), b.stats});
    }
    return out;
}

Result<BakedNavMesh> bakeNavMesh(const BakeInput& input, const BakeDef& def)
{
    SPARK_TRY(requireOneRadius(def));
    auto baked = bakeNavMeshes(input, def);
    if (!baked.ok())
        return baked.error();
    return std::move(baked.value().front());
}

} // namespace spark::nav
