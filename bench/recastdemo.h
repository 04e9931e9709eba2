#pragma once
/// \file recastdemo.h
/// The settings every dungeon comparison bakes both sides with: RecastDemo's
/// defaults (Sample::resetCommonSettings, as Sample_SoloMesh::handleBuild
/// turns them into an rcConfig) and the same numbers in Spark's terms, plus
/// loading an OBJ level as both sides read it. One definition, so no bench can
/// bake one side with other settings than the other (the carve bench once
/// left Spark's region merge size at its default).

#include "spark/nav/bake.h"
#include "spark/scene/model_obj.h"

#include <recastnavigation/Recast.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace spark::bench::demo
{

constexpr const char* kDungeonPath = "data/meshes/dungeon.obj";

constexpr float kCellSize = 0.3f;
constexpr float kCellHeight = 0.2f;
constexpr float kAgentHeight = 2.0f;
constexpr float kAgentRadius = 0.6f;
constexpr float kAgentClimb = 0.9f;
constexpr float kSlopeDeg = 45.0f;
constexpr int kRegionMinSize = 8;    ///< [Units: cells, the side of a square]
constexpr int kRegionMergeSize = 20; ///< [Units: cells, the side of a square]
constexpr float kEdgeMaxLen = 12.0f; ///< [Units: m]
constexpr float kEdgeMaxError = 1.3f;
constexpr int kVertsPerPoly = 6;
constexpr float kDetailSampleDist = 6.0f;
constexpr float kDetailSampleMaxError = 1.0f;

/// RecastDemo's settings as a Spark bake definition.
inline nav::BakeDef sparkBakeDef()
{
    nav::BakeDef def = nav::defaultBakeDef();
    def.cellSize = kCellSize;
    def.cellHeight = kCellHeight;
    def.agentHeight = kAgentHeight;
    def.agentRadius = kAgentRadius;
    def.stepHeight = kAgentClimb;
    def.maxSlopeDeg = kSlopeDeg;
    def.maxEdgeLen = kEdgeMaxLen;
    def.maxSimplificationError = kEdgeMaxError;
    def.maxVertsPerPoly = kVertsPerPoly;
    def.minRegionArea = static_cast<float>(kRegionMinSize * kRegionMinSize) * kCellSize * kCellSize;
    def.mergeRegionArea = static_cast<float>(kRegionMergeSize * kRegionMergeSize) * kCellSize * kCellSize;
    return def;
}

/// RecastDemo's rcConfig for a solo mesh over `verts` (bounds and grid size set).
inline rcConfig recastConfig(const float* verts, int nverts)
{
    rcConfig cfg{};
    cfg.cs = kCellSize;
    cfg.ch = kCellHeight;
    cfg.walkableSlopeAngle = kSlopeDeg;
    cfg.walkableHeight = static_cast<int>(std::ceil(kAgentHeight / cfg.ch));
    cfg.walkableClimb = static_cast<int>(std::floor(kAgentClimb / cfg.ch));
    cfg.walkableRadius = static_cast<int>(std::ceil(kAgentRadius / cfg.cs));
    cfg.maxEdgeLen = static_cast<int>(kEdgeMaxLen / kCellSize);
    cfg.maxSimplificationError = kEdgeMaxError;
    cfg.minRegionArea = kRegionMinSize * kRegionMinSize;
    cfg.mergeRegionArea = kRegionMergeSize * kRegionMergeSize;
    cfg.maxVertsPerPoly = kVertsPerPoly;
    cfg.detailSampleDist = kDetailSampleDist < 0.9f ? 0.0f : kCellSize * kDetailSampleDist;
    cfg.detailSampleMaxError = kCellHeight * kDetailSampleMaxError;
    rcCalcBounds(verts, nverts, cfg.bmin, cfg.bmax);
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
    return cfg;
}

/// The path of a data file given relative to the project root (as
/// `data/meshes/...`), found from the working directory or the source tree.
inline std::filesystem::path dataPath(const char* relative)
{
    std::filesystem::path path = relative;
    if (!std::filesystem::exists(path))
        path = std::filesystem::path(SPARK_SOURCE_DIR) / relative;
    return path;
}

/// An OBJ level as both sides read it: one-sided, the winding saying which
/// side is up (as `spark bake` bakes an OBJ and Recast reads one). Exits when
/// the file cannot be read.
inline nav::BakeInput loadObjInput(const char* relative)
{
    auto model = scene::loadObj(dataPath(relative));
    if (!model)
    {
        std::fprintf(stderr, "cannot load %s: %s\n", relative, model.error().message.c_str());
        std::exit(1);
    }
    nav::BakeInput in;
    in.vertices = model->vertices;
    in.indices = model->indices;
    in.oneSided = true;
    return in;
}

} // namespace spark::bench::demo
