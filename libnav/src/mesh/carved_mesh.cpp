/// \file carved_mesh.cpp
/// A baked mesh minus obstacle cuts (docs/navmesh.md "Obstacles").
///
/// Design note. The carved mesh keeps every base polygon in its slot, so ids
/// of polygons no obstacle touches never change and corridors through them
/// stay valid; a carved polygon's slot is disabled and its pieces follow the
/// base slots in a canonical order (by base polygon, then `carveConvex`
/// order). The layout is therefore a function of the base and the set of
/// cuts, not of the order of changes: moving an obstacle away and back gives
/// the same bytes, and with no cut left the mesh is the base itself. A change
/// re-cuts only the base polygons under the changed regions (the old and new
/// footprints of a moved obstacle); the pieces of other polygons are copied
/// from the previous carving. This is the overlay Detour's tile cache builds
/// per tile, done per polygon: no re-rasterisation, only convex clipping.

#include "spark/nav/carve.h"

#include "navmesh_access.h"

#include <algorithm>
#include <cmath>

namespace spark::nav
{

namespace
{

/// The pieces of one carved base polygon: 3D points per piece.
struct CarvedEntry
{
    uint32_t base = 0;
    std::vector<std::vector<glm::vec3>> pieces;
};

double cross2(const glm::dvec2& a, const glm::dvec2& b)
{
    return a.x * b.y - a.y * b.x;
}

/// True when an edge of `a` separates `b` from it: every point of `b` lies on
/// the edge's line or beyond it (within a margin), so convex polygons that
/// only touch, along an edge or at a point, count as apart.
bool separatedByEdgeOf(std::span<const glm::dvec2> a, std::span<const glm::dvec2> b)
{
    constexpr double kMargin = 1.0e-9;
    const size_t n = a.size();
    for (size_t i = 0; i < n; ++i)
    {
        const glm::dvec2 p = a[i], d = a[(i + 1) % n] - a[i];
        const double len = std::sqrt(d.x * d.x + d.y * d.y);
        if (!(len > 0.0))
            continue;
        bool allRight = true;
        for (const glm::dvec2& q : b)
            if (cross2(d, q - p) / len > kMargin)
            {
                allRight = false;
                break;
            }
        if (allRight)
            return true;
    }
    return false;
}

bool overlapsWithArea(std::span<const glm::dvec2> a, std::span<const glm::dvec2> b)
{
    return !separatedByEdgeOf(a, b) && !separatedByEdgeOf(b, a);
}

bool boundsMeet(const Bounds3& pb, const glm::dvec2& min, const glm::dvec2& max, float minY, float maxY)
{
    return !(double(pb.max.x) < min.x || double(pb.min.x) > max.x || double(pb.max.z) < min.y ||
             double(pb.min.z) > max.y || pb.max.y < minY || pb.min.y > maxY);
}

/// The pieces of base polygon `poly` under `cuts` (empty `entry.pieces` with
/// `carved` true when covered whole); `carved` false when no cut overlaps it.
bool cutPolygon(const NavMesh& base, uint32_t poly, std::span<const CarveCut* const> cuts, CarvedEntry& entry,
                std::vector<std::vector<glm::dvec2>>& scratchCuts, std::vector<std::vector<glm::dvec2>>& scratchPieces)
{
    const Bounds3& pb = base.polygonBounds(poly);
    const uint32_t n = base.polygonVertexCount(poly);
    std::vector<glm::dvec2> polygon(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        const glm::vec3 v = base.polygonVertex(poly, i);
        polygon[i] = glm::dvec2(v.x, v.z);
    }
    scratchCuts.clear();
    for (const CarveCut* cut : cuts)
        if (boundsMeet(pb, cut->min, cut->max, cut->minY, cut->maxY) && overlapsWithArea(polygon, cut->polygon))
            scratchCuts.push_back(cut->polygon);
    if (scratchCuts.empty())
        return false;
    const uint32_t maxVerts = std::min<uint32_t>(base.maxPolyVerts(), kMaxBakedPolyVerts);
    carveConvex(polygon, scratchCuts, maxVerts, scratchPieces);
    mergeConvexPieces(scratchPieces, maxVerts); // each cut leaves up to one piece per edge: join what can be
    entry.base = poly;
    entry.pieces.clear();
    for (const std::vector<glm::dvec2>& piece : scratchPieces)
    {
        std::vector<glm::vec3> out;
        out.reserve(piece.size());
        for (const glm::dvec2& q : piece)
        {
            const float x = static_cast<float>(q.x), z = static_cast<float>(q.y);
            const glm::vec3 v(x == 0.0f ? 0.0f : x, base.heightAt(poly, x, z), z == 0.0f ? 0.0f : z);
            if (!out.empty() && out.back().x == v.x && out.back().z == v.z)
                continue; // two points the float rounding made one
            out.push_back(v);
        }
        while (out.size() > 1 && out.front().x == out.back().x && out.front().z == out.back().z)
            out.pop_back();
        if (out.size() < 3)
            continue;
        double area2 = 0.0;
        for (size_t i = 0; i < out.size(); ++i)
        {
            const glm::vec3& a = out[i];
            const glm::vec3& b = out[(i + 1) % out.size()];
            area2 += double(a.x) * b.z - double(b.x) * a.z;
        }
        if (!(area2 * 0.5 >= kMinCarvedPieceArea))
            continue;
        entry.pieces.push_back(std::move(out));
    }
    return true;
}

} // namespace

CarveCut makeCarveCut(std::vector<glm::dvec2> polygon, float minY, float maxY)
{
    CarveCut cut;
    cut.polygon = std::move(polygon);
    if (!cut.polygon.empty())
    {
        cut.min = cut.max = cut.polygon.front();
        for (const glm::dvec2& p : cut.polygon)
        {
            cut.min = glm::dvec2(std::min(cut.min.x, p.x), std::min(cut.min.y, p.y));
            cut.max = glm::dvec2(std::max(cut.max.x, p.x), std::max(cut.max.y, p.y));
        }
    }
    cut.minY = minY;
    cut.maxY = maxY;
    return cut;
}

NavMesh walkableMesh(const NavMesh& mesh)
{
    if (mesh.disabledCount() == 0)
        return mesh;
    std::vector<uint32_t> remap(mesh.vertexCount(), kNoPolygon);
    std::vector<glm::vec3> vertices;
    std::vector<uint32_t> indices;
    std::vector<uint32_t> polyStarts{0};
    std::vector<uint8_t> areas;
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        if (mesh.disabled(p))
            continue;
        for (uint32_t v : mesh.polygonIndices(p))
        {
            if (remap[v] == kNoPolygon)
            {
                remap[v] = static_cast<uint32_t>(vertices.size());
                vertices.push_back(mesh.vertex(v));
            }
            indices.push_back(remap[v]);
        }
        polyStarts.push_back(static_cast<uint32_t>(indices.size()));
        areas.push_back(mesh.area(p));
    }
    return NavMeshAccess::fromParts(mesh, std::move(vertices), std::move(indices), std::move(polyStarts),
                                    std::move(areas), {});
}

