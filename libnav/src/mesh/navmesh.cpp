/// \file navmesh.cpp
/// Building a NavMesh from a polygon soup: validation, portal linking by edge
/// overlap, walls, and the spatial grid.
///
/// Design note. Links are found geometrically, as in Detour's tile-border
/// linking (dtNavMesh::connectExtLinks finds overlapping, opposite, collinear
/// edges) but applied to every edge of the mesh rather than only tile borders:
/// two edges link when both ends of one lie within `linkTolerance` of the
/// other's line in the x–z plane, they run in opposite directions, their
/// projections overlap by more than the tolerance, and their heights at the
/// ends of the overlap differ by at most the step height. The link covers the
/// overlapping stretch only, so a long edge facing several short ones carries
/// several links (T-junctions). Candidate pairs come from the spatial grid, a
/// uniform grid over polygon x–z bounds (each polygon listed in every cell its
/// bounds touch, stored as compressed rows), which also serves point location
/// and nearest-point queries. Walls are the complement of the links on each
/// edge, dropping slivers shorter than the tolerance.

#include "spark/nav/navmesh.h"
#include "spark/core/bits.h"

#include "navmesh_access.h"
#include "../query/exact_orient.h"

#include <glm/common.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <queue>
#include <string>
#include <utility>
#include <tuple>

namespace spark::nav
{

namespace
{

double crossXZ(double ax, double az, double bx, double bz)
{
    return ax * bz - az * bx;
}

bool finite(float v)
{
    return std::isfinite(v);
}

float foldZero(float v)
{
    return v == 0.0f ? 0.0f : v;
}

Status validateDef(const NavMeshDef& def)
{
    const NavMeshSettings& s = def.settings;
    auto bad = [](const char* field, const char* msg)
    { return Status(makeError("E_NAV_CONFIG", msg, field)); };
    if (!finite(s.agentRadius) || s.agentRadius < 0.0f)
        return bad("/settings/agent_radius", "agent radius must be finite and >= 0");
    if (!finite(s.agentHeight) || !(s.agentHeight > 0.0f))
        return bad("/settings/agent_height", "agent height must be finite and > 0");
    if (!finite(s.stepHeight) || s.stepHeight < 0.0f)
        return bad("/settings/step_height", "step height must be finite and >= 0");
    if (!finite(s.cellSize) || !(s.cellSize > 0.0f))
        return bad("/settings/cell_size", "cell size must be finite and > 0");
    if (!finite(s.cellHeight) || !(s.cellHeight > 0.0f))
        return bad("/settings/cell_height", "cell height must be finite and > 0");
    if (!finite(s.maxSlopeDeg) || s.maxSlopeDeg < 0.0f || s.maxSlopeDeg > 90.0f)
        return bad("/settings/max_slope_deg", "max slope must be within 0..90 degrees");
    if (!finite(def.linkTolerance) || !(def.linkTolerance > 0.0f) || def.linkTolerance > 1.0f)
        return bad("/settings/link_tolerance", "link tolerance must be within (0, 1] m");
    if (def.maxPolyVerts < 3 || def.maxPolyVerts > kMaxPolyVerts)
        return bad("/settings/max_poly_verts", "max polygon vertices must be within 3..32");
    return Status::success();
}

std::string indexField(const char* base, size_t i)
{
    return std::string(base) + "/" + std::to_string(i);
}

Status validateSoup(const PolySoup& soup, const NavMeshDef& def)
{
    const size_t polys = soup.polygonCount();
    if (soup.vertices.size() > kMaxVertices)
        return makeError("E_NAV_LIMIT", "too many vertices (limit " + std::to_string(kMaxVertices) + ")",
                         "/vertices");
    if (polys > kMaxPolygons)
        return makeError("E_NAV_LIMIT", "too many polygons (limit " + std::to_string(kMaxPolygons) + ")",
                         "/polygons");
    if (polys == 0)
        return makeError("E_NAV_NO_GEOMETRY", "the mesh has no polygons", "/polygons");
    if (soup.areas.size() != polys)
        return makeError("E_NAV_FORMAT", "there must be one area id per polygon", "/areas");
    if (soup.polyStarts.front() != 0 || soup.polyStarts.back() != soup.indices.size())
        return makeError("E_NAV_FORMAT", "polygon starts do not cover the index list", "/polygons");

    for (size_t i = 0; i < soup.vertices.size(); ++i)
    {
        const glm::vec3& v = soup.vertices[i];
        for (int c = 0; c < 3; ++c)
        {
            if (!finite(v[c]) || std::fabs(v[c]) > kMaxCoordinate)
                return makeError("E_NAV_FORMAT", "vertex coordinates must be finite and within ±1e6 m",
                                 indexField("/vertices", i) + "/" + std::to_string(c));
        }
        if (def.is2d && v.y != 0.0f)
            return makeError("E_NAV_FORMAT", "a 2D mesh's vertices have y = 0", indexField("/vertices", i));
    }

    for (size_t p = 0; p < polys; ++p)
    {
        auto field = [&] { return indexField("/polygons", p); }; // made only for an error
        if (soup.polyStarts[p + 1] < soup.polyStarts[p])
            return makeError("E_NAV_FORMAT", "polygon starts must not decrease", field());
        const uint32_t n = soup.polyStarts[p + 1] - soup.polyStarts[p];
        if (n < 3)
            return makeError("E_NAV_FORMAT", "a polygon has at least 3 vertices", field());
        if (n > def.maxPolyVerts)
            return makeError("E_NAV_LIMIT",
                             "a polygon has at most " + std::to_string(def.maxPolyVerts) + " vertices",
                             field());
        if (soup.areas[p] > kMaxAreaId)
            return makeError("E_NAV_FORMAT", "area ids are 0..15", indexField("/areas", p));
        const uint32_t* idx = soup.indices.data() + soup.polyStarts[p];
        double maxAbs = 0.0;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (idx[i] >= soup.vertices.size())
                return makeError("E_NAV_FORMAT", "vertex index out of range",
                                 field() + "/" + std::to_string(i));
            for (uint32_t j = 0; j < i; ++j)
                if (idx[j] == idx[i])
                    return makeError("E_NAV_FORMAT", "a polygon uses a vertex twice",
                                     field() + "/" + std::to_string(i));
            const glm::vec3& v = soup.vertices[idx[i]];
            maxAbs = std::max({maxAbs, std::fabs(double(v.x)), std::fabs(double(v.z))});
        }
        // Convex with positive winding: every vertex lies on the left of (or on) every edge.
        const double tol = std::max(1.0e-5, 1.0e-6 * maxAbs);
        double area2 = 0.0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const glm::vec3& a = soup.vertices[idx[i]];
            const glm::vec3& b = soup.vertices[idx[(i + 1) % n]];
            const double dx = double(b.x) - a.x;
            const double dz = double(b.z) - a.z;
            const double len = std::sqrt(dx * dx + dz * dz);
            if (len <= tol)
                return makeError("E_NAV_FORMAT", "a polygon has an edge of zero length in the x–z plane",
                                 field());
            area2 += crossXZ(a.x, a.z, b.x, b.z);
            for (uint32_t j = 0; j < n; ++j)
            {
                const glm::vec3& v = soup.vertices[idx[j]];
                if (crossXZ(dx, dz, double(v.x) - a.x, double(v.z) - a.z) / len < -tol)
                    return makeError("E_NAV_FORMAT",
                                     "a polygon must be convex with positive winding in the x–z plane", field(),
                                     "list the vertices counter-clockwise (x right, z up the page)");
            }
        }
        if (!(area2 > tol * tol))
            return makeError("E_NAV_FORMAT", "a polygon must have a positive area in the x–z plane", field());
    }
    return Status::success();
}

/// Closest point to (px, pz) on segment a→b in x–z, as a parameter in [0, 1].
double segmentParamXZ(const glm::vec3& a, const glm::vec3& b, double px, double pz)
{
    const double dx = double(b.x) - a.x;
    const double dz = double(b.z) - a.z;
    const double l2 = dx * dx + dz * dz;
    if (l2 <= 0.0)
        return 0.0;
    const double t = ((px - a.x) * dx + (pz - a.z) * dz) / l2;
    return std::clamp(t, 0.0, 1.0);
}

