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
    // A closed surface has at least four triangles.
    std::erase_if(runs, [](const SolidRange& run) { return run.triangleCount < 4; });
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

Status bakeSolid(SolidField& ioSolid, const CellSettings& cells, const KeepBox* keep, BakeStats& ioStats,
                 PolySoup& outMesh)
{
    // Safe points between the stages (spark/core/work.h): a stopped bake has built nothing
    // its caller keeps. Six stages; the progress counts the finished ones. The tile pool's
    // threads install no control, so there they cost one thread-local read each.
    constexpr uint64_t kStages = 6;
    auto stage = [](const char* next, uint64_t done) { return workCheckpoint(next, done, kStages); };
    ioStats.spans += ioSolid.spanCount;
    if (!stage("bake: filter", 1))
        return cancelledError("bake: filter");
    OpenField open;
    SPARK_TRY(filterSpans(ioSolid, cells, open));
    ioSolid = SolidField{}; // the open field replaces it (and holds its column array)
    if (!stage("bake: erode", 2))
        return cancelledError("bake: erode");
    erodeWalkable(open, cells);
    if (keep)
    {
        // A tile's border only informs the filter and erosion: its spans make no polygons.
        open.borderWalkable.assign(open.spanCount(), 0);
        for (int z = 0; z < open.grid.depth; ++z)
            for (uint32_t k = open.rowStart[static_cast<size_t>(z)]; k < open.rowStart[static_cast<size_t>(z) + 1]; ++k)
            {
                const UsedColumn c = usedColumn(open, z, k);
                if (c.x >= keep->x0 && c.x < keep->x1 && z >= keep->z0 && z < keep->z1)
                    continue;
                for (uint32_t i = c.first; i < c.last; ++i)
                {
                    open.borderWalkable[i] = open.area[i] != kNullArea ? 1 : 0;
                    open.area[i] = kNullArea;
                }
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

} // namespace bake

int tileBorderCells(const BakeDef& def)
{
    return static_cast<int>(std::ceil(static_cast<double>(bake::cellSettingsOf(def).erodeRadius))) + 3;
}

Result<BakeOutput> bakeTriangles(const BakeInput& input, const BakeDef& def)
{
    SPARK_TRY(bake::validateBakeDef(def));
    SPARK_TRY(bake::validateBakeInput(input));
    if (input.indices.empty())
        return makeError("E_NAV_NO_GEOMETRY", "there are no triangles to bake");
    if (def.tileSize > 0)
        return bake::bakeTiles(input, def);

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

    const bake::CellSettings cells = bake::cellSettingsOf(def);
    bake::SolidField solid;
    solid.grid.width = std::max(1, static_cast<int>(columnsX));
    solid.grid.depth = std::max(1, static_cast<int>(columnsZ));
    solid.grid.origin = lo;
    solid.grid.cellSize = def.cellSize;
    solid.grid.cellHeight = def.cellHeight;

    BakeOutput out;
    out.boundsMin = lo;
    out.boundsMax = hi;
    out.stats.cells = static_cast<uint64_t>(solid.grid.width) * static_cast<uint64_t>(solid.grid.depth);

    // Safe points between the stages (spark/core/work.h): a stopped bake has built nothing
    // its caller keeps. Six stages; the progress counts the finished ones.
    constexpr uint64_t kStages = 6;
    auto stage = [](const char* next, uint64_t done) { return workCheckpoint(next, done, kStages); };
    if (!stage("bake: voxelize", 0))
        return cancelledError("bake: voxelize");
    bake::voxelizeTriangles(input, cells, solid);
    SPARK_TRY(bake::bakeSolid(solid, cells, nullptr, out.stats, out.mesh));

    if (out.mesh.polygonCount() == 0)
        return makeError("E_NAV_NO_GEOMETRY", "nothing is walkable with these settings", {},
                         "check max_slope_deg, agent_height and agent_radius against the geometry");
    return out;
}

Result<BakedNavMesh> bakeNavMesh(const BakeInput& input, const BakeDef& def)
{
    auto baked = bakeTriangles(input, def);
    if (!baked.ok())
        return baked.error();
    if (!workCheckpoint("bake: navmesh", 6, 6))
        return cancelledError("bake: navmesh");
    const NavMeshDef meshDef = navMeshDefFromBake(def, false);
    auto mesh = def.tileSize > 0 ? buildTiledNavMesh(baked.value().mesh, meshDef, static_cast<uint32_t>(def.tileSize),
                                                     std::move(baked.value().tiles))
                                 : buildNavMesh(baked.value().mesh, meshDef);
    if (!mesh.ok())
        return mesh.error();
    return BakedNavMesh{std::move(mesh.value()), baked.value().stats};
}

} // namespace spark::nav