NavMesh reassembledNavMesh(const NavMesh& mesh)
{
    return NavMeshAccess::reassembled(mesh);
}

CarveRegion carveRegionOf(const CarveCut& cut)
{
    return CarveRegion{cut.min, cut.max, cut.minY, cut.maxY};
}

uint32_t carvedGeneration(const CarvedMesh& carved, uint32_t slot, uint32_t baseGeneration,
                          std::span<const uint32_t> baseGenerations)
{
    const NavMesh& mesh = carved.mesh;
    const uint32_t baseCount = mesh.base() ? mesh.base()->polygonCount() : mesh.polygonCount();
    if (slot >= mesh.polygonCount())
        return 0;
    if (slot >= baseCount)
        return carved.pieceGenerations[slot - baseCount];
    const auto it = std::lower_bound(carved.slotGenerations.begin(), carved.slotGenerations.end(),
                                     std::array<uint32_t, 2>{slot, 0});
    if (it != carved.slotGenerations.end() && (*it)[0] == slot)
        return (*it)[1];
    return slot < baseGenerations.size() ? baseGenerations[slot] : baseGeneration;
}

CarvedMesh recarveNavMesh(const std::shared_ptr<const NavMesh>& basePtr, const CarvedMesh* previous,
                          std::span<const CarveCut* const> cuts, std::span<const CarveRegion> regions,
                          uint32_t baseGeneration, uint32_t generation, std::span<const uint32_t> baseGenerations,
                          std::vector<uint32_t>* renumbered)
{
    const NavMesh& base = *basePtr;
    const uint32_t baseCount = base.polygonCount();

    // The base polygons to cut again: those whose bounds meet a region.
    std::vector<uint32_t> recut;
    for (const CarveRegion& r : regions)
        base.visitPolygonsInBoxXZ(static_cast<float>(r.min.x), static_cast<float>(r.min.y), static_cast<float>(r.max.x),
                                  static_cast<float>(r.max.y), [&](uint32_t p) {
                                      if (boundsMeet(base.polygonBounds(p), r.min, r.max, r.minY, r.maxY))
                                          recut.push_back(p);
                                  });
    std::sort(recut.begin(), recut.end());
    recut.erase(std::unique(recut.begin(), recut.end()), recut.end());

    // The previous carving's entries are read in place (base id and piece
    // slots), not copied: most of them are kept as they are.
    const uint32_t oldCount = previous ? static_cast<uint32_t>(previous->carvedBases.size()) : 0;
    auto oldBase = [&](size_t i) { return previous->carvedBases[i]; };
    std::vector<CarvedEntry> fresh;
    std::vector<std::vector<glm::dvec2>> scratchCuts, scratchPieces;
    for (uint32_t p : recut)
    {
        CarvedEntry entry;
        if (cutPolygon(base, p, cuts, entry, scratchCuts, scratchPieces))
            fresh.push_back(std::move(entry));
    }

    // Merge: the old entries outside `recut`, and the fresh ones, by base id.
    struct Merged
    {
        uint32_t base;
        const CarvedEntry* entry; // the fresh pieces, or null: the previous carving's, kept
        bool changed;             // its pieces differ from the previous carving's
        int64_t previousIndex;    // index of the same base in the previous carving, or -1
    };
    std::vector<Merged> merged;
    size_t io = 0, ifr = 0;
    auto inRecut = [&](uint32_t b) { return std::binary_search(recut.begin(), recut.end(), b); };
    auto findOld = [&](uint32_t b) -> int64_t {
        if (!previous)
            return -1;
        auto it = std::lower_bound(previous->carvedBases.begin(), previous->carvedBases.end(), b);
        return it != previous->carvedBases.end() && *it == b ? static_cast<int64_t>(it - previous->carvedBases.begin())
                                                             : -1;
    };
    // Same pieces as the previous carving's entry `i` (point for point)?
    auto samePieces = [&](size_t i, const CarvedEntry& e) {
        const uint32_t first = previous->pieceStarts[i], last = previous->pieceStarts[i + 1];
        if (last - first != e.pieces.size())
            return false;
        for (uint32_t s = first; s < last; ++s)
        {
            const uint32_t slot = base.polygonCount() + s;
            const std::vector<glm::vec3>& piece = e.pieces[s - first];
            if (previous->mesh.polygonVertexCount(slot) != piece.size())
                return false;
            for (uint32_t k = 0; k < piece.size(); ++k)
                if (previous->mesh.polygonVertex(slot, k) != piece[k])
                    return false;
        }
        return true;
    };
    while (io < oldCount || ifr < fresh.size())
    {
        if (io < oldCount && inRecut(oldBase(io)))
        {
            ++io; // replaced by a fresh entry or uncarved
            continue;
        }
        const bool takeOld = ifr >= fresh.size() || (io < oldCount && oldBase(io) < fresh[ifr].base);
        if (takeOld)
        {
            merged.push_back(Merged{oldBase(io), nullptr, false, static_cast<int64_t>(io)});
            ++io;
        }
        else
        {
            const int64_t prev = findOld(fresh[ifr].base);
            const bool same = prev >= 0 && samePieces(static_cast<size_t>(prev), fresh[ifr]);
            merged.push_back(Merged{fresh[ifr].base, &fresh[ifr], !same, prev});
            ++ifr;
        }
    }

    CarvedMesh out;
    out.work.polygonsRecut = static_cast<uint32_t>(recut.size());
    auto previousSlotGeneration = [&](uint32_t slot) {
        if (previous)
            return carvedGeneration(*previous, slot, baseGeneration, baseGenerations);
        return slot < baseGenerations.size() ? baseGenerations[slot] : baseGeneration;
    };
    const NavMesh& before = previous ? previous->mesh : base;

    // Base slots carved or given back take the new generation; the others keep theirs.
    if (previous)
        out.slotGenerations = previous->slotGenerations;
    {
        std::vector<std::array<uint32_t, 2>> flipped;
        std::vector<uint8_t> nowCarved(recut.size(), 0);
        for (const Merged& m : merged)
            if (const auto it = std::lower_bound(recut.begin(), recut.end(), m.base); it != recut.end() && *it == m.base)
                nowCarved[static_cast<size_t>(it - recut.begin())] = 1;
        for (size_t i = 0; i < recut.size(); ++i)
            if ((nowCarved[i] != 0) != before.disabled(recut[i]))
                flipped.push_back({recut[i], generation});
        if (!flipped.empty())
        {
            std::vector<std::array<uint32_t, 2>> all;
            all.reserve(out.slotGenerations.size() + flipped.size());
            size_t i = 0, j = 0;
            while (i < out.slotGenerations.size() || j < flipped.size())
                if (j == flipped.size() || (i < out.slotGenerations.size() && out.slotGenerations[i][0] < flipped[j][0]))
                    all.push_back(out.slotGenerations[i++]);
                else
                {
                    if (i < out.slotGenerations.size() && out.slotGenerations[i][0] == flipped[j][0])
                        ++i;
                    all.push_back(flipped[j++]);
                }
            out.slotGenerations = std::move(all);
        }
    }

    // The pieces, base polygon by base polygon: fresh ones from the cut,
    // kept ones copied from the previous carving.
    NavMeshAccess::Pieces pieces;
    out.pieceStarts.push_back(0);
    for (const Merged& m : merged)
    {
        out.carvedBases.push_back(m.base);
        pieces.carved.push_back(m.base);
        auto addPiece = [&]() {
            pieces.polyStarts.push_back(static_cast<uint32_t>(pieces.indices.size()));
            pieces.areas.push_back(base.area(m.base));
            pieces.pieceBase.push_back(m.base);
        };
        if (pieces.polyStarts.empty())
            pieces.polyStarts.push_back(0);
        if (m.entry)
            for (const std::vector<glm::vec3>& piece : m.entry->pieces)
            {
                for (const glm::vec3& v : piece)
                {
                    pieces.indices.push_back(base.vertexCount() + static_cast<uint32_t>(pieces.vertices.size()));
                    pieces.vertices.push_back(v);
                }
                addPiece();
            }
        else
        {
            const size_t i = static_cast<size_t>(m.previousIndex);
            for (uint32_t s = previous->pieceStarts[i]; s < previous->pieceStarts[i + 1]; ++s)
            {
                const uint32_t slot = baseCount + s;
                for (uint32_t k = 0; k < previous->mesh.polygonVertexCount(slot); ++k)
                {
                    pieces.indices.push_back(base.vertexCount() + static_cast<uint32_t>(pieces.vertices.size()));
                    pieces.vertices.push_back(previous->mesh.polygonVertex(slot, k));
                }
                addPiece();
            }
        }
        out.pieceStarts.push_back(static_cast<uint32_t>(pieces.areas.size()));
    }
    if (pieces.polyStarts.empty())
        pieces.polyStarts.push_back(0);
    const uint32_t pieceCount = static_cast<uint32_t>(pieces.areas.size());

    // A piece keeps its generation when it is the same polygon at the same
    // place in its tile (`carvedPieceAddress`): pieces of other tiles may
    // have moved in the slot order, but their references still name them.
    // (Untiled: the place is the slot itself.)
    auto tileStartIn = [&](std::span<const uint32_t> bases, std::span<const uint32_t> starts, uint32_t b) {
        const uint32_t tile = base.tileOfPolygon(b);
        if (tile == kNoPolygon)
            return uint32_t(0);
        const auto it = std::lower_bound(bases.begin(), bases.end(), base.tiles()[tile].firstPolygon);
        return starts[static_cast<size_t>(it - bases.begin())];
    };
    out.pieceGenerations.resize(pieceCount);
    std::vector<uint32_t> previousPiece(pieceCount, kNoPolygon); // the same polygon in the previous carving
    const uint32_t previousPieces = before.polygonCount() - baseCount;
    std::vector<uint32_t> pieceMap(previousPieces, kNoPolygon); // previous piece → slot now
    for (size_t i = 0; i < merged.size(); ++i)
    {
        const Merged& m = merged[i];
        uint32_t newStart = 0, oldStart = 0;
        const bool kept = !m.changed && m.previousIndex >= 0;
        if (kept)
        {
            newStart = tileStartIn(out.carvedBases, out.pieceStarts, m.base);
            oldStart = tileStartIn(previous->carvedBases, previous->pieceStarts, m.base);
        }
        for (uint32_t s = out.pieceStarts[i]; s < out.pieceStarts[i + 1]; ++s)
        {
            uint32_t g = generation;
            if (kept)
            {
                const uint32_t oldSlot = previous->pieceStarts[static_cast<size_t>(m.previousIndex)] + (s - out.pieceStarts[i]);
                if (oldSlot - oldStart == s - newStart)
                    g = previousSlotGeneration(baseCount + oldSlot);
                previousPiece[s] = oldSlot;
                pieceMap[oldSlot] = baseCount + s;
            }
            out.pieceGenerations[s] = g;
        }
    }
    // What changed: base slots carved or given back, pieces new or different
    // (now), and pieces gone or different (before).
    std::vector<uint32_t> changedNew, changedOld;
    for (const std::array<uint32_t, 2>& f : out.slotGenerations)
        if (f[1] == generation)
        {
            changedNew.push_back(f[0]);
            changedOld.push_back(f[0]);
        }
    for (uint32_t s = 0; s < pieceCount; ++s)
        if (previousPiece[s] == kNoPolygon)
            changedNew.push_back(baseCount + s);
    for (uint32_t o = 0; o < previousPieces; ++o)
        if (pieceMap[o] == kNoPolygon)
            changedOld.push_back(baseCount + o);
    if (renumbered)
        *renumbered = pieceMap;
    out.mesh = NavMeshAccess::carved(basePtr, before, std::move(pieces), previousPiece, changedNew, changedOld, out.work);
    return out;
}