glm::vec3 lerp3(const glm::vec3& a, const glm::vec3& b, double t)
{
    return glm::vec3(static_cast<float>(a.x + (double(b.x) - a.x) * t),
                     static_cast<float>(a.y + (double(b.y) - a.y) * t),
                     static_cast<float>(a.z + (double(b.z) - a.z) * t));
}

} // namespace

NavMeshSettings defaultNavMeshSettings()
{
    return NavMeshSettings{};
}

NavMeshDef defaultNavMeshDef()
{
    return NavMeshDef{};
}

bool NavMesh::containsXZ(uint32_t poly, float x, float z, float eps) const
{
    uint32_t own;
    const NavMesh& g = geo(poly, own);
    const uint32_t* idx = g.m_indices.data() + g.m_polyStarts[own];
    const uint32_t n = g.m_polyStarts[own + 1] - g.m_polyStarts[own];
    const glm::vec3* verts = g.m_vertices.data() - g.m_vert0; // indexed by vertex id
    const glm::vec3* prev = &verts[idx[n - 1]];
    for (uint32_t i = 0; i < n; ++i)
    {
        const glm::vec3* cur = &verts[idx[i]];
        const float dx = cur->x - prev->x;
        const float dz = cur->z - prev->z;
        const float c = dx * (z - prev->z) - dz * (x - prev->x);
        if (c < 0.0f)
        {
            // Signed distance = c / |edge|; compare squared to avoid a sqrt when far inside.
            if (eps <= 0.0f || c * c > eps * eps * (dx * dx + dz * dz))
                return false;
        }
        prev = cur;
    }
    return true;
}

float NavMesh::heightAt(uint32_t poly, float x, float z) const
{
    if (m_is2d)
        return 0.0f;
    uint32_t own;
    const NavMesh& g = geo(poly, own);
    const uint32_t* idx = g.m_indices.data() + g.m_polyStarts[own];
    const uint32_t n = g.m_polyStarts[own + 1] - g.m_polyStarts[own];
    const glm::vec3* verts = g.m_vertices.data() - g.m_vert0; // indexed by vertex id
    const glm::vec3& v0 = verts[idx[0]];
    // The fan triangle in which the point is deepest (largest smallest barycentric).
    float bestMin = -1.0e30f;
    float bestY = v0.y;
    for (uint32_t i = 1; i + 1 < n; ++i)
    {
        const glm::vec3& v1 = verts[idx[i]];
        const glm::vec3& v2 = verts[idx[i + 1]];
        const double e1x = double(v1.x) - v0.x, e1z = double(v1.z) - v0.z;
        const double e2x = double(v2.x) - v0.x, e2z = double(v2.z) - v0.z;
        const double det = e1x * e2z - e1z * e2x;
        if (!(det > 0.0))
            continue;
        const double px = double(x) - v0.x, pz = double(z) - v0.z;
        const double u = (px * e2z - pz * e2x) / det;
        const double v = (e1x * pz - e1z * px) / det;
        const double w = 1.0 - u - v;
        const float m = static_cast<float>(std::min({u, v, w}));
        if (m > bestMin)
        {
            bestMin = m;
            const double cu = std::clamp(u, 0.0, 1.0), cv = std::clamp(v, 0.0, 1.0);
            const double s = cu + cv > 1.0 ? 1.0 / (cu + cv) : 1.0;
            const double uu = cu * s, vv = cv * s;
            bestY = static_cast<float>(v0.y + uu * (double(v1.y) - v0.y) + vv * (double(v2.y) - v0.y));
        }
    }
    return bestY;
}

glm::vec3 NavMesh::closestPointOnPolygon(uint32_t poly, const glm::vec3& p) const
{
    if (containsXZ(poly, p.x, p.z, 0.0f))
        return glm::vec3(p.x, heightAt(poly, p.x, p.z), p.z);
    const uint32_t n = polygonVertexCount(poly);
    double best = 1.0e300;
    glm::vec3 bestPoint = polygonVertex(poly, 0);
    for (uint32_t i = 0; i < n; ++i)
    {
        const glm::vec3 a = polygonVertex(poly, i);
        const glm::vec3 b = polygonVertex(poly, (i + 1) % n);
        const double t = segmentParamXZ(a, b, p.x, p.z);
        const glm::vec3 c = lerp3(a, b, t);
        const double dx = double(c.x) - p.x, dz = double(c.z) - p.z;
        const double d2 = dx * dx + dz * dz;
        if (d2 < best)
        {
            best = d2;
            bestPoint = c;
        }
    }
    return bestPoint;
}

void NavMeshAccess::assemble(NavMesh& mesh)
{
    assembleGeometry(mesh);
    const uint32_t polys = mesh.polygonCount();
    // Links by edge overlap, each unordered pair of polygons examined once,
    // from the lower id. Polygon p's links are all found once p is visited:
    // those of pairs with lower ids wait in `pending` (by polygon, then in the
    // order found) until then. Only the links of polygons not yet written out
    // are held apart from the mesh's (about a row of polygons for a mesh
    // numbered row by row), not a vector per polygon: a million-polygon
    // import peaked at twice the mesh's links with one.
    struct Pending
    {
        uint32_t poly;
        uint64_t order;
        NavLink link;
    };
    auto later = [](const Pending& x, const Pending& y)
    { return x.poly != y.poly ? x.poly > y.poly : x.order > y.order; };
    std::priority_queue<Pending, std::vector<Pending>, decltype(later)> pending(later);
    uint64_t found = 0;
    std::vector<NavLink> own, theirs;
    std::vector<uint32_t> seen(polys, kNoPolygon);
    mesh.m_links.clear();
    mesh.m_walls.clear();
    mesh.m_links.reserve(mesh.m_indices.size()); // about one link an edge
    mesh.m_linkStarts.assign(polys + 1, 0);
    mesh.m_wallStarts.assign(polys + 1, 0);
    for (uint32_t p = 0; p < polys; ++p)
    {
        own.clear();
        for (; !pending.empty() && pending.top().poly == p; pending.pop())
            own.push_back(pending.top().link);
        if (!mesh.disabled(p)) // a disabled polygon is in no grid cell, so no other polygon meets it either
            visitLinkCandidates(mesh, p,
                                [&](uint32_t q)
                                {
                                    if (q <= p || seen[q] == p)
                                        return;
                                    seen[q] = p;
                                    theirs.clear();
                                    linkPair(mesh, p, q, &own, &theirs);
                                    for (const NavLink& l : theirs)
                                        pending.push(Pending{q, found++, l});
                                });
        sortLinks(own);
        mesh.m_links.insert(mesh.m_links.end(), own.begin(), own.end());
        mesh.m_linkStarts[p + 1] = static_cast<uint32_t>(mesh.m_links.size());
        appendWalls(mesh, p, own, mesh.m_walls);
        mesh.m_wallStarts[p + 1] = static_cast<uint32_t>(mesh.m_walls.size());
    }
    deriveQueryTables(mesh); // the components too
    deriveUnits(mesh);
}

void NavMeshAccess::labelComponents(NavMesh& mesh)
{
    const uint32_t polys = mesh.polygonCount();
    SmallestRootSets sets;
    sets.reset(polys);
    for (uint32_t p = 0; p < polys; ++p)
        for (const NavLink& l : mesh.links(p))
            sets.join(p, l.neighbour);
    mesh.m_component.resize(polys);
    for (uint32_t p = 0; p < polys; ++p)
        mesh.m_component[p] = sets.find(p);
}

void NavMeshAccess::deriveQueryTables(NavMesh& mesh)
{
    // The link ends first: their work tables (a hash table, a record per
    // point) are freed before the rings and link tables (about 40 % of the
    // mesh) exist, so the build's peak is the finished mesh.
    numberLinkEnds(mesh);
    deriveRings(mesh);
    mesh.m_linkBackEdge.resize(mesh.m_links.size());
    mesh.m_linkDeadEnd.resize(mesh.m_links.size());
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        for (uint32_t li = mesh.m_linkStarts[p]; li < mesh.m_linkStarts[p + 1]; ++li)
        {
            const std::array<uint32_t, 2> turn = linkTurnOf(mesh, p, mesh.m_links[li]);
            mesh.m_linkBackEdge[li] = turn[0];
            mesh.m_linkDeadEnd[li] = turn[1];
        }
    deriveGraphTables(mesh);
}

