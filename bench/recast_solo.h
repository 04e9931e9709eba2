#pragma once
/// \file recast_solo.h
/// Recast's solo-mesh bake as RecastDemo's Sample_SoloMesh runs it by
/// default (watershed regions, detail mesh), shared by the benchmarks that
/// give Detour its own bake (path_bench, crowd_bench); with `monotone`, the
/// sample's SAMPLE_PARTITION_MONOTONE instead (no distance field,
/// rcBuildRegionsMonotone), the partition Spark's bake uses; then Detour's
/// navmesh of one tile over it, as the sample builds it. Exits on a failure.

#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/DetourNavMeshQuery.h>
#include <recastnavigation/Recast.h>

#include <glm/vec3.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct RecastSoloMesh
{
    rcPolyMesh* pmesh = nullptr;        ///< Owned by the caller (rcFreePolyMesh).
    rcPolyMeshDetail* dmesh = nullptr;  ///< Owned by the caller (rcFreePolyMeshDetail).
};

/// Bakes triangles with `cfg` (bounds and grid size already set); walkable
/// polygons get area 0 (SAMPLE_POLYAREA_GROUND) and flags `flags`.
inline RecastSoloMesh bakeRecastSoloMesh(rcContext& ctx, const rcConfig& cfg, const float* verts, int nverts,
                                         const int* tris, int ntris, unsigned short flags, bool monotone = false)
{
    auto fail = [](const char* stage) {
        std::fprintf(stderr, "Recast bake failed at %s\n", stage);
        std::exit(1);
    };
    rcHeightfield* solid = rcAllocHeightfield();
    if (!rcCreateHeightfield(&ctx, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
        fail("rcCreateHeightfield");
    std::vector<unsigned char> triAreas(static_cast<size_t>(ntris), 0);
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts, nverts, tris, ntris, triAreas.data());
    if (!rcRasterizeTriangles(&ctx, verts, nverts, tris, triAreas.data(), ntris, *solid, cfg.walkableClimb))
        fail("rcRasterizeTriangles");
    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *solid);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *solid);
    rcCompactHeightfield* chf = rcAllocCompactHeightfield();
    if (!rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf))
        fail("rcBuildCompactHeightfield");
    rcFreeHeightField(solid);
    if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf))
        fail("rcErodeWalkableArea");
    if (monotone)
    {
        if (!rcBuildRegionsMonotone(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea))
            fail("rcBuildRegionsMonotone");
    }
    else
    {
        // SAMPLE_PARTITION_WATERSHED, the sample's default.
        if (!rcBuildDistanceField(&ctx, *chf))
            fail("rcBuildDistanceField");
        if (!rcBuildRegions(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea))
            fail("rcBuildRegions");
    }
    rcContourSet* cset = rcAllocContourSet();
    if (!rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset))
        fail("rcBuildContours");
    RecastSoloMesh out;
    out.pmesh = rcAllocPolyMesh();
    if (!rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *out.pmesh))
        fail("rcBuildPolyMesh");
    out.dmesh = rcAllocPolyMeshDetail();
    if (!rcBuildPolyMeshDetail(&ctx, *out.pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *out.dmesh))
        fail("rcBuildPolyMeshDetail");
    rcFreeCompactHeightfield(chf);
    rcFreeContourSet(cset);
    for (int i = 0; i < out.pmesh->npolys; ++i)
    {
        if (out.pmesh->areas[i] == RC_WALKABLE_AREA)
            out.pmesh->areas[i] = 0;
        out.pmesh->flags[i] = flags;
    }
    return out;
}

/// Detour's tile parameters over a Recast polygon mesh (and its detail mesh,
/// when there is one; without, Detour makes one from the polygons), with a
/// BV tree, as RecastDemo's samples fill them; tile (0, 0) of layer 0.
inline dtNavMeshCreateParams detourCreateParams(const rcPolyMesh& pmesh, const rcPolyMeshDetail* dmesh,
                                                const rcConfig& cfg, float agentHeight, float agentRadius,
                                                float agentClimb)
{
    dtNavMeshCreateParams params{};
    params.verts = pmesh.verts;
    params.vertCount = pmesh.nverts;
    params.polys = pmesh.polys;
    params.polyAreas = pmesh.areas;
    params.polyFlags = pmesh.flags;
    params.polyCount = pmesh.npolys;
    params.nvp = pmesh.nvp;
    if (dmesh)
    {
        params.detailMeshes = dmesh->meshes;
        params.detailVerts = dmesh->verts;
        params.detailVertsCount = dmesh->nverts;
        params.detailTris = dmesh->tris;
        params.detailTriCount = dmesh->ntris;
    }
    params.walkableHeight = agentHeight;
    params.walkableRadius = agentRadius;
    params.walkableClimb = agentClimb;
    rcVcopy(params.bmin, pmesh.bmin);
    rcVcopy(params.bmax, pmesh.bmax);
    params.cs = cfg.cs;
    params.ch = cfg.ch;
    params.buildBvTree = true;
    return params;
}

/// Detour's single-tile navmesh over a solo bake, as Sample_SoloMesh::handleBuild
/// makes it (with a BV tree); the agent's height, radius and climb in metres.
/// The poly meshes stay the caller's.
inline dtNavMesh* soloNavMesh(const RecastSoloMesh& solo, const rcConfig& cfg, float agentHeight,
                              float agentRadius, float agentClimb)
{
    auto fail = [](const char* stage) {
        std::fprintf(stderr, "Detour navmesh failed at %s\n", stage);
        std::exit(1);
    };
    dtNavMeshCreateParams params = // (dtCreateNavMeshData takes it non-const)
        detourCreateParams(*solo.pmesh, solo.dmesh, cfg, agentHeight, agentRadius, agentClimb);
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&params, &data, &size))
        fail("dtCreateNavMeshData");
    dtNavMesh* mesh = dtAllocNavMesh();
    if (dtStatusFailed(mesh->init(data, size, DT_TILE_FREE_DATA)))
        fail("dtNavMesh::init");
    return mesh;
}

/// Whether `p` is on the mesh: a polygon within `extent` across (x–z) and 1 m
/// up or down, whose nearest point is within `extent` in x–z. Gives the
/// polygon and the point when asked.
inline bool onDetourMesh(const dtNavMeshQuery& query, const glm::vec3& p, float extent, dtPolyRef* ref = nullptr,
                         glm::vec3* nearest = nullptr)
{
    const dtQueryFilter filter;
    const float ext[3] = {extent, 1.0f, extent};
    dtPolyRef r = 0;
    float q[3];
    if (dtStatusFailed(query.findNearestPoly(&p.x, ext, &filter, &r, q)) || r == 0)
        return false;
    if (std::hypot(q[0] - p.x, q[2] - p.z) > extent)
        return false;
    if (ref)
        *ref = r;
    if (nearest)
        *nearest = glm::vec3(q[0], q[1], q[2]);
    return true;
}
