#pragma once
/// \file bake_stages.h
/// The internal data of the 3D bake and one entry function per stage (each in
/// its own file under src/bake/). Private to libnav; the unit tests include it
/// to test every stage on its own. The stage order lives in bake.cpp.
///
/// Conventions: cell coordinates (x, z) index columns of the grid; heights are
/// in cell_height steps above the grid origin. Area codes inside the bake are
/// `0` for "not walkable" and `areaId + 1` for walkable spans.

#include "spark/core/result.h"
#include "spark/nav/bake.h"

#include <glm/vec3.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace spark::nav::bake
{

/// Area code of a span nobody may stand on.
inline constexpr uint8_t kNullArea = 0;
/// Flag bit set on a walkable span's area by the ledge filter; erosion drops it.
inline constexpr uint8_t kLedgeFlag = 0x80;
/// Mask of the area code without flags.
inline constexpr uint8_t kAreaMask = 0x7f;
/// Highest span height in cells.
inline constexpr int kMaxSpanHeight = 0xffff;
/// "No neighbour" in the packed connections of an open span.
inline constexpr uint32_t kNoConnection = 0x3f;
/// Largest number of spans in one column the connections can address.
inline constexpr int kMaxLayers = 0x3f;
/// A solid column head with no span (span index -1 as unsigned).
inline constexpr uint32_t kEmptyColumn = 0xffffffffu;

/// Column offsets of the four directions: 0 = -x, 1 = +z, 2 = +x, 3 = -z.
inline constexpr int kDirX[4] = {-1, 0, 1, 0};
inline constexpr int kDirZ[4] = {0, 1, 0, -1};

/// The column index steps of the four directions on a grid `width` columns
/// wide (kDirX + kDirZ × width): the neighbour of column c is c + step[dir].
inline std::array<int64_t, 4> columnSteps(int64_t width)
{
    return {-1, width, 1, -width};
}

/// The settings of a bake in cell units, derived once from a `BakeDef`.
struct CellSettings
{
    float cellSize = 0.0f;     ///< [Units: m]
    float cellHeight = 0.0f;   ///< [Units: m]
    int walkableHeight = 0;    ///< Head room in cells (ceil).
    int walkableClimb = 0;     ///< Step height in cells (floor).
    float erodeRadius = 0.0f;  ///< Agent radius in cells (not rounded).
    float walkableCos = 0.0f;  ///< Cosine of the steepest walkable slope.
    float maxError = 0.0f;     ///< Contour simplification error in cells.
    int maxEdgeLen = 0;        ///< Longest contour edge in cells; 0 = no limit.
    int maxVertsPerPoly = 6;   ///< 3..6.
    int minRegionCells = 0;    ///< Islands with fewer spans are dropped.
    int mergeRegionCells = 0;  ///< Regions with fewer spans join a neighbour; 0 = no merging.
    bool moveJunctions = true; ///< Move border ends off obstacles' corners (contours.cpp); off only to compare.
};

/// Derives the cell settings of `def` (which must have been validated).
CellSettings cellSettingsOf(const BakeDef& def);

/// Checks a def's limits: `E_NAV_CONFIG` naming the field.
Status validateBakeDef(const BakeDef& def);

/// Checks a bake input (index count, areas, index range, finite vertices): `E_NAV_CONFIG`.
Status validateBakeInput(const BakeInput& input);


/// The grid the bake works on.
struct Grid
{
    int width = 0;              ///< Columns along x.
    int depth = 0;              ///< Columns along z.
    glm::vec3 origin{0.0f};     ///< World position of cell (0, 0) at height 0. [Units: m]
    float cellSize = 0.0f;      ///< [Units: m]
    float cellHeight = 0.0f;    ///< [Units: m]
    /// A tile's grid (tiles.cpp) lies on the world's cell lattice: its cell
    /// (0, 0) at height 0 is the world's cell (latticeX, latticeZ) at layer
    /// latticeY, and polygons.cpp places vertices from those world cells
    /// (cells × size in double, rounded once), so two tiles put a shared
    /// corner at the same bits. False: origin + cells × size in float.
    bool onLattice = false;
    int32_t latticeX = 0, latticeY = 0, latticeZ = 0;
};

/// A solid span: voxels [bottom, top) of one column, with the area code of its top.
struct SolidSpan
{
    uint16_t bottom = 0;
    uint16_t top = 0;
    uint16_t walkTop = 0; ///< Top of the highest walkable surface merged in (while voxelising).
    uint8_t area = kNullArea;
    int32_t next = -1; ///< Next span above in the column, or -1.
};

/// The solid voxels: a sorted, merged list of spans per column, in one pool.
struct SolidField
{
    Grid grid;
    /// First span of each column (x + z * width), or kEmptyColumn. Its capacity
    /// holds one entry more: the open field takes this array over (filter.cpp),
    /// so a bake first-touches its column memory once, not twice.
    std::vector<uint32_t> columns;
    std::vector<SolidSpan> spans;  ///< Pool; removed spans are chained on `freeList`.
    int32_t freeList = -1;
    uint64_t spanCount = 0;        ///< Live spans.
};

/// The open field: the free space above every walkable solid span, with links
/// to the neighbouring open spans an agent can step to.
struct OpenField
{
    Grid grid;
    /// First span of each column, and the span count last: the spans of column
    /// c are [cellFirst[c], cellFirst[c + 1]), as they are stored column by column.
    std::vector<uint32_t> cellFirst;
    std::vector<uint16_t> y;          ///< Floor height of each span (cells).
    std::vector<uint16_t> h;          ///< Head room of each span (cells, clamped).
    std::vector<uint32_t> con;        ///< 4 × 6 bits: layer index of the neighbour per direction.
    std::vector<uint8_t> area;        ///< Area code (kNullArea after erosion drops it).
    std::vector<uint16_t> dist;       ///< Chamfer distance to the nearest border (half cells).
    std::vector<uint32_t> region;     ///< Region id, 0 = none.
    uint32_t regionCount = 0;         ///< Regions are 1..regionCount.
    /// The columns that hold spans (x + z * width), in storage order, and the
    /// index in it of each z row's first (depth + 1 entries): the stages visit
    /// only these, as most columns of a level are empty.
    std::vector<uint32_t> usedColumns;
    std::vector<uint32_t> rowStart;
    /// A tile's bake only (tiles.cpp): one flag per span, set on the border
    /// spans that were walkable after erosion; the border makes no regions,
    /// and contours.cpp keeps a region's stretch along the tile's edge apart
    /// from its walls. Empty for a single-grid bake.
    std::vector<uint8_t> borderWalkable;

    size_t spanCount() const { return y.size(); }
    /// Spans in column c.
    uint32_t cellCount(size_t c) const { return cellFirst[c + 1] - cellFirst[c]; }
};

/// A column that holds spans: its x and its spans [first, last).
struct UsedColumn
{
    int x;
    uint32_t first, last;
};

/// The k-th column that holds spans (k in [rowStart[z], rowStart[z + 1]) for row z).
inline UsedColumn usedColumn(const OpenField& f, int z, uint32_t k)
{
    const uint32_t c = f.usedColumns[k];
    const uint32_t first = f.cellFirst[c];
    return {static_cast<int>(c) - z * f.grid.width, first, f.cellFirst[c + 1]};
}

/// The spans of row z, [first, last): a row's spans are stored one after the
/// other, so a stage may scan them as one run and look up the column
/// (columnOfSpan) of the few it stops at.
struct SpanRange
{
    uint32_t first, last;
};
inline SpanRange rowSpans(const OpenField& f, int z)
{
    const uint32_t begin = f.rowStart[static_cast<size_t>(z)];
    const uint32_t end = f.rowStart[static_cast<size_t>(z) + 1];
    if (begin == end)
        return {0, 0};
    return {f.cellFirst[f.usedColumns[begin]], f.cellFirst[f.usedColumns[end - 1] + 1]};
}

/// The column (x + z * width) of span `span` of row z: the row's last used
/// column whose first span is not after it.
inline uint32_t columnOfSpan(const OpenField& f, int z, uint32_t span)
{
    const uint32_t* used = f.usedColumns.data();
    const uint32_t* cellFirst = f.cellFirst.data();
    const uint32_t* begin = used + f.rowStart[static_cast<size_t>(z)];
    const uint32_t* end = used + f.rowStart[static_cast<size_t>(z) + 1];
    return *(std::upper_bound(begin, end, span, [&](uint32_t s, uint32_t c) { return s < cellFirst[c]; }) - 1);
}

/// The neighbour layer in direction `dir` of a span whose packed
/// connections (OpenField::con) are `packed`, or kNoConnection.
inline uint32_t connectionIn(uint32_t packed, int dir)
{
    return (packed >> (dir * 6)) & 0x3f;
}

/// The neighbour layer of span `i` in direction `dir`, or kNoConnection.
inline uint32_t connectionOf(const OpenField& field, uint32_t i, int dir)
{
    return connectionIn(field.con[i], dir);
}

/// One traced, simplified region outline in cell units, positive winding in x–z.
struct Contour
{
    std::vector<int32_t> verts; ///< x, y, z per vertex (cells; y is the corner height).
    uint32_t region = 0;
    uint8_t area = kNullArea;
    bool needsFallback = false; ///< Degenerate or hole-shaped outline: cover the region by row runs.
};

/// The contours of every region.
struct ContourSet
{
    Grid grid;
    std::vector<Contour> contours;
};

// --- Stages, in the order bake.cpp runs them --------------------------------

/// The sign of a closed run's volume (+1 outward winding, -1 inward), or 0
/// when the run is open (some edge is not run once each way) or flat.
int closedSolidSign(const BakeInput& input, const SolidRange& run);

/// The part of a bake input a tile voxelises (tiles.cpp): the triangles
/// meeting its grid, and its level's closed solids that have a triangle in
/// it, both indexing the whole input (a tile reads them in place: a copy of
/// its triangles was most of a tiled dungeon bake's heap peak). No
/// triangles: all of them, with the input's own solids (`BakeInput::solids`).
struct InputPart
{
    const std::vector<uint32_t>* triangles = nullptr; ///< Triangle indices, increasing.
    std::span<const SolidRange> solids;
};

/// voxelize.cpp: rasterises the triangles into solid spans and fills the
/// closed solids; a span is walkable
/// when its triangle's slope is at most the walkable slope and that surface is
/// within a step of the span's top, and a low obstacle (a non-walkable span at
/// most a step above a walkable one right below) takes the area of the span
/// below. `outField.grid` must be set by the caller; the rest is rebuilt.
void voxelizeTriangles(const BakeInput& input, const CellSettings& cells, SolidField& outField,
                       const InputPart& part = {});

/// filter.cpp: ledges are flagged, spans without head room dropped; then the open field is built with
/// the neighbour links. The open field takes the solid field's column array
/// over (`ioSolid.columns` is empty afterwards; its spans stay). `E_NAV_LIMIT`
/// when a column holds too many layers.
Status filterSpans(SolidField& ioSolid, const CellSettings& cells, OpenField& outField);

/// erode.cpp: chamfer distance from every border, then drops the spans nearer
/// to a border than the agent radius, and every ledge span.
void erodeWalkable(OpenField& ioField, const CellSettings& cells);
/// The two halves of `erodeWalkable`: the chamfer distances (the same for any
/// radius), then the areas after the drops of the spans nearer than the
/// radius, and ledges: `filtered` (the areas before any drop, one per span;
/// may be the field's own) with those spans' set to kNullArea.
void borderDistance(OpenField& ioField);
void dropNearBorder(OpenField& ioField, const CellSettings& cells, const std::vector<uint8_t>& filtered);

/// regions.cpp: drops islands under the minimum area, partitions the open
/// spans into monotone regions, then merges small ones into their neighbours
/// (no holes, no overlaps).
void buildRegions(OpenField& ioField, const CellSettings& cells);

/// contours.cpp: traces, simplifies and splits the outline of every region.
void buildContours(const OpenField& field, const CellSettings& cells, ContourSet& outSet);

/// polygons.cpp: ear clipping and greedy convex merging per contour; regions
/// whose contour does not triangulate are covered by row runs instead.
/// Returns the number of such fallback regions.
uint32_t buildPolygons(const ContourSet& set, const OpenField& field, const CellSettings& cells, PolySoup& outMesh);

/// Corner height (cells) at the corner of span `i` that starts its edge `dir`:
/// the highest floor of the up to four spans round the corner.
int cornerHeight(const OpenField& field, int x, int z, uint32_t i, int dir);

// --- Whole bakes -----------------------------------------------------------

/// The part of a bake after voxelisation: the filter and the chamfer
/// distances once, then erosion onward (regions, contours, polygons) once per
/// radius: `radii[i]` are the cell settings of radius i (the same but for
/// `erodeRadius`; the filter reads the first's), and its counters and
/// polygons are added to `ioOuts[i]` (as many as `radii`). `keep` (null:
/// everything) lists the columns [x0, x1) × [z0, z1) whose spans may make
/// polygons: spans outside it are dropped after erosion (a tile's border).
/// The one place several agent radii part ways: each starts again from the
/// filtered areas on the same field, so radius i's polygons are those of a
/// bake of radius i alone on the same solid field.
struct KeepBox
{
    int x0, z0, x1, z1;
};
Status bakeSolid(SolidField& ioSolid, const std::vector<CellSettings>& radii, const KeepBox* keep,
                 std::vector<BakeOutput>& ioOuts);

/// The stages a bake reports progress over (voxelise, filter, erode, regions,
/// contours, polygons).
inline constexpr uint64_t kBakeStages = 6;

/// tiles.cpp: the tiled bake (def.tileSize > 0) of a validated input, one
/// output per radius of `bakeRadii(def)` (an output without tiles: nothing
/// of that radius is walkable). Each tile is voxelised and filtered once,
/// with the border of the largest radius.
Result<std::vector<BakeOutput>> bakeTiles(const BakeInput& input, const BakeDef& def);

} // namespace spark::nav::bake