void NavMeshAccess::deriveGraphTables(NavMesh& mesh)
{
    const uint32_t polys = mesh.polygonCount();
    mesh.m_linkBehind.assign(mesh.m_links.size(), NavMesh::LinkBehind{0, 0});
    // The links between p and q, counted from p's side (at most 2).
    auto linksTo = [&](uint32_t p, uint32_t q, uint32_t& only)
    {
        uint32_t count = 0;
        for (uint32_t li = mesh.m_linkStarts[p]; li < mesh.m_linkStarts[p + 1]; ++li)
            if (mesh.m_links[li].neighbour == q)
            {
                only = li;
                ++count;
            }
        return count;
    };
    // Tarjan's bridges assume every connection is seen from both sides: a
    // link without one back could make a cross edge look like a bridge (and
    // the search would not find every polygon of a piece from its root).
    auto linksBack = [&](uint32_t q, uint32_t p)
    {
        for (uint32_t li = mesh.m_linkStarts[q]; li < mesh.m_linkStarts[q + 1]; ++li)
            if (mesh.m_links[li].neighbour == p)
                return true;
        return false;
    };
    for (uint32_t p = 0; p < polys; ++p)
        for (const NavLink& l : mesh.links(p))
            if (l.neighbour == p || !linksBack(l.neighbour, p))
            {
                mesh.m_bridgeOrder.assign(polys, 0);
                labelComponents(mesh);
                return;
            }
    std::vector<uint32_t>& component = mesh.m_component;
    component.resize(polys);
    std::vector<uint32_t> low(polys), order(polys, kNoPolygon);
    struct Frame
    {
        uint32_t poly, next, parent;
        bool skipped; // the link back to the parent passed over (once)
    };
    std::vector<Frame> stack;
    uint32_t counter = 0;
    for (uint32_t root = 0; root < polys; ++root)
    {
        if (order[root] != kNoPolygon)
            continue;
        order[root] = low[root] = counter++;
        component[root] = root;
        stack.push_back(Frame{root, mesh.m_linkStarts[root], kNoPolygon, false});
        while (!stack.empty())
        {
            Frame& f = stack.back();
            if (f.next < mesh.m_linkStarts[f.poly + 1])
            {
                const uint32_t q = mesh.m_links[f.next++].neighbour;
                if (q == f.parent && !f.skipped)
                    f.skipped = true;
                else if (order[q] != kNoPolygon)
                    low[f.poly] = std::min(low[f.poly], order[q]);
                else
                {
                    order[q] = low[q] = counter++;
                    component[q] = root;
                    stack.push_back(Frame{q, mesh.m_linkStarts[q], f.poly, false});
                }
                continue;
            }
            const uint32_t p = f.poly, parent = f.parent;
            stack.pop_back();
            if (parent == kNoPolygon)
                continue;
            low[parent] = std::min(low[parent], low[p]);
            uint32_t down = 0, up = 0;
            if (low[p] > order[parent] && linksTo(parent, p, down) == 1 && linksTo(p, parent, up) == 1)
            {
                mesh.m_linkBehind[down] = NavMesh::LinkBehind{order[p], counter}; // p's subtree
                mesh.m_linkBehind[up] = NavMesh::LinkBehind{counter, order[p]};   // all but it
            }
        }
    }
    mesh.m_bridgeOrder = std::move(order);
}

void NavMeshAccess::deriveRings(NavMesh& mesh)
{
    mesh.m_ringXZ.resize(2 * mesh.m_indices.size());
    mesh.m_ringY.resize(2 * mesh.m_indices.size());
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        const uint32_t start = mesh.m_polyStarts[p], n = mesh.m_polyStarts[p + 1] - start;
        for (uint32_t i = 0; i < n; ++i)
        {
            const glm::vec3& v = mesh.m_vertices[mesh.m_indices[start + i]];
            const size_t at = 2 * size_t(start) + i;
            mesh.m_ringXZ[at] = mesh.m_ringXZ[at + n] = glm::dvec2(v.x, v.z);
            mesh.m_ringY[at] = mesh.m_ringY[at + n] = v.y;
        }
    }
}

std::array<uint32_t, 2> NavMeshAccess::linkTurnOf(const NavMesh& mesh, uint32_t p, const NavLink& link)
{
    const uint32_t q = link.neighbour;
    const std::span<const NavLink> back = mesh.links(q);
    uint32_t only = kNoPolygon;
    bool several = false;
    for (const NavLink& l : back)
        if (l.neighbour == p)
        {
            if (only == kNoPolygon)
                only = l.edge;
            else if (l.edge != only)
                several = true;
        }
    const uint32_t backEdge = several ? kNoPolygon : (only == kNoPolygon ? 0 : only);
    uint32_t dead = kNoPolygon;
    if (back.size() <= 1)
        dead = q;
    else if (back.size() == 2)
    {
        const uint32_t a = back[0].neighbour, b = back[1].neighbour;
        const uint32_t on = a == p ? b : (b == p ? a : kNoPolygon);
        if (on != kNoPolygon && on != p && mesh.links(on).size() <= 1)
            dead = on;
    }
    return {backEdge, dead};
}

namespace
{

/// A link end's position as its exact bits (the key of its point id).
std::array<uint32_t, 3> linkEndKey(const glm::vec3& v)
{
    return {spark::bitCast<uint32_t>(v.x), spark::bitCast<uint32_t>(v.y), spark::bitCast<uint32_t>(v.z)};
}

/// True when two keys are the same bits (compared as three words: std::array's == calls memcmp).
bool sameKey(const std::array<uint32_t, 3>& x, const std::array<uint32_t, 3>& y)
{
    return x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
}

/// The first slot to probe for `key` in a table of mask + 1 slots.
size_t endPointSlotOf(const std::array<uint32_t, 3>& key, size_t mask)
{
    uint64_t h = (uint64_t(key[0]) << 32 | key[1]) * 0x9e3779b97f4a7c15ull;
    h ^= (h >> 29) ^ uint64_t(key[2]) * 0xc2b2ae3d27d4eb4full;
    return static_cast<size_t>(h ^ (h >> 32)) & mask;
}

} // namespace

void NavMeshAccess::numberLinkEnds(NavMesh& mesh)
{
    // Open addressing over the ends' exact bits (power-of-two size, at most
    // half full), numbered as the links first name them; the table is dropped
    // afterwards: a lookup by position goes through the grid (linkEndPointOf).
    // Sized for about as many points as vertices and doubled when half full
    // (sized for every end, a million-quad mesh's table took 256 MB).
    struct Slot
    {
        std::array<uint32_t, 3> key;
        uint32_t id; // kNoPolygon: empty
    };
    const size_t ends = 2 * mesh.m_links.size();
    size_t size = 16;
    while (size < 2 * std::min(ends, mesh.m_vertices.size()))
        size *= 2;
    std::vector<Slot> table(size, Slot{{0, 0, 0}, kNoPolygon});
    auto slotOf = [&](const std::array<uint32_t, 3>& key)
    {
        size_t slot = endPointSlotOf(key, size - 1);
        while (table[slot].id != kNoPolygon && !sameKey(table[slot].key, key))
            slot = (slot + 1) & (size - 1);
        return slot;
    };
    mesh.m_endPointCount = 0;
    mesh.m_linkEndPoint.resize(ends);
    // Most ends are corners of their polygon: an end with the bits of its
    // edge's vertex takes the id found for that vertex, so the table is probed
    // about once a vertex rather than once an end (a million quads: a million
    // probes, not eight, and a fifth of the import's time less).
    std::vector<uint32_t> vertexPoint(mesh.m_vertices.size(), kNoPolygon);
    uint32_t p = 0;
    for (size_t e = 0; e < ends; ++e)
    {
        while (mesh.m_linkStarts[p + 1] <= e / 2)
            ++p;
        const NavLink& l = mesh.m_links[e / 2];
        const std::array<uint32_t, 3> key = linkEndKey(e % 2 == 0 ? l.a : l.b);
        const uint32_t corner = e % 2 == 0 ? l.edge : (l.edge + 1) % mesh.polygonVertexCount(p);
        const uint32_t vertex = mesh.m_indices[mesh.m_polyStarts[p] + corner];
        const bool atVertex = sameKey(key, linkEndKey(mesh.m_vertices[vertex]));
        if (atVertex && vertexPoint[vertex] != kNoPolygon)
        {
            mesh.m_linkEndPoint[e] = vertexPoint[vertex];
            continue;
        }
        size_t slot = slotOf(key);
        if (table[slot].id == kNoPolygon)
        {
            if (2 * (size_t(mesh.m_endPointCount) + 1) > size)
            {
                std::vector<Slot> old(2 * size, Slot{{0, 0, 0}, kNoPolygon});
                old.swap(table);
                size *= 2;
                for (const Slot& s : old)
                    if (s.id != kNoPolygon)
                        table[slotOf(s.key)] = s;
                slot = slotOf(key);
            }
            table[slot] = Slot{key, mesh.m_endPointCount++};
        }
        mesh.m_linkEndPoint[e] = table[slot].id;
        if (atVertex)
            vertexPoint[vertex] = table[slot].id;
    }
    std::vector<Slot>().swap(table); // not held beside deriveTurns' table
    std::vector<uint32_t>().swap(vertexPoint);
    deriveTurns(mesh);
}

