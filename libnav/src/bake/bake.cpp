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
/// Differences from Recast: border ends move off obstacles' corners (so a
/// monotone mesh does not keep every obstacle's extreme corners as vertices,
/// which lengthens paths round them); there is no tiling, no watershed and no height
/// detail mesh; erosion keeps a cell when all of it lies agent_radius from
/// every border (Recast rounds the radius up to whole cells first, which is
/// the same for radii of whole cells); every geometric test on outlines runs
/// on integers. On RecastDemo's settings our bakes come within 2 % of Recast's
/// polygon count and walkable area (bench/bake_bench). Stages own their buffers (flat arrays indexed by span); no
/// stage allocates per span. There are no clocks, threads or hash-map
/// iterations, so a bake is bit-identical run to run.

#include "bake_stages.h"

#include "spark/core/det_math.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

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

namespace
{

Status checkSetting(float value, bool ok, const char* field, const char* limit)
{
    if (std::isfinite(value) && ok)
        return Status::success();
    return makeError("E_NAV_CONFIG", std::string(field + 1) + " must be " + limit, field);
}

Status validateDef(const BakeDef& d)
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

Status validateInput(const BakeInput& in)
{
    if (in.indices.size() % 3 != 0)
        return makeError("E_NAV_CONFIG", "the triangle index count is not a multiple of 3", "/indices");
    const size_t triangles = in.indices.size() / 3;
    if (!in.areas.empty() && in.areas.size() != triangles)
        return makeError("E_NAV_CONFIG", "areas must be empty or hold one entry per triangle", "/areas");
    for (size_t i = 0; i < in.areas.size(); ++i)
        if (in.areas[i] > 15)
            return makeError("E_NAV_CONFIG", "area ids are 0..15", "/areas/" + std::to_string(i));
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

} // namespace

Result<BakeOutput> bakeTriangles(const BakeInput& input, const BakeDef& def)
{
    SPARK_TRY(validateDef(def));
    SPARK_TRY(validateInput(input));
    if (input.indices.empty())
        return makeError("E_NAV_NO_GEOMETRY", "there are no triangles to bake");

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
                         "the bake grid would be " + cellCount(columnsX) + " x " + cellCount(columnsZ) +
                             " cells, more than 4096 x 4096",
                         "/cell_size", "raise cell_size or bake a smaller part of the scene");
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

    bake::voxelizeTriangles(input, cells, solid);
    out.stats.spans = solid.spanCount;

    bake::OpenField open;
    SPARK_TRY(bake::filterSpans(solid, cells, open));
    solid = bake::SolidField{}; // the open field replaces it (and holds its column array)
    bake::erodeWalkable(open, cells);
    bake::buildRegions(open, cells);
    out.stats.regions = open.regionCount;

    bake::ContourSet contours;
    bake::buildContours(open, cells, contours);
    out.stats.fallbackRegions = bake::buildPolygons(contours, open, cells, out.mesh);

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
    auto mesh = buildNavMesh(baked.value().mesh, navMeshDefFromBake(def, false));
    if (!mesh.ok())
        return mesh.error();
    return BakedNavMesh{std::move(mesh.value()), baked.value().stats};
}

} // namespace spark::nav
