/// \file carve_overlay.cpp
/// A carved mesh as its base plus what differs (docs/tiles.md "Carving").
///
/// Design note. A carved mesh shares its base (immutable, `shared_ptr`) and
/// owns only: the pieces (polygon ids after the base's, vertex ids after
/// its vertices'); the links, walls and flags of the base slots whose links
/// or link tables differ from the base's (the carved slots, their
/// neighbours, and the polygons whose dead-end tables read those); the
/// turns of the points round them; and the components of the tiles a cut
/// touches. A query reads a base slot's geometry from the base always, and
/// its links from the base unless the slot is listed (a bit test). So a
/// change costs the polygons round it and passes over the tile table and
/// over the other cuts' own entries (copied), never a pass over the mesh:
/// Detour's tile cache rebuilds and swaps a tile; this re-links the
/// polygons a tile's cut touched and leaves the rest where they are.
///
/// What is not derived exactly as a from-scratch assembly would: the
/// bridges (NavMesh::linkBehind). Only the base's bridges between polygons
/// carving left whole are kept: carving only takes area away, so every
/// chain of links in the carved mesh maps onto one in the base, and such a
/// link is still the only way between its two sides. Bridges that carving
/// created are not marked; the path search then prunes a little less.

#include "spark/nav/carve.h"

#include "spark/core/bits.h"

#include "navmesh_access.h"

#include <glm/common.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <numeric>