namespace
{

/// What the link ends at one point tell about the free space round it
/// (deriveTurns), in 20 bytes: one per point is held beside the whole mesh
/// (a million quads: 20 MB; as positions, 44 MB and the import's peak).
struct TurnSeen
{
    uint8_t ins = 0, outs = 0, bad = 0, areas = 0;
    uint16_t area = 0;
    uint32_t at = 0;   ///< A link end at the point: 2 × link + end.
    uint32_t from = 0; ///< Vertex id of the wall into the point (when ins).
    uint32_t to = 0;   ///< Vertex id of the wall out of the point (when outs).
};

/// Adds end `end` (0: a, 1: b) of link `li` (a link id) of polygon
/// `p` to what is seen at its point. The result does not depend on the order
/// the ends are added in.
void seeLinkEnd(const NavMesh& mesh, uint32_t p, uint32_t li, uint32_t end, TurnSeen& s)
{
    const NavLink& l = mesh.link(li);
    const uint32_t id = mesh.linkEndPoint(li, end);
    const glm::vec3 at = end == 0 ? l.a : l.b;
    s.at = 2 * li + end;
    const uint16_t area = uint16_t(1u + mesh.area(p));
    if (s.area != 0 && s.area != area)
        s.areas = 1;
    s.area = area;
    // The neighbour's links back to p: one must end here too, at the same
    // x–z place on their shared portal (its height may differ: tiles baked
    // apart meet on a seam at heights of their own).
    bool back = false;
    const uint32_t q0 = mesh.firstLink(l.neighbour), qn = q0 + uint32_t(mesh.links(l.neighbour).size());
    auto here = [&](const glm::vec3& v) { return v.x == at.x && v.z == at.z; };
    for (uint32_t k = q0; k < qn && !back; ++k)
        back = mesh.link(k).neighbour == p && (mesh.linkEndPoint(k, 0) == id || mesh.linkEndPoint(k, 1) == id ||
                                               here(mesh.link(k).a) || here(mesh.link(k).b));
    if (!back)
        s.bad = 1;
    // Past this end along p's boundary: another link from (or to) this point, or a wall.
    const uint32_t first = mesh.firstLink(p), last = first + uint32_t(mesh.links(p).size());
    for (uint32_t k = first; k < last; ++k)
        if (k != li && mesh.linkEndPoint(k, end == 0 ? 1 : 0) == id)
            return;
    const std::span<const uint32_t> idx = mesh.polygonIndices(p);
    const uint32_t n = static_cast<uint32_t>(idx.size());
    if (end == 1)
    {
        // A wall out of the point, towards the next vertex of p past it.
        const uint32_t v = idx[(l.edge + 1) % n];
        s.to = mesh.vertex(v) == l.b ? idx[(l.edge + 2) % n] : v;
        ++s.outs;
    }
    else
    {
        const uint32_t v = idx[l.edge];
        s.from = mesh.vertex(v) == l.a ? idx[(l.edge + n - 1) % n] : v;
        ++s.ins;
    }
}

/// The linkEndTurn bits of a point from everything seen at it (0 for a point no end uses).
uint8_t turnOf(const NavMesh& mesh, const TurnSeen& s)
{
    bool proven = !s.bad && s.ins == s.outs && s.ins <= 1;
    if (proven && s.ins == 1)
    {
        const NavLink& l = mesh.link(s.at / 2);
        const glm::vec3 at = s.at % 2 == 0 ? l.a : l.b;
        const glm::vec3 from = mesh.vertex(s.from), to = mesh.vertex(s.to);
        const int turn = detail::orientExact(from.x, from.z, at.x, at.z, to.x, to.z);
        const double ahead = (double(at.x) - from.x) * (double(to.x) - at.x) +
                             (double(at.z) - from.z) * (double(to.z) - at.z);
        proven = turn > 0 || (turn == 0 && ahead > 0.0);
    }
    // (A proven point with walls is on a straight wall or a convex corner;
    // without, free space lies all round it and no path turns there.)
    const uint8_t shape = proven ? (s.ins == 1 ? NavMesh::kTurnWall : 0) : NavMesh::kTurnCorner;
    return uint8_t(shape | (s.areas ? NavMesh::kTurnAreas : 0));
}

} // namespace

void NavMeshAccess::deriveTurns(NavMesh& mesh)
{
    // Where a shortest path may turn (issue 34): only at a point where the
    // free space is not convex. A point is proven not to be such a corner
    // when, for every link end at it, its polygon's boundary goes on past it
    // into another link end at it or into a wall, and the neighbour's links
    // back hold an end at it too (so the polygons round it close up, or stop
    // at walls); and the walls met are none (free all round) or one in, one
    // out, turning left or running straight on (exact orientation of the
    // mesh's coordinates). Anything else (two obstacles touching, ends that
    // do not match bit for bit, a wall turning right) may be turned at.
    std::vector<TurnSeen> seen(mesh.m_endPointCount);
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
        for (uint32_t li = mesh.m_linkStarts[p]; li < mesh.m_linkStarts[p + 1]; ++li)
            for (uint32_t end = 0; end < 2; ++end)
                seeLinkEnd(mesh, p, li, end, seen[mesh.m_linkEndPoint[2 * size_t(li) + end]]);
    mesh.m_linkEndTurn.resize(seen.size());
    for (size_t id = 0; id < seen.size(); ++id)
        mesh.m_linkEndTurn[id] = turnOf(mesh, seen[id]);
}

namespace
{

/// The x–z box of the polygons that may hold a link end at `p`: a link end
/// lies on its polygon's edge, computed in floats, so its polygon's bounds
/// hold it within a few roundings. A point's grid cell also lists polygons
/// far from it (most of a cell's where carving left many small pieces):
/// their links need no look.
struct NearBox
{
    float loX, hiX, loZ, hiZ;
    explicit NearBox(const glm::vec3& p)
    {
        const float margin = 1.0e-3f + 5.0e-7f * std::max(std::fabs(p.x), std::fabs(p.z));
        loX = p.x - margin;
        hiX = p.x + margin;
        loZ = p.z - margin;
        hiZ = p.z + margin;
    }
    bool meets(const Bounds3& b) const { return b.min.x <= hiX && b.max.x >= loX && b.min.z <= hiZ && b.max.z >= loZ; }
};

} // namespace