PieceAddress carvedPieceAddress(const CarvedMesh& carved, const NavMesh& base, uint32_t slot)
{
    const uint32_t baseCount = base.polygonCount();
    if (!base.tiled() || slot < baseCount || slot >= carved.mesh.polygonCount())
        return PieceAddress{};
    // The carved base polygon whose pieces hold the slot, then the first piece of its tile.
    const uint32_t piece = slot - baseCount;
    const auto entry = std::upper_bound(carved.pieceStarts.begin(), carved.pieceStarts.end(), piece) - 1;
    const uint32_t owner = carved.carvedBases[static_cast<size_t>(entry - carved.pieceStarts.begin())];
    const uint32_t tile = base.tileOfPolygon(owner);
    const NavTile& t = base.tiles()[tile];
    const auto first = std::lower_bound(carved.carvedBases.begin(), carved.carvedBases.end(), t.firstPolygon);
    const uint32_t tileStart = carved.pieceStarts[static_cast<size_t>(first - carved.carvedBases.begin())];
    return PieceAddress{tile, t.polygonCount + (piece - tileStart)};
}

uint32_t carvedPieceSlot(const CarvedMesh& carved, const NavMesh& base, uint32_t tile, uint32_t polygon)
{
    if (!base.tiled() || tile >= base.tiles().size())
        return kNoPolygon;
    const NavTile& t = base.tiles()[tile];
    if (polygon < t.polygonCount)
        return kNoPolygon;
    const auto first = std::lower_bound(carved.carvedBases.begin(), carved.carvedBases.end(), t.firstPolygon);
    const auto last = std::lower_bound(first, carved.carvedBases.end(), t.firstPolygon + t.polygonCount);
    const uint32_t begin = carved.pieceStarts[static_cast<size_t>(first - carved.carvedBases.begin())];
    const uint32_t end = carved.pieceStarts[static_cast<size_t>(last - carved.carvedBases.begin())];
    const uint64_t k = uint64_t(polygon) - t.polygonCount;
    return k < end - begin ? base.polygonCount() + begin + static_cast<uint32_t>(k) : kNoPolygon;
}

} // namespace spark::nav