namespace spark::nav
{

struct NavMesh::LazyPrefix
{
    std::once_flag once;
    std::vector<double> prefix;
};

namespace
{

bool bitSet(const std::vector<uint64_t>& bits, uint32_t i)
{
    return ((bits[i >> 6] >> (i & 63)) & 1u) != 0;
}

void setBit(std::vector<uint64_t>& bits, uint32_t i)
{
    bits[i >> 6] |= uint64_t(1) << (i & 63);
}

bool contains(const std::vector<uint32_t>& sorted, uint32_t x)
{
    return std::binary_search(sorted.begin(), sorted.end(), x);
}

void sortUnique(std::vector<uint32_t>& v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

/// The first polygon of tile `tile` of a plain mesh (its polygon count for
/// the "tile" of the polygons past every tile; 0 for an untiled mesh).
uint32_t tileFirst(std::span<const NavTile> tiles, uint32_t polygons, uint32_t tile)
{
    if (tiles.empty())
        return 0;
    if (tile < tiles.size())
        return tiles[tile].firstPolygon;
    return tiles.back().firstPolygon + tiles.back().polygonCount > polygons ? polygons
                                                                           : tiles.back().firstPolygon + tiles.back().polygonCount;
}

uint32_t tileEnd(std::span<const NavTile> tiles, uint32_t polygons, uint32_t tile)
{
    if (tiles.empty() || tile >= tiles.size())
        return polygons;
    return tiles[tile].firstPolygon + tiles[tile].polygonCount;
}

/// Union–find over unit ids whose root is the one with the smallest label.
struct UnitSets
{
    std::vector<uint32_t> parent, label;
    uint32_t find(uint32_t x) { return unionFindRoot(parent, x); }
    void join(uint32_t a, uint32_t b)
    {
        a = find(a);
        b = find(b);
        if (a == b)
            return;
        if (label[b] < label[a])
            std::swap(a, b);
        parent[b] = a;
    }
};

} // namespace

uint8_t NavMesh::turnOverride(uint32_t id) const
{
    const auto it = std::lower_bound(m_turnOverIds.begin(), m_turnOverIds.end(), id);
    return m_turnOverValues[static_cast<size_t>(it - m_turnOverIds.begin())];
}

size_t NavMesh::firstPieceCell(uint32_t cell) const
{
    const auto it = std::lower_bound(m_pieceCells.begin(), m_pieceCells.end(), std::array<uint32_t, 2>{cell, 0});
    return static_cast<size_t>(it - m_pieceCells.begin());
}

uint32_t NavMesh::carvedUnit(uint32_t poly) const
{
    if (poly >= m_own0)
        return m_pieceUnit[poly - m_own0];
    const uint32_t unit = m_base->m_unitOf[poly];
    const uint32_t tile = m_base->m_unitTile[unit];
    if (m_touchedTiles.empty() || !bitSet(m_touchedBits, tile))
        return unit;
    const size_t i = static_cast<size_t>(std::lower_bound(m_touchedTiles.begin(), m_touchedTiles.end(), tile) -
                                         m_touchedTiles.begin());
    return m_touchedUnits[m_touchedStarts[i] + (poly - tileFirst(m_base->m_tiles, m_own0, tile))];
}

uint32_t NavMesh::carvedComponent(uint32_t poly) const
{
    return m_unitLabel[carvedUnit(poly)];
}

std::span<const double> NavMesh::carvedAreaPrefix() const
{
    // Made on first use (random points): the same running sum, in the same
    // order and arithmetic, as a plain mesh's (assembleGeometry).
    LazyPrefix& lazy = *m_lazyPrefix;
    std::call_once(lazy.once,
                   [&]
                   {
                       const uint32_t polys = polygonCount();
                       lazy.prefix.resize(polys);
                       double sum = 0.0;
                       for (uint32_t p = 0; p < polys; ++p)
                       {
                           double area2 = 0.0;
                           if (!disabled(p))
                           {
                               const uint32_t n = polygonVertexCount(p);
                               for (uint32_t i = 0; i < n; ++i)
                               {
                                   const glm::vec3 a = polygonVertex(p, i), c = polygonVertex(p, i + 1 == n ? 0 : i + 1);
                                   area2 += double(a.x) * double(c.z) - double(a.z) * double(c.x);
                               }
                           }
                           sum = (p == 0 ? 0.0 : sum) + area2 * 0.5;
                           lazy.prefix[p] = sum;
                       }
                   });
    return lazy.prefix;
}

void NavMeshAccess::deriveUnits(NavMesh& mesh)
{
    // Units: each tile's polygons joined by the links inside the tile
    // (union–find, the smallest id the root), numbered in the order of their
    // smallest polygon; then the pairs of units linked across tiles.
    const uint32_t polys = mesh.polygonCount();
    const std::span<const NavTile> tiles = mesh.m_tiles;
    std::vector<uint32_t> tileOf(polys, static_cast<uint32_t>(tiles.size())); // past the tiles: one more "tile"
    for (uint32_t t = 0; t < tiles.size(); ++t)
        for (uint32_t p = tiles[t].firstPolygon; p < tiles[t].firstPolygon + tiles[t].polygonCount && p < polys; ++p)
            tileOf[p] = t;
    SmallestRootSets sets;
    sets.reset(polys);
    for (uint32_t p = 0; p < polys; ++p)
        for (const NavLink& l : mesh.links(p))
            if (tileOf[l.neighbour] == tileOf[p])
                sets.join(p, l.neighbour);
    mesh.m_unitTile.clear();
    mesh.m_unitMin.clear();
    mesh.m_unitOf.resize(polys);
    for (uint32_t p = 0; p < polys; ++p)
    {
        const uint32_t r = sets.find(p);
        if (r == p) // a root is its set's smallest id: met before the rest of its set
        {
            mesh.m_unitOf[p] = static_cast<uint32_t>(mesh.m_unitMin.size());
            mesh.m_unitMin.push_back(p);
            mesh.m_unitTile.push_back(tileOf[p]);
        }
        else
            mesh.m_unitOf[p] = mesh.m_unitOf[r];
    }
    mesh.m_unitSeams.clear();
    for (uint32_t p = 0; p < polys; ++p)
        for (const NavLink& l : mesh.links(p))
            if (tileOf[l.neighbour] != tileOf[p])
            {
                const uint32_t a = mesh.m_unitOf[p], b = mesh.m_unitOf[l.neighbour];
                mesh.m_unitSeams.push_back({std::min(a, b), std::max(a, b)});
            }
    std::sort(mesh.m_unitSeams.begin(), mesh.m_unitSeams.end());
    mesh.m_unitSeams.erase(std::unique(mesh.m_unitSeams.begin(), mesh.m_unitSeams.end()), mesh.m_unitSeams.end());
}

void NavMeshAccess::deriveCarvedUnits(NavMesh& mesh, std::span<const uint32_t> changed)
{
    const NavMesh& base = *mesh.m_base;
    const uint32_t own0 = mesh.m_own0, pieces = static_cast<uint32_t>(mesh.m_areas.size());
    const uint32_t tileSlots = static_cast<uint32_t>(base.m_tiles.size()) + 1;
    // The tiles whose links changed: their units are found again, over their
    // base slots and their pieces (which follow the base slots they were cut from).
    std::vector<uint32_t>& touched = mesh.m_touchedTiles;
    touched.clear();
    for (uint32_t p : changed)
        touched.push_back(base.m_unitTile[base.m_unitOf[p]]);
    sortUnique(touched);
    mesh.m_touchedBits.assign((tileSlots + 63) / 64, 0);
    for (uint32_t t : touched)
        setBit(mesh.m_touchedBits, t);
    const uint32_t baseUnits = static_cast<uint32_t>(base.m_unitMin.size());
    mesh.m_touchedStarts.assign(1, 0);
    mesh.m_touchedUnits.clear();
    mesh.m_pieceUnit.assign(pieces, kNoPolygon);
    std::vector<uint32_t> unitMin; // of the new units
    struct Cross
    {
        uint32_t from, to; // a link out of a touched tile: polygon ids
    };
    std::vector<Cross> crossing;
    std::vector<uint32_t> members;
    SmallestRootSets local;
    for (uint32_t tile : touched)
    {
        const uint32_t first = tileFirst(base.m_tiles, own0, tile), end = tileEnd(base.m_tiles, own0, tile);
        const auto pieceLo = std::lower_bound(mesh.m_pieceBase.begin(), mesh.m_pieceBase.end(), first);
        const auto pieceHi = std::lower_bound(pieceLo, mesh.m_pieceBase.end(), end);
        members.clear();
        for (uint32_t p = first; p < end; ++p)
            members.push_back(p);
        for (auto it = pieceLo; it != pieceHi; ++it)
            members.push_back(own0 + static_cast<uint32_t>(it - mesh.m_pieceBase.begin()));
        // Local index of a polygon of this tile, or kNoPolygon.
        const uint32_t firstPiece = own0 + static_cast<uint32_t>(pieceLo - mesh.m_pieceBase.begin());
        const uint32_t endPiece = own0 + static_cast<uint32_t>(pieceHi - mesh.m_pieceBase.begin());
        auto localOf = [&](uint32_t q) -> uint32_t
        {
            if (q >= first && q < end)
                return q - first;
            if (q >= firstPiece && q < endPiece)
                return (end - first) + (q - firstPiece);
            return kNoPolygon;
        };
        local.reset(members.size());
        for (uint32_t i = 0; i < members.size(); ++i)
            for (const NavLink& l : mesh.links(members[i]))
            {
                const uint32_t j = localOf(l.neighbour);
                if (j == kNoPolygon)
                    crossing.push_back(Cross{members[i], l.neighbour});
                else
                    local.join(i, j);
            }
        // Members run in increasing id, so a root is its set's smallest id.
        std::vector<uint32_t> unitOfRoot(members.size(), kNoPolygon);
        for (uint32_t i = 0; i < members.size(); ++i)
        {
            const uint32_t r = local.find(i);
            if (unitOfRoot[r] == kNoPolygon)
            {
                unitOfRoot[r] = baseUnits + static_cast<uint32_t>(unitMin.size());
                unitMin.push_back(members[i]);
            }
            const uint32_t unit = unitOfRoot[r];
            if (members[i] < own0)
                mesh.m_touchedUnits.push_back(unit);
            else
                mesh.m_pieceUnit[members[i] - own0] = unit;
        }
        mesh.m_touchedStarts.push_back(static_cast<uint32_t>(mesh.m_touchedUnits.size()));
    }
    // Join the units: the base's seams between untouched tiles, and the links
    // out of the touched tiles (a seam into a touched tile is one of those
    // links seen from the other side: links run both ways).
    const uint32_t units = baseUnits + static_cast<uint32_t>(unitMin.size());
    UnitSets sets;
    sets.parent.resize(units);
    std::iota(sets.parent.begin(), sets.parent.end(), 0u);
    sets.label.resize(units);
    std::copy(base.m_unitMin.begin(), base.m_unitMin.end(), sets.label.begin());
    std::copy(unitMin.begin(), unitMin.end(), sets.label.begin() + baseUnits);
    auto touchedUnit = [&](uint32_t u) { return !touched.empty() && bitSet(mesh.m_touchedBits, base.m_unitTile[u]); };
    for (const std::array<uint32_t, 2>& seam : base.m_unitSeams)
        if (!touchedUnit(seam[0]) && !touchedUnit(seam[1]))
            sets.join(seam[0], seam[1]);
    for (const Cross& c : crossing)
        sets.join(mesh.carvedUnit(c.from), mesh.carvedUnit(c.to));
    mesh.m_unitLabel.resize(units);
    for (uint32_t u = 0; u < units; ++u)
        mesh.m_unitLabel[u] = sets.label[sets.find(u)];
}

NavMesh NavMeshAccess::carved(const std::shared_ptr<const NavMesh>& basePtr, const NavMesh& previous, Pieces in,
                              std::span<const uint32_t> previousPiece, std::span<const uint32_t> changedNew,
                              std::span<const uint32_t> changedOld, CarveWork& work)
{
    const NavMesh& base = *basePtr;
    const bool prevCarved = previous.m_base != nullptr;
    assert(!prevCarved || previous.m_base == basePtr);
    NavMesh mesh;
    mesh.m_is2d = base.m_is2d;
    mesh.m_settings = base.m_settings;
    mesh.m_linkTolerance = base.m_linkTolerance;
    mesh.m_maxPolyVerts = base.m_maxPolyVerts;
    mesh.m_tileSize = base.m_tileSize;
    mesh.m_bounds = base.m_bounds; // (pieces lie inside their base polygons)
    mesh.m_base = basePtr;
    mesh.m_own0 = base.polygonCount();
    mesh.m_vert0 = base.vertexCount();
    mesh.m_link0 = base.linkCount();
    mesh.m_wall0 = base.wallCount();
    mesh.m_point0 = base.linkEndPointCount();
    mesh.m_lazyPrefix = std::make_shared<NavMesh::LazyPrefix>();
    const uint32_t own0 = mesh.m_own0;
    const uint32_t pieces = static_cast<uint32_t>(in.areas.size());

    // The pieces' geometry: as a plain mesh derives it (assembleGeometry, deriveRings).
    mesh.m_vertices = std::move(in.vertices);
    mesh.m_indices = std::move(in.indices);
    mesh.m_polyStarts = std::move(in.polyStarts);
    mesh.m_areas = std::move(in.areas);
    mesh.m_pieceBase = std::move(in.pieceBase);
    mesh.m_polyAreas.resize(pieces);
    mesh.m_polyBounds.resize(pieces);
    mesh.m_bridgeOrder.resize(pieces);
    mesh.m_ringXZ.resize(2 * mesh.m_indices.size());
    mesh.m_ringY.resize(2 * mesh.m_indices.size());
    for (uint32_t i = 0; i < pieces; ++i)
    {
        const uint32_t start = mesh.m_polyStarts[i], n = mesh.m_polyStarts[i + 1] - start;
        const glm::vec3* verts = mesh.m_vertices.data() - mesh.m_vert0;
        Bounds3 b{verts[mesh.m_indices[start]], verts[mesh.m_indices[start]]};
        double area2 = 0.0;
        for (uint32_t k = 0; k < n; ++k)
        {
            const glm::vec3& a = verts[mesh.m_indices[start + k]];
            const glm::vec3& c = verts[mesh.m_indices[start + (k + 1 == n ? 0 : k + 1)]];
            b.min = glm::min(b.min, a);
            b.max = glm::max(b.max, a);
            area2 += double(a.x) * double(c.z) - double(a.z) * double(c.x);
            const size_t at = 2 * size_t(start) + k;
            mesh.m_ringXZ[at] = mesh.m_ringXZ[at + n] = glm::dvec2(a.x, a.z);
            mesh.m_ringY[at] = mesh.m_ringY[at + n] = a.y;
        }
        mesh.m_polyBounds[i] = b;
        mesh.m_polyAreas[i] = static_cast<float>(area2 * 0.5);
        mesh.m_bridgeOrder[i] = base.m_bridgeOrder[mesh.m_pieceBase[i]];
        // The base grid's cells the piece's bounds meet.
        const int x0 = base.cellCoord(b.min.x, base.m_gridOriginX, base.m_gridCols);
        const int x1 = base.cellCoord(b.max.x, base.m_gridOriginX, base.m_gridCols);
        const int z0 = base.cellCoord(b.min.z, base.m_gridOriginZ, base.m_gridRows);
        const int z1 = base.cellCoord(b.max.z, base.m_gridOriginZ, base.m_gridRows);
        for (int z = z0; z <= z1; ++z)
            for (int x = x0; x <= x1; ++x)
                mesh.m_pieceCells.push_back({static_cast<uint32_t>(z) * static_cast<uint32_t>(base.m_gridCols) +
                                                 static_cast<uint32_t>(x),
                                             own0 + i});
    }
    std::sort(mesh.m_pieceCells.begin(), mesh.m_pieceCells.end());

    // The base slots with links of their own: the carved ones (none), their
    // neighbours (links to pieces), and the slots whose link tables read
    // those (a link into one, or into a slot of two links next to one).
    const std::vector<uint32_t>& carvedSlots = in.carved;
    std::vector<uint32_t> changed = carvedSlots; // slots whose links differ from the base's
    for (uint32_t k : carvedSlots)
        for (const NavLink& l : base.links(k))
            changed.push_back(l.neighbour);
    sortUnique(changed);
    std::vector<uint32_t> readers;
    for (uint32_t r : changed)
        for (const NavLink& l : base.links(r))
        {
            const uint32_t q = l.neighbour;
            if (contains(changed, q))
                continue;
            readers.push_back(q);
            if (base.links(q).size() == 2)
                for (const NavLink& m : base.links(q))
                    if (!contains(changed, m.neighbour))
                        readers.push_back(m.neighbour);
        }
    sortUnique(readers);
    std::vector<uint32_t>& over = mesh.m_overIds;
    over.resize(changed.size() + readers.size());
    std::merge(changed.begin(), changed.end(), readers.begin(), readers.end(), over.begin());
    over.erase(std::unique(over.begin(), over.end()), over.end());
    mesh.m_overBits.assign((own0 + 63) / 64, 0);
    for (uint32_t p : over)
        setBit(mesh.m_overBits, p);
    mesh.m_overRank.resize(mesh.m_overBits.size());
    for (uint32_t w = 0, below = 0; w < mesh.m_overBits.size(); ++w)
    {
        mesh.m_overRank[w] = below;
        below += static_cast<uint32_t>(std::popcount(mesh.m_overBits[w]));
    }
    const uint32_t topoCount = pieces + static_cast<uint32_t>(over.size());
    auto idOf = [&](uint32_t t) { return t < pieces ? own0 + t : over[t - pieces]; };
    mesh.m_disabledBits.assign(mesh.m_overBits.size(), 0);
    for (uint32_t k : carvedSlots)
        setBit(mesh.m_disabledBits, k);
    mesh.m_disabledCount = static_cast<uint32_t>(carvedSlots.size());

    // Ids of `previous` in this mesh (kNoPolygon: gone or re-cut), and back.
    const uint32_t prevPieces = prevCarved ? static_cast<uint32_t>(previous.m_areas.size()) : 0;
    std::vector<uint32_t> prevToNew(prevPieces, kNoPolygon), newToPrev(pieces, kNoPolygon);
    for (uint32_t i = 0; i < pieces; ++i)
        if (previousPiece[i] != kNoPolygon)
        {
            newToPrev[i] = own0 + previousPiece[i];
            prevToNew[previousPiece[i]] = own0 + i;
        }
    auto mapPrev = [&](uint32_t o) { return o < own0 ? o : prevToNew[o - own0]; };
    auto prevIdOf = [&](uint32_t p) { return p < own0 ? p : newToPrev[p - own0]; };

    // Dirty: new or different, or next to something new, different or gone.
    std::vector<uint32_t> dirty;
    for (uint32_t p : changedNew)
    {
        dirty.push_back(p);
        if (!mesh.disabled(p))
            visitLinkCandidates(mesh, p, [&](uint32_t q) { dirty.push_back(q); });
    }
    for (uint32_t o : changedOld)
        for (const NavLink& l : previous.links(o))
            if (const uint32_t q = mapPrev(l.neighbour); q != kNoPolygon)
                dirty.push_back(q);
    sortUnique(dirty);

    // Links and walls of each own entry: copied from `previous` when nothing
    // round it changed, the base's for a slot whose links are the base's,
    // else found again.
    enum Source : uint8_t { kCopied, kBase, kLinked };
    std::vector<uint8_t> source(topoCount, kLinked);
    mesh.m_linkStarts.assign(topoCount + 1, 0);
    mesh.m_wallStarts.assign(topoCount + 1, 0);
    std::vector<NavLink> ls;
    std::vector<uint32_t> candidates;
    for (uint32_t t = 0; t < topoCount; ++t)
    {
        const uint32_t p = idOf(t);
        const uint32_t o = prevIdOf(p);
        if (mesh.disabled(p))
        {
            mesh.m_linkStarts[t + 1] = static_cast<uint32_t>(mesh.m_links.size());
            mesh.m_wallStarts[t + 1] = static_cast<uint32_t>(mesh.m_walls.size());
            continue;
        }
        const bool ofBase = p < own0 && !contains(changed, p); // a reader: the base's links
        const bool copy = o != kNoPolygon && !contains(dirty, p) && !previous.disabled(o) &&
                          (!ofBase || (prevCarved && previous.topo(o) != kNoPolygon));
        if (copy || ofBase)
        {
            const NavMesh& from = copy ? previous : base;
            const uint32_t q = copy ? o : p;
            source[t] = copy ? kCopied : kBase;
            const uint32_t first = from.firstLink(q);
            const std::span<const NavLink> links = from.links(q);
            for (uint32_t k = 0; k < links.size(); ++k)
            {
                NavLink l = links[k];
                l.neighbour = copy ? mapPrev(l.neighbour) : l.neighbour;
                assert(l.neighbour != kNoPolygon);
                mesh.m_links.push_back(l);
                const uint32_t dead = from.linkDeadEnd(first + k);
                mesh.m_linkBackEdge.push_back(from.linkBackEdge(first + k));
                mesh.m_linkDeadEnd.push_back(dead == kNoPolygon || !copy ? dead : mapPrev(dead));
                mesh.m_linkBehind.push_back(from.linkBehind(first + k));
                mesh.m_linkEndPoint.push_back(from.linkEndPoint(first + k, 0));
                mesh.m_linkEndPoint.push_back(from.linkEndPoint(first + k, 1));
            }
            for (NavWall w : from.walls(q))
            {
                w.polygon = p;
                mesh.m_walls.push_back(w);
            }
        }
        else
        {
            // A piece is linked against everything it meets; a base slot
            // keeps its base links to uncarved slots and is linked against the pieces.
            ++work.polygonsLinked;
            ls.clear();
            candidates.clear();
            if (p < own0)
                for (const NavLink& l : base.links(p))
                    if (!mesh.disabled(l.neighbour))
                        ls.push_back(l);
            visitLinkCandidates(mesh, p,
                                [&](uint32_t q)
                                {
                                    if (q != p && (p >= own0 || q >= own0))
                                        candidates.push_back(q);
                                });
            sortUnique(candidates);
            for (uint32_t q : candidates)
                linkPair(mesh, p, q, &ls, nullptr);
            sortLinks(ls);
            const std::span<const NavLink> baseLinks = p < own0 ? base.links(p) : std::span<const NavLink>{};
            const uint32_t baseFirst = p < own0 ? base.firstLink(p) : 0;
            for (const NavLink& l : ls)
            {
                mesh.m_links.push_back(l);
                mesh.m_linkBackEdge.push_back(0);
                mesh.m_linkDeadEnd.push_back(kNoPolygon);
                // A base link between two uncarved slots keeps its bridge (see the note above).
                NavMesh::LinkBehind behind{0, 0};
                if (l.neighbour < own0)
                    for (uint32_t k = 0; k < baseLinks.size(); ++k)
                        if (baseLinks[k].neighbour == l.neighbour && baseLinks[k].edge == l.edge &&
                            baseLinks[k].tMin == l.tMin && baseLinks[k].tMax == l.tMax)
                            behind = base.linkBehind(baseFirst + k);
                mesh.m_linkBehind.push_back(behind);
                mesh.m_linkEndPoint.push_back(kNoPolygon);
                mesh.m_linkEndPoint.push_back(kNoPolygon);
            }
            appendWalls(mesh, p, ls, mesh.m_walls);
        }
        mesh.m_linkStarts[t + 1] = static_cast<uint32_t>(mesh.m_links.size());
        mesh.m_wallStarts[t + 1] = static_cast<uint32_t>(mesh.m_walls.size());
    }

    // Back edges and dead ends: they read the neighbour's links and its
    // neighbours' link counts, so those of links into the dirty polygons,
    // the polygons linked again, and their neighbours are derived again.
    std::vector<uint32_t> near = dirty;
    for (uint32_t t = 0; t < topoCount; ++t)
        if (source[t] != kCopied && !mesh.disabled(idOf(t)))
            near.push_back(idOf(t));
    sortUnique(near);
    const size_t nearCore = near.size();
    for (size_t i = 0; i < nearCore; ++i)
        for (const NavLink& l : mesh.links(near[i]))
            near.push_back(l.neighbour);
    sortUnique(near);
    for (uint32_t t = 0; t < topoCount; ++t)
    {
        const uint32_t p = idOf(t);
        for (uint32_t k = mesh.m_linkStarts[t]; k < mesh.m_linkStarts[t + 1]; ++k)
            if (source[t] != kCopied || contains(near, mesh.m_links[k].neighbour))
            {
                const std::array<uint32_t, 2> turn = linkTurnOf(mesh, p, mesh.m_links[k]);
                mesh.m_linkBackEdge[k] = turn[0];
                mesh.m_linkDeadEnd[k] = turn[1];
                ++work.linksDerived;
            }
    }

    // Point ids: copied links keep theirs (the base's or `previous`'s); a new
    // end takes the base's id of its bits when the base has an end there
    // (so a slot given back to its base links agrees with its neighbours),
    // else the id of an own end at the same bits, else the next own id.
    // (Most points are the ends of several new links: each is looked up once.)
    mesh.m_endPointCount = prevCarved ? previous.m_endPointCount : 0;
    std::map<std::array<uint32_t, 3>, uint32_t> found;
    for (uint32_t t = 0; t < topoCount; ++t)
        if (source[t] == kLinked)
            for (uint32_t k = mesh.m_linkStarts[t]; k < mesh.m_linkStarts[t + 1]; ++k)
                for (uint32_t end = 0; end < 2; ++end)
                {
                    const NavLink& l = mesh.m_links[k];
                    const glm::vec3& at = end == 0 ? l.a : l.b;
                    const std::array<uint32_t, 3> key{spark::bitCast<uint32_t>(at.x), spark::bitCast<uint32_t>(at.y),
                                                      spark::bitCast<uint32_t>(at.z)};
                    const auto [it, fresh] = found.emplace(key, kNoPolygon);
                    if (fresh)
                    {
                        uint32_t id = findLinkEndPoint(base, at);
                        if (id == kNoPolygon)
                            id = findLinkEndPoint(mesh, at);
                        it->second = id != kNoPolygon ? id : mesh.m_point0 + mesh.m_endPointCount++;
                    }
                    mesh.m_linkEndPoint[2 * size_t(k) + end] = it->second;
                }
    bool renumbered = false;
    if (mesh.m_endPointCount > mesh.m_linkEndPoint.size() + 64) // more own ids than own ends: most name nothing
    {
        // Own ids afresh, in link order; every own point's turn is derived below.
        std::vector<uint32_t> fresh(mesh.m_endPointCount, kNoPolygon);
        uint32_t next = 0;
        for (uint32_t& id : mesh.m_linkEndPoint)
            if (id >= mesh.m_point0)
            {
                uint32_t& f = fresh[id - mesh.m_point0];
                if (f == kNoPolygon)
                    f = next++;
                id = mesh.m_point0 + f;
            }
        mesh.m_endPointCount = next;
        renumbered = true;
    }

    // Turns: at every point with an end on a polygon whose links changed,
    // now or in `previous` (the dirty polygons: every polygon linked again
    // is one); the others are copied.
    std::vector<std::pair<uint32_t, glm::vec3>> touched; // (id, position)
    if (renumbered) // every own id names another point now: all own ends
        for (size_t k = 0; k < mesh.m_links.size(); ++k)
        {
            touched.emplace_back(mesh.m_linkEndPoint[2 * k], mesh.m_links[k].a);
            touched.emplace_back(mesh.m_linkEndPoint[2 * k + 1], mesh.m_links[k].b);
        }
    auto touchOld = [&](uint32_t o)
    {
        const uint32_t first = previous.firstLink(o);
        const std::span<const NavLink> links = previous.links(o);
        for (uint32_t k = 0; k < links.size(); ++k)
            for (uint32_t end = 0; end < 2; ++end)
            {
                // (Own ids numbered afresh name other points now: all of those are derived anyway.)
                const uint32_t id = previous.linkEndPoint(first + k, end);
                if (!renumbered || id < mesh.m_point0)
                    touched.emplace_back(id, end == 0 ? links[k].a : links[k].b);
            }
    };
    for (uint32_t o : changedOld)
        touchOld(o);
    for (uint32_t p : dirty)
    {
        if (const uint32_t o = prevIdOf(p); o != kNoPolygon)
            touchOld(o);
        const uint32_t first = mesh.firstLink(p);
        const std::span<const NavLink> links = mesh.links(p);
        for (uint32_t k = 0; k < links.size(); ++k)
        {
            touched.emplace_back(mesh.linkEndPoint(first + k, 0), links[k].a);
            touched.emplace_back(mesh.linkEndPoint(first + k, 1), links[k].b);
        }
    }
    std::sort(touched.begin(), touched.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    touched.erase(std::unique(touched.begin(), touched.end(),
                              [](const auto& x, const auto& y) { return x.first == y.first; }),
                  touched.end());
    work.pointsDerived = static_cast<uint32_t>(touched.size());
    if (prevCarved && !renumbered)
        mesh.m_linkEndTurn = previous.m_linkEndTurn;
    mesh.m_linkEndTurn.resize(mesh.m_endPointCount, 0);
    // The base points' turns that differ: `previous`'s, updated at the touched ones.
    std::vector<std::pair<uint32_t, uint8_t>> overrides;
    if (prevCarved)
        for (size_t i = 0; i < previous.m_turnOverIds.size(); ++i)
            overrides.emplace_back(previous.m_turnOverIds[i], previous.m_turnOverValues[i]);
    std::erase_if(touched, [&](const auto& point) { return point.first >= mesh.m_point0 + mesh.m_endPointCount; });
    std::vector<uint8_t> turns;
    turnsAt(mesh, touched, turns);
    std::vector<std::pair<uint32_t, uint8_t>> updates;
    for (size_t k = 0; k < touched.size(); ++k)
    {
        const uint32_t id = touched[k].first;
        if (id >= mesh.m_point0)
            mesh.m_linkEndTurn[id - mesh.m_point0] = turns[k];
        else
            updates.emplace_back(id, turns[k]);
    }
    // Merge: an update replaces an override; it is kept only when it differs from the base.
    std::vector<std::pair<uint32_t, uint8_t>> merged;
    size_t i = 0, j = 0;
    while (i < overrides.size() || j < updates.size())
    {
        if (j == updates.size() || (i < overrides.size() && overrides[i].first < updates[j].first))
            merged.push_back(overrides[i++]);
        else
        {
            if (i < overrides.size() && overrides[i].first == updates[j].first)
                ++i;
            if (updates[j].second != base.m_linkEndTurn[updates[j].first])
                merged.push_back(updates[j]);
            ++j;
        }
    }
    mesh.m_turnOverBits.assign((mesh.m_point0 + 63) / 64, 0);
    for (const auto& [id, turn] : merged)
    {
        mesh.m_turnOverIds.push_back(id);
        mesh.m_turnOverValues.push_back(turn);
        setBit(mesh.m_turnOverBits, id);
    }

    deriveCarvedUnits(mesh, changed);
    return mesh;
}

} // namespace spark::nav