void NavMeshAccess::turnsAt(const NavMesh& mesh, std::span<const std::pair<uint32_t, glm::vec3>> points,
                            std::vector<uint8_t>& out)
{
    // Every end at a point lies on its polygon's edge, in its bounds: the
    // grid cell of the point lists all of them (as findLinkEndPoint). The
    // points of a change lie close together, so the polygons of their cells
    // are gathered once and each of their link ends is seen once.
    std::vector<uint32_t> polys;
    // (Points by cell: each cell's list is read once for all its points.)
    std::vector<std::pair<uint32_t, size_t>> byCell; // (cell, point)
    for (size_t i = 0; i < points.size() && !mesh.empty(); ++i)
    {
        const glm::vec3& at = points[i].second;
        const Bounds3& b = mesh.bounds();
        if (at.x < b.min.x || at.x > b.max.x || at.z < b.min.z || at.z > b.max.z)
            continue; // (outside the mesh: no polygon holds it; the grid would clamp it)
        byCell.emplace_back(mesh.cellOf(at.x, at.z), i);
    }
    std::sort(byCell.begin(), byCell.end());
    std::vector<uint32_t> cellPolys;
    for (size_t i = 0; i < byCell.size();)
    {
        const uint32_t cell = byCell[i].first;
        cellPolys.clear();
        mesh.visitCell(cell, [&](uint32_t poly) { cellPolys.push_back(poly); });
        for (; i < byCell.size() && byCell[i].first == cell; ++i)
        {
            const NearBox near(points[byCell[i].second].second);
            for (uint32_t poly : cellPolys)
                if (near.meets(mesh.polygonBounds(poly)))
                    polys.push_back(poly);
        }
    }
    std::sort(polys.begin(), polys.end());
    polys.erase(std::unique(polys.begin(), polys.end()), polys.end());
    std::vector<TurnSeen> seen(points.size());
    for (uint32_t poly : polys)
    {
        const uint32_t first = mesh.firstLink(poly);
        const uint32_t last = first + static_cast<uint32_t>(mesh.links(poly).size());
        for (uint32_t li = first; li < last; ++li)
            for (uint32_t end = 0; end < 2; ++end)
            {
                const uint32_t id = mesh.linkEndPoint(li, end);
                const auto it = std::lower_bound(points.begin(), points.end(), id,
                                                 [](const auto& p, uint32_t v) { return p.first < v; });
                if (it != points.end() && it->first == id)
                    seeLinkEnd(mesh, poly, li, end, seen[static_cast<size_t>(it - points.begin())]);
            }
    }
    out.resize(points.size());
    for (size_t i = 0; i < points.size(); ++i)
        out[i] = turnOf(mesh, seen[i]);
}

uint32_t NavMeshAccess::findLinkEndPoint(const NavMesh& mesh, const glm::vec3& p)
{
    // A link end lies on its polygon's edge, so inside the polygon's bounds:
    // the grid cell of the point lists every polygon with an end there.
    const std::array<uint32_t, 3> key = linkEndKey(p);
    uint32_t found = kNoPolygon;
    const NearBox near(p);
    mesh.visitPolygonsInBoxXZ(p.x, p.z, p.x, p.z,
                              [&](uint32_t poly)
                              {
                                  if (found != kNoPolygon || !near.meets(mesh.polygonBounds(poly)))
                                      return;
                                  const uint32_t first = mesh.firstLink(poly);
                                  const uint32_t last = first + static_cast<uint32_t>(mesh.links(poly).size());
                                  for (uint32_t li = first; found == kNoPolygon && li < last; ++li)
                                      for (uint32_t k = 0; k < 2 && found == kNoPolygon; ++k)
                                      {
                                          const uint32_t id = mesh.linkEndPoint(li, k);
                                          const NavLink& l = mesh.link(li);
                                          if (id != kNoPolygon && linkEndKey(k == 0 ? l.a : l.b) == key)
                                              found = id;
                                      }
                              });
    return found;
}

uint32_t NavMesh::linkEndPointOf(const glm::vec3& p) const
{
    const uint32_t id = NavMeshAccess::findLinkEndPoint(*this, p);
    return id == kNoPolygon ? linkEndPointCount() : id;
}

void NavMeshAccess::linkPair(const NavMesh& mesh, uint32_t p, uint32_t q, std::vector<NavLink>* outP,
                             std::vector<NavLink>* outQ)
{
    // Always measured from the lower id, so a pair gives the same links however it is reached.
    if (q < p)
    {
        std::swap(p, q);
        std::swap(outP, outQ);
    }
    const double tol = mesh.m_linkTolerance;
    const double step = mesh.m_settings.stepHeight;
    const uint32_t np = mesh.polygonVertexCount(p);
    const uint32_t nq = mesh.polygonVertexCount(q);
    // The edge boxes below are tested against each other edge by edge. An edge
    // of q outside p's box (grown the same way) fails that test against every
    // edge of p, and a grown edge box of p outside q's box against every edge
    // of q (each edge lies in its polygon's box, and the rounding of the grown
    // bounds is monotone): so only the edges of q that meet p's box are kept,
    // in order, and edges of p that meet no kept edge are skipped. The links
    // found, and their order, are those of the full edge-by-edge test.
    const Bounds3& bp = mesh.polygonBounds(p);
    const Bounds3& bq = mesh.polygonBounds(q);
    std::array<uint32_t, kMaxPolyVerts> kept;
    uint32_t keptCount = 0;
    {
        const double loX = double(bp.min.x) - 2.0 * tol, hiX = double(bp.max.x) + 2.0 * tol;
        const double loZ = double(bp.min.z) - 2.0 * tol, hiZ = double(bp.max.z) + 2.0 * tol;
        glm::vec3 a2 = mesh.polygonVertex(q, 0);
        for (uint32_t j = 0; j < nq; ++j)
        {
            const glm::vec3 b2 = mesh.polygonVertex(q, j + 1 == nq ? 0 : j + 1);
            if (!(std::max(a2.x, b2.x) < loX || std::min(a2.x, b2.x) > hiX || std::max(a2.z, b2.z) < loZ ||
                  std::min(a2.z, b2.z) > hiZ))
                kept[keptCount++] = j;
            a2 = b2;
        }
    }
    if (keptCount == 0)
        return;
    for (uint32_t i = 0; i < np; ++i)
    {
        const glm::vec3 a1 = mesh.polygonVertex(p, i);
        const glm::vec3 b1 = mesh.polygonVertex(p, (i + 1) % np);
        // Edges that link overlap within the tolerance: boxes first (cheap, and
        // it never rejects a pair the tests below would accept).
        const double loX = std::min(a1.x, b1.x) - 2.0 * tol, hiX = std::max(a1.x, b1.x) + 2.0 * tol;
        const double loZ = std::min(a1.z, b1.z) - 2.0 * tol, hiZ = std::max(a1.z, b1.z) + 2.0 * tol;
        if (loX > bq.max.x || hiX < bq.min.x || loZ > bq.max.z || hiZ < bq.min.z)
            continue;
        const double d1x = double(b1.x) - a1.x, d1z = double(b1.z) - a1.z;
        const double l1 = std::sqrt(d1x * d1x + d1z * d1z);
        for (uint32_t k = 0; k < keptCount; ++k)
        {
            const uint32_t j = kept[k];
            const glm::vec3 a2 = mesh.polygonVertex(q, j);
            const glm::vec3 b2 = mesh.polygonVertex(q, (j + 1) % nq);
            if (std::max(a2.x, b2.x) < loX || std::min(a2.x, b2.x) > hiX || std::max(a2.z, b2.z) < loZ ||
                std::min(a2.z, b2.z) > hiZ)
                continue;
            const double d2x = double(b2.x) - a2.x, d2z = double(b2.z) - a2.z;
            if (d1x * d2x + d1z * d2z >= 0.0)
                continue; // links need opposite directions
            const double ea = crossXZ(d1x, d1z, double(a2.x) - a1.x, double(a2.z) - a1.z) / l1;
            const double eb = crossXZ(d1x, d1z, double(b2.x) - a1.x, double(b2.z) - a1.z) / l1;
            if (std::fabs(ea) > tol || std::fabs(eb) > tol)
                continue;
            // A vertex of q at an end of p's edge is at exactly 0 or 1 (the
            // quotient by l1 × l1 can miss by an ulp and put the link's end a
            // rounding's width off the vertex, where the path search would turn).
            auto param = [&](const glm::vec3& v)
            {
                if (v.x == a1.x && v.z == a1.z)
                    return 0.0;
                if (v.x == b1.x && v.z == b1.z)
                    return 1.0;
                return ((double(v.x) - a1.x) * d1x + (double(v.z) - a1.z) * d1z) / (l1 * l1);
            };
            const double sa = param(a2), sb = param(b2);
            const double lo = std::max(0.0, std::min(sa, sb));
            const double hi = std::min(1.0, std::max(sa, sb));
            if ((hi - lo) * l1 <= tol)
                continue;
            const glm::vec3 pa = lerp3(a1, b1, lo);
            const glm::vec3 pb = lerp3(a1, b1, hi);
            const double ua = segmentParamXZ(a2, b2, pa.x, pa.z);
            const double ub = segmentParamXZ(a2, b2, pb.x, pb.z);
            const glm::vec3 qa = lerp3(a2, b2, ua);
            const glm::vec3 qb = lerp3(a2, b2, ub);
            if (std::fabs(double(qa.y) - pa.y) > step || std::fabs(double(qb.y) - pb.y) > step)
                continue;
            if (outP)
            {
                NavLink lp;
                lp.neighbour = q;
                lp.edge = i;
                lp.tMin = static_cast<float>(lo);
                lp.tMax = static_cast<float>(hi);
                lp.a = pa;
                lp.b = pb;
                outP->push_back(lp);
            }
            if (outQ)
            {
                // On q's edge the stretch runs the other way: pb comes first.
                NavLink lq;
                lq.neighbour = p;
                lq.edge = j;
                lq.tMin = static_cast<float>(std::min(ua, ub));
                lq.tMax = static_cast<float>(std::max(ua, ub));
                lq.a = ub <= ua ? qb : qa;
                lq.b = ub <= ua ? qa : qb;
                outQ->push_back(lq);
            }
        }
    }
}

