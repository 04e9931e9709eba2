#pragma once
/// \file query_scratch.h
/// What a `QueryScratch` holds (private to libnav): the per-polygon arrays of
/// the A* searches, the funnel and corridor buffers, the simple walk's and
/// the any-angle search's nodes and open lists. Reused from query to query, so
/// a query allocates nothing once the arrays have grown to the mesh.

#include "spark/nav/query.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace spark::nav
{

/// The funnel a path search carries to a polygon: the last corner (apex) of
/// the string-pulled path so far, the funnel's sides, and the costs to the apex.
struct SearchFunnel
{
    glm::vec3 apex{0.0f};   ///< Last corner. [Units: m]
    glm::vec3 left{0.0f};   ///< Left side point of the funnel. [Units: m]
    glm::vec3 right{0.0f};  ///< Right side point of the funnel. [Units: m]
    float apexLength = 0.0f; ///< Length of the pulled path up to the apex. [Units: m]
    float penalty = 0.0f;    ///< Extra cost of the areas crossed: Σ (multiplier − 1) × leg length.
};

/// An end of an any-angle interval: its position (x–z in double, so a cut
/// by a ray keeps its place exactly enough to be matched to a vertex), its
/// height, and which line the ray from the node's root to it lies on, named by
/// two mesh points (so which side of the ray a vertex lies on is decided on
/// the mesh's own coordinates, not on a computed cut).
struct AnyAngleEnd
{
    double x = 0.0; ///< Position (x). [Units: m]
    double z = 0.0; ///< Position (z). [Units: m]
    float y = 0.0f; ///< Height. [Units: m]
    /// kAnyStretchEnd: the end of the link stretch (a mesh point; the ray runs
    /// from the root to it). Else a cut by a ray: a link end (2 × link + end,
    /// a link id, NavMesh::link) the ray runs to from the node's root, or, with bit
    /// kAnyRayFromRoot, a root (index in `anyRoots`) it runs from to the node's root.
    uint32_t ray = 0;
};
constexpr uint32_t kAnyStretchEnd = 0xffffffffu;
constexpr uint32_t kAnyRayFromRoot = 0x80000000u;

/// A node of the any-angle search (any_angle.cpp): a root the path reaches in
/// a straight line (or turns at) and an interval of a portal seen from it.
/// (88 bytes: the root's position is read from `anyRoots`.)
struct AnyAngleNode
{
    AnyAngleEnd left;        ///< Interval end on the left, looking from the root.
    AnyAngleEnd right;       ///< Interval end on the right.
    double g = 0.0;          ///< Length of the path to the root (x–z). [Units: m]
    double f = 0.0;          ///< g + shortest distance root → interval → goal. [Units: m]
    uint32_t root = 0;       ///< Index in `QueryScratch::Data::anyRoots`.
    uint32_t poly = 0;       ///< Polygon beyond the interval.
    uint32_t link = 0;       ///< Link (id, NavMesh::link) the interval lies on.
    uint32_t from = 0;       ///< Polygon that owns `link` (the interval's near side).
    uint32_t parent = 0;     ///< Node expanded to make this one (0xffffffff: a start node).
    uint32_t via = 0;        ///< A root the path turns at between the parent's root and this one's (0xffffffff: none).
};

/// A turning point of the any-angle search and the shortest length found to it.
struct AnyAngleRoot
{
    glm::vec3 point{0.0f}; ///< Position. [Units: m]
    double g = 0.0;        ///< Best path length to it so far (x–z). [Units: m]
    uint32_t id = 0;       ///< Its point id (NavMesh::linkEndPoint; linkEndPointCount() for a start on no link end).
};

/// A polygon entered from a root lying on the entry's line, and at what length.
struct AnyAngleSeen
{
    uint64_t key = 0; ///< (root << 32) | polygon.
    double g = 0.0;   ///< Length to the root when entered. [Units: m]
};

/// An entry of the any-angle open list: the node's f and g copied beside its
/// index, so the heap orders entries without reading the node array.
struct AnyAngleOpen
{
    double f = 0.0;    ///< The node's f. [Units: m]
    double g = 0.0;    ///< The node's g. [Units: m]
    uint32_t node = 0; ///< Index in `QueryScratch::Data::anyNodes`.
};

/// The working arrays of a `QueryScratch`.
struct QueryScratch::Data
{
    std::vector<uint32_t> stamp;      ///< Per polygon: search id that last touched it.
    std::vector<float> cost;          ///< Per polygon: best cost so far (g).
    std::vector<float> total;         ///< Per polygon: g + heuristic.
    std::vector<uint32_t> parent;     ///< Per polygon: predecessor in the search.
    std::vector<uint32_t> parentLink; ///< Per polygon: the id of the link entered through (NavMesh::link).
    std::vector<glm::vec3> position;  ///< Per polygon: entry point (node position).
    std::vector<SearchFunnel> funnel; ///< Per polygon: the funnel of the best route found to it.
    std::vector<uint8_t> closed;      ///< Per polygon: 1 = expanded.
    std::vector<uint32_t> heapIndex;  ///< Per polygon: slot in `heap`, or kNoPolygon.
    std::vector<uint32_t> heap;       ///< Open list (binary heap of polygon ids).
    std::vector<uint32_t> corridor;   ///< Working corridor.
    std::vector<glm::vec3> portalsLeft;  ///< Funnel input.
    std::vector<glm::vec3> portalsRight; ///< Funnel input.
    std::vector<uint32_t> list;       ///< General polygon list (raycast vertex hops, wall search, corridor moves).
    std::vector<glm::vec3> pulled;    ///< String-pulled points (corridor corners).
    std::vector<uint64_t> offMeshIndex; ///< Off-mesh links by polygon: (polygon << 32) | (link << 1) | reversed, sorted.
    std::vector<uint32_t> vias;       ///< Per corridor polygon but the first: link entered through (a link id, or an off-mesh code).
    std::vector<float> walkCost;          ///< Simple walk: per node (link, off-mesh use, goal), best cost so far.
    std::vector<uint32_t> walkParent;     ///< Simple walk: per node, the node before it (0xffffffff: the start).
    std::vector<uint32_t> walkStamp;      ///< Simple walk: per node, search id that last touched it.
    std::vector<std::pair<float, uint32_t>> walkHeap; ///< Simple walk: open list (f, node), lazy deletion.
    std::vector<glm::vec3> altPoints;     ///< Weighted search: the simple walk's path (points), kept while the main search runs.
    std::vector<uint32_t> altPolygons;    ///< … its corridor.
    std::vector<uint32_t> altEntries;     ///< … its entries.
    std::vector<std::pair<uint32_t, uint64_t>> altLinks; ///< … its link uses (point, link id).
    std::vector<AnyAngleNode> anyNodes;   ///< Any-angle search nodes (the search's first entries; the size only grows).
    std::vector<AnyAngleOpen> anyHeap;    ///< Any-angle open list (binary heap over its first entries, smallest (f, −g, node) on top; the size only grows).
    std::vector<AnyAngleRoot> anyRoots;   ///< Any-angle roots.
    std::vector<uint32_t> anyRootTable;   ///< Per mesh point id (and one for a start on no link end): index in anyRoots, or 0xffffffff.
    std::vector<AnyAngleSeen> anySeen;    ///< Open-addressing table of polygons entered with the root on the entry's line.
    std::vector<uint32_t> anySeenUsed;    ///< Slots of anySeen in use (cleared slot by slot at the next search).
    uint32_t anySeenCount = 0;            ///< Keys in anySeen.
    std::vector<uint32_t> anyStarts;      ///< Polygons holding the start (more than one on an edge or vertex).
    std::vector<uint32_t> anyGoals;       ///< Polygons holding the goal.
    uint32_t anyNodesMade = 0;            ///< Nodes the last any-angle search made (for benchmarks).
    uint32_t anyGoalNode = 0;             ///< Node that reached the goal's polygon (0xffffffff: start and goal share one).
    uint32_t searchId = 0;            ///< Current search id (stamps older than it are stale).
    uint32_t current = 0;             ///< Polygon being expanded.
};

/// The working arrays, as the query files name them.
using ScratchData = QueryScratch::Data;

} // namespace spark::nav