void NavMeshAccess::sortLinks(std::vector<NavLink>& ls)
{
    std::sort(ls.begin(), ls.end(),
              [](const NavLink& x, const NavLink& y)
              {
                  if (x.edge != y.edge)
                      return x.edge < y.edge;
                  if (x.tMin != y.tMin)
                      return x.tMin < y.tMin;
                  if (x.tMax != y.tMax)
                      return x.tMax < y.tMax;
                  return x.neighbour < y.neighbour;
              });
}

void NavMeshAccess::appendWalls(const NavMesh& mesh, uint32_t p, std::span<const NavLink> ls, std::vector<NavWall>& out)
{
    // Walls: the stretches of each edge its links leave uncovered.
    const double tol = mesh.m_linkTolerance;
    const uint32_t n = mesh.disabled(p) ? 0 : mesh.polygonVertexCount(p);
    size_t k = 0;
    for (uint32_t e = 0; e < n; ++e)
    {
        const glm::vec3 a = mesh.polygonVertex(p, e);
        const glm::vec3 b = mesh.polygonVertex(p, (e + 1) % n);
        const double dx = double(b.x) - a.x, dz = double(b.z) - a.z;
        const double len = std::sqrt(dx * dx + dz * dz);
        const glm::vec3 normal(static_cast<float>(dz / len), 0.0f, static_cast<float>(-dx / len));
        double covered = 0.0;
        auto addWall = [&](double t0, double t1)
        {
            if ((t1 - t0) * len <= tol)
                return;
            NavWall w;
            w.polygon = p;
            w.edge = e;
            w.a = t0 <= 0.0 ? a : lerp3(a, b, t0);
            w.b = t1 >= 1.0 ? b : lerp3(a, b, t1);
            w.normal = normal;
            out.push_back(w);
        };
        while (k < ls.size() && ls[k].edge == e)
        {
            if (ls[k].tMin > covered)
                addWall(covered, ls[k].tMin);
            covered = std::max(covered, double(ls[k].tMax));
            ++k;
        }
        if (covered < 1.0)
            addWall(covered, 1.0);
    }
}

void NavMeshAccess::assembleGeometry(NavMesh& mesh)
{
    const uint32_t polys = mesh.polygonCount();
    mesh.m_polyAreas.resize(polys);
    mesh.m_areaPrefix.resize(polys);
    mesh.m_polyBounds.resize(polys);
    double extentSum = 0.0;
    for (uint32_t p = 0; p < polys; ++p)
    {
        // Indexed directly, the next vertex without a division.
        const uint32_t* idx = mesh.m_indices.data() + mesh.m_polyStarts[p];
        const uint32_t n = mesh.m_polyStarts[p + 1] - mesh.m_polyStarts[p];
        double area2 = 0.0;
        {
            Bounds3 b{mesh.m_vertices[idx[0]], mesh.m_vertices[idx[0]]};
            for (uint32_t i = 0; i < n; ++i)
            {
                const glm::vec3& a = mesh.m_vertices[idx[i]];
                const glm::vec3& c = mesh.m_vertices[idx[i + 1 == n ? 0 : i + 1]];
                b.min = glm::min(b.min, a);
                b.max = glm::max(b.max, a);
                area2 += crossXZ(a.x, a.z, c.x, c.z);
            }
            mesh.m_polyBounds[p] = b;
        }
        const Bounds3& b = mesh.m_polyBounds[p];
        if (mesh.disabled(p))
            area2 = 0.0; // no area: random points and area sums skip it
        mesh.m_polyAreas[p] = static_cast<float>(area2 * 0.5);
        mesh.m_areaPrefix[p] = (p == 0 ? 0.0 : mesh.m_areaPrefix[p - 1]) + area2 * 0.5;
        if (p == 0)
            mesh.m_bounds = b;
        mesh.m_bounds.min = glm::min(mesh.m_bounds.min, b.min);
        mesh.m_bounds.max = glm::max(mesh.m_bounds.max, b.max);
        extentSum += std::max(double(b.max.x) - b.min.x, double(b.max.z) - b.min.z);
    }

    // Spatial grid: cells about the mean polygon size, at most ~4 cells per polygon and 4096 per side.
    {
        const double w = std::max(1.0e-3, double(mesh.m_bounds.max.x) - mesh.m_bounds.min.x);
        const double d = std::max(1.0e-3, double(mesh.m_bounds.max.z) - mesh.m_bounds.min.z);
        double cell = std::max(extentSum / polys, 1.0e-3);
        const double maxCells = 4.0 * polys + 16.0;
        if ((w / cell) * (d / cell) > maxCells)
            cell = std::sqrt(w * d / maxCells);
        cell = std::max({cell, w / 4096.0, d / 4096.0});
        mesh.m_gridCell = static_cast<float>(cell);
        mesh.m_gridInvCell = static_cast<float>(1.0 / cell);
        mesh.m_gridOriginX = mesh.m_bounds.min.x;
        mesh.m_gridOriginZ = mesh.m_bounds.min.z;
        mesh.m_gridCols = std::clamp(static_cast<int>(std::floor(w / cell)) + 1, 1, 4097);
        mesh.m_gridRows = std::clamp(static_cast<int>(std::floor(d / cell)) + 1, 1, 4097);
        const size_t cells = static_cast<size_t>(mesh.m_gridCols) * static_cast<size_t>(mesh.m_gridRows);
        // Each polygon's cell range, found once for the count and the fill (x0, x1, z0, z1; empty when disabled).
        std::vector<std::array<int, 4>> ranges(polys, std::array<int, 4>{0, -1, 0, -1});
        std::vector<uint32_t>& counts = mesh.m_cellStarts;
        counts.assign(cells + 1, 0);
        for (uint32_t p = 0; p < polys; ++p)
        {
            if (mesh.disabled(p))
                continue;
            const Bounds3& b = mesh.m_polyBounds[p];
            std::array<int, 4>& r = ranges[p];
            r = {mesh.cellCoord(b.min.x, mesh.m_gridOriginX, mesh.m_gridCols),
                 mesh.cellCoord(b.max.x, mesh.m_gridOriginX, mesh.m_gridCols),
                 mesh.cellCoord(b.min.z, mesh.m_gridOriginZ, mesh.m_gridRows),
                 mesh.cellCoord(b.max.z, mesh.m_gridOriginZ, mesh.m_gridRows)};
            for (int z = r[2]; z <= r[3]; ++z)
                for (int x = r[0]; x <= r[1]; ++x)
                    ++counts[static_cast<size_t>(z) * static_cast<size_t>(mesh.m_gridCols) + static_cast<size_t>(x) + 1];
        }
        for (size_t c = 0; c < cells; ++c)
            counts[c + 1] += counts[c];
        mesh.m_cellItems.resize(counts[cells]);
        std::vector<uint32_t> fill(counts.begin(), counts.end() - 1);
        for (uint32_t p = 0; p < polys; ++p)
        {
            const std::array<int, 4>& r = ranges[p];
            for (int z = r[2]; z <= r[3]; ++z)
                for (int x = r[0]; x <= r[1]; ++x)
                    mesh.m_cellItems[fill[static_cast<size_t>(z) * static_cast<size_t>(mesh.m_gridCols) +
                                          static_cast<size_t>(x)]++] = p;
        }
    }
}

NavMesh NavMeshAccess::fromParts(const NavMesh& base, std::vector<glm::vec3> vertices,
                                 std::vector<uint32_t> indices, std::vector<uint32_t> polyStarts,
                                 std::vector<uint8_t> areas, std::vector<uint8_t> disabled)
{
    NavMesh mesh;
    setParts(mesh, base, std::move(vertices), std::move(indices), std::move(polyStarts), std::move(areas),
             std::move(disabled));
    assemble(mesh);
    return mesh;
}

NavMesh NavMeshAccess::reassembled(const NavMesh& mesh)
{
    std::vector<glm::vec3> vertices(mesh.vertexCount());
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v)
        vertices[v] = mesh.vertex(v);
    std::vector<uint32_t> indices, polyStarts{0};
    std::vector<uint8_t> areas, disabled;
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        const std::span<const uint32_t> idx = mesh.polygonIndices(p);
        indices.insert(indices.end(), idx.begin(), idx.end());
        polyStarts.push_back(static_cast<uint32_t>(indices.size()));
        areas.push_back(mesh.area(p));
        if (mesh.disabledCount() != 0)
            disabled.push_back(mesh.disabled(p) ? 1 : 0);
    }
    NavMesh out;
    setParts(out, mesh, std::move(vertices), std::move(indices), std::move(polyStarts), std::move(areas),
             std::move(disabled));
    out.m_tileSize = mesh.m_tileSize;
    out.m_tiles.assign(mesh.tiles().begin(), mesh.tiles().end());
    assemble(out);
    return out;
}

void NavMeshAccess::setParts(NavMesh& mesh, const NavMesh& base, std::vector<glm::vec3> vertices,
                             std::vector<uint32_t> indices, std::vector<uint32_t> polyStarts,
                             std::vector<uint8_t> areas, std::vector<uint8_t> disabled)
{
    mesh.m_is2d = base.m_is2d;
    mesh.m_settings = base.m_settings;
    mesh.m_linkTolerance = base.m_linkTolerance;
    mesh.m_maxPolyVerts = base.m_maxPolyVerts;
    mesh.m_vertices = std::move(vertices);
    mesh.m_indices = std::move(indices);
    mesh.m_polyStarts = std::move(polyStarts);
    mesh.m_areas = std::move(areas);
    assert(disabled.empty() || disabled.size() == mesh.m_areas.size());
    mesh.m_disabledCount = static_cast<uint32_t>(
        std::count_if(disabled.begin(), disabled.end(), [](uint8_t d) { return d != 0; }));
    if (mesh.m_disabledCount != 0)
        mesh.m_disabled = std::move(disabled);
}

Result<NavMesh> buildNavMesh(PolySoup soup, const NavMeshDef& def)
{
    return NavMeshAccess::build(std::move(soup), def, 0, {});
}

Result<NavMesh> NavMeshAccess::build(PolySoup soup, const NavMeshDef& def, uint32_t tileSize, std::vector<NavTile> tiles)
{
    SPARK_TRY(validateDef(def));
    SPARK_TRY(validateSoup(soup, def));
    if (def.refuseOverlaps)
        SPARK_TRY(checkPolygonOverlaps(soup, def));

    NavMesh mesh;
    mesh.m_is2d = def.is2d;
    mesh.m_settings = def.settings;
    mesh.m_linkTolerance = def.linkTolerance;
    mesh.m_maxPolyVerts = def.maxPolyVerts;
    for (glm::vec3& v : soup.vertices)
        v = glm::vec3(foldZero(v.x), foldZero(v.y), foldZero(v.z));
    mesh.m_vertices = std::move(soup.vertices);
    mesh.m_indices = std::move(soup.indices);
    mesh.m_polyStarts = std::move(soup.polyStarts);
    mesh.m_areas = std::move(soup.areas);
    mesh.m_tileSize = tileSize;
    mesh.m_tiles = std::move(tiles); // before assembling: the units follow the tiles
    NavMeshAccess::assemble(mesh);
    return mesh;
}

Result<NavMesh> buildTiledNavMesh(PolySoup soup, const NavMeshDef& def, uint32_t tileSize,
                                  std::vector<NavTile> tiles)
{
    if (tileSize == 0 || tileSize > 65536)
        return makeError("E_NAV_FORMAT", "the tile size must be 1..65536 cells", "/tile_size");
    if (tiles.empty())
        return makeError("E_NAV_FORMAT", "a tiled mesh needs at least one tile", "/tiles");
    if (tiles.size() > kMaxTiles)
        return makeError("E_NAV_LIMIT", "more than " + std::to_string(kMaxTiles) + " tiles", "/tiles");
    uint32_t polygons = 0, vertices = 0;
    for (size_t i = 0; i < tiles.size(); ++i)
    {
        const NavTile& t = tiles[i];
        const std::string at = "/tiles/" + std::to_string(i);
        if (i > 0 && std::pair(tiles[i - 1].z, tiles[i - 1].x) >= std::pair(t.z, t.x))
            return makeError("E_NAV_FORMAT", "tiles must be in increasing (z, x) order, each once", at);
        if (t.firstPolygon != polygons || t.firstVertex != vertices)
            return makeError("E_NAV_FORMAT", "a tile's polygons and vertices must follow the previous tile's", at);
        if (t.polygonCount == 0 || t.polygonCount > kMaxTilePolygons)
            return makeError("E_NAV_LIMIT", "a tile holds 1..1048575 polygons", at + "/polygon_count");
        if (t.polygonCount > soup.polygonCount() - polygons || t.vertexCount > soup.vertices.size() - vertices)
            return makeError("E_NAV_FORMAT", "the tile's ranges run past the mesh", at);
        for (uint32_t p = t.firstPolygon; p < t.firstPolygon + t.polygonCount; ++p)
            for (uint32_t k = soup.polyStarts[p]; k < soup.polyStarts[p + 1]; ++k)
                if (soup.indices[k] < t.firstVertex || soup.indices[k] - t.firstVertex >= t.vertexCount)
                    return makeError("E_NAV_FORMAT", "a polygon uses a vertex of another tile",
                                     "/polygons/" + std::to_string(p));
        polygons += t.polygonCount;
        vertices += t.vertexCount;
    }
    if (polygons != soup.polygonCount() || vertices != soup.vertices.size())
        return makeError("E_NAV_FORMAT", "the tiles do not cover every polygon and vertex", "/tiles");
    auto built = NavMeshAccess::build(std::move(soup), def, tileSize, std::move(tiles));
    if (!built.ok())
        return built.error();
    NavMesh mesh = std::move(built.value());
    for (uint32_t t = 0; t < mesh.m_tiles.size(); ++t)
        mesh.m_tiles[t].hash = hashNavTile(mesh, t);
    return mesh;
}

namespace
{

/// The def a mesh was built with (settings, is2d, tolerance, vertex limit).
NavMeshDef navMeshDefOf(const NavMesh& mesh)
{
    NavMeshDef def;
    def.settings = mesh.settings();
    def.is2d = mesh.is2d();
    def.linkTolerance = mesh.linkTolerance();
    def.maxPolyVerts = mesh.maxPolyVerts();
    def.refuseOverlaps = false; // the mesh was checked when it was built
    return def;
}

/// A tile of one of several meshes, by its place in the world.
struct TileEntry
{
    int32_t z, x;
    size_t part;
    uint32_t tile;
};

/// True when two tiled meshes were baked with the same settings and tile size.
bool sameTiling(const NavMesh& m, const NavMesh& first)
{
    const NavMeshSettings& a = m.settings();
    const NavMeshSettings& b = first.settings();
    return m.tileSize() == first.tileSize() && m.is2d() == first.is2d() && m.linkTolerance() == first.linkTolerance() &&
           m.maxPolyVerts() == first.maxPolyVerts() && a.agentRadius == b.agentRadius &&
           a.agentHeight == b.agentHeight && a.stepHeight == b.stepHeight && a.cellSize == b.cellSize &&
           a.cellHeight == b.cellHeight && a.maxSlopeDeg == b.maxSlopeDeg;
}

/// Refuses a part that is not a tiled, uncarved mesh tiled as `first`.
Status checkTiledPart(const NavMesh& m, const NavMesh& first, const std::string& at)
{
    if (!m.tiled() || m.disabledCount() != 0 ||
        m.polygonCount() != m.tiles().back().firstPolygon + m.tiles().back().polygonCount)
        return makeError("E_NAV_FORMAT", "only tiled, uncarved meshes merge", at);
    if (!sameTiling(m, first))
        return makeError("E_NAV_FORMAT", "the mesh was baked with other settings or another tile size", at);
    return Status::success();
}

/// The tiles of `entries` (sorted in tile order; a tile twice only when both
/// copies hash the same) as one tiled mesh with `first`'s def, each tile's
/// polygons and vertices copied as they are.
Result<NavMesh> joinTiles(std::span<const NavMesh* const> parts, const std::vector<TileEntry>& entries,
                          const NavMesh& first)
{
    PolySoup soup;
    soup.polyStarts.push_back(0);
    std::vector<NavTile> tiles;
    for (size_t k = 0; k < entries.size(); ++k)
    {
        const TileEntry& e = entries[k];
        const NavMesh& m = *parts[e.part];
        const NavTile& t = m.tiles()[e.tile];
        if (k > 0 && entries[k - 1].z == e.z && entries[k - 1].x == e.x)
        {
            const TileEntry& p = entries[k - 1];
            if (parts[p.part]->tiles()[p.tile].hash != t.hash)
                return makeError("E_NAV_FORMAT",
                                 "tile (" + std::to_string(e.x) + ", " + std::to_string(e.z) +
                                     ") differs between two meshes",
                                 "/parts/" + std::to_string(e.part));
            continue; // the same tile twice
        }
        NavTile out = t;
        out.firstPolygon = static_cast<uint32_t>(soup.polygonCount());
        out.firstVertex = static_cast<uint32_t>(soup.vertices.size());
        if (size_t(out.firstPolygon) + t.polygonCount > kMaxPolygons ||
            size_t(out.firstVertex) + t.vertexCount > kMaxVertices)
            return makeError("E_NAV_LIMIT", "the merged mesh has too many polygons or vertices", "/parts");
        for (uint32_t v = t.firstVertex; v < t.firstVertex + t.vertexCount; ++v)
            soup.vertices.push_back(m.vertex(v));
        for (uint32_t p = t.firstPolygon; p < t.firstPolygon + t.polygonCount; ++p)
        {
            for (uint32_t v : m.polygonIndices(p))
                soup.indices.push_back(v - t.firstVertex + out.firstVertex);
            soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
            soup.areas.push_back(m.area(p));
        }
        tiles.push_back(out);
    }
    if (tiles.empty())
        return makeError("E_NAV_NO_GEOMETRY", "no tile is left with polygons", "/tiles");
    return buildTiledNavMesh(std::move(soup), navMeshDefOf(first), first.tileSize(), std::move(tiles));
}

void sortTileEntries(std::vector<TileEntry>& entries)
{
    std::sort(entries.begin(), entries.end(), [](const TileEntry& l, const TileEntry& r) {
        return std::tie(l.z, l.x, l.part, l.tile) < std::tie(r.z, r.x, r.part, r.tile);
    });
}

} // namespace

Result<NavMesh> mergeTiledNavMeshes(std::span<const NavMesh* const> parts)
{
    if (parts.empty())
        return makeError("E_NAV_FORMAT", "there are no meshes to merge", "/parts");
    std::vector<TileEntry> entries;
    for (size_t i = 0; i < parts.size(); ++i)
    {
        const NavMesh& m = *parts[i];
        SPARK_TRY(checkTiledPart(m, *parts[0], "/parts/" + std::to_string(i)));
        for (uint32_t t = 0; t < m.tiles().size(); ++t)
            entries.push_back({m.tiles()[t].z, m.tiles()[t].x, i, t});
    }
    sortTileEntries(entries);
    return joinTiles(parts, entries, *parts[0]);
}

Result<NavMesh> removeNavMeshTiles(const NavMesh& mesh, std::span<const std::array<int32_t, 2>> gone)
{
    SPARK_TRY(checkTiledPart(mesh, mesh, "/mesh"));
    std::vector<uint8_t> drop(mesh.tiles().size(), 0);
    for (size_t i = 0; i < gone.size(); ++i)
    {
        auto it = std::find_if(mesh.tiles().begin(), mesh.tiles().end(),
                               [&](const NavTile& t) { return t.x == gone[i][0] && t.z == gone[i][1]; });
        if (it == mesh.tiles().end())
            return makeError("E_INVALID_PARAMS",
                             "tile (" + std::to_string(gone[i][0]) + ", " + std::to_string(gone[i][1]) +
                                 ") is not in the mesh",
                             "/tiles/" + std::to_string(i), "nav.info lists the mesh's tiles");
        drop[static_cast<size_t>(it - mesh.tiles().begin())] = 1;
    }
    std::vector<TileEntry> entries;
    for (uint32_t t = 0; t < mesh.tiles().size(); ++t)
        if (!drop[t])
            entries.push_back({mesh.tiles()[t].z, mesh.tiles()[t].x, 0, t});
    const NavMesh* parts[] = {&mesh};
    return joinTiles(parts, entries, mesh);
}

Result<NavMesh> replaceNavMeshTiles(const NavMesh& mesh, const NavTileBox& box, const NavMesh* fresh)
{
    const NavMesh* parts[] = {&mesh, fresh};
    SPARK_TRY(checkTiledPart(mesh, mesh, "/mesh"));
    if (fresh)
        SPARK_TRY(checkTiledPart(*fresh, mesh, "/tiles"));
    auto inBox = [&](const NavTile& t) { return t.x >= box.x0 && t.x <= box.x1 && t.z >= box.z0 && t.z <= box.z1; };
    std::vector<TileEntry> entries;
    for (uint32_t t = 0; t < mesh.tiles().size(); ++t)
        if (!inBox(mesh.tiles()[t]))
            entries.push_back({mesh.tiles()[t].z, mesh.tiles()[t].x, 0, t});
    if (fresh)
        for (uint32_t t = 0; t < fresh->tiles().size(); ++t)
        {
            if (!inBox(fresh->tiles()[t]))
                return makeError("E_NAV_FORMAT", "a new tile lies outside the tiles replaced", "/tiles");
            entries.push_back({fresh->tiles()[t].z, fresh->tiles()[t].x, 1, t});
        }
    sortTileEntries(entries);
    return joinTiles(std::span<const NavMesh* const>(parts, fresh ? 2 : 1), entries, mesh);
}

uint32_t NavMesh::tileOfPolygon(uint32_t poly) const
{
    const std::span<const NavTile> ts = tiles();
    if (ts.empty())
        return kNoPolygon;
    // The last tile whose first polygon is at most `poly`.
    auto it = std::upper_bound(ts.begin(), ts.end(), poly, [](uint32_t p, const NavTile& t) { return p < t.firstPolygon; });
    if (it == ts.begin())
        return kNoPolygon;
    const NavTile& t = *(it - 1);
    return poly - t.firstPolygon < t.polygonCount ? static_cast<uint32_t>(it - 1 - ts.begin()) : kNoPolygon;
}

} // namespace spark::nav
