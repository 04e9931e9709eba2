/// \file serialize.cpp
/// Canonical little-endian serialisation of a NavMesh and its XXH3-64 hash.
///
/// Layout (format version 1), every integer and float little-endian:
///   "SPNM" u32 version u8 is2d
///   f32 agentRadius agentHeight stepHeight cellSize cellHeight maxSlopeDeg linkTolerance  u32 maxPolyVerts
///   u32 vertexCount { f32 x y z }
///   u32 polygonCount { u32 n { u32 index } u8 area }
///   tiled meshes only: "TILE" u32 tileSize u32 tileCount
///     { i32 x z  u32 firstPolygon polygonCount firstVertex vertexCount }
///   carved meshes only: "DSBL" u32 count { u32 polygon }
/// Links, walls and the grid are derived data and are rebuilt on reading. Since
/// `buildNavMesh` folds -0 into +0, equal meshes give equal bytes.

#include "spark/core/hash.h"
#include "spark/core/bits.h"
#include "spark/nav/navmesh.h"

#include <cassert>
#include <cstring>
#include <utility>

namespace spark::nav
{

namespace
{

constexpr uint32_t kFormatVersion = 1;

/// The canonical bytes fed to a hash through a buffer, instead of a byte
/// vector as large as the mesh's polygons (33 MB for a million quads) held
/// beside the mesh. XXH3 streamed gives the hash of the whole bytes.
class HashSink
{
public:
    void push_back(uint8_t b)
    {
        if (m_size == sizeof(m_buffer))
            flush();
        m_buffer[m_size++] = b;
    }
    uint64_t digest()
    {
        flush();
        return m_hasher.digest();
    }

private:
    void flush()
    {
        m_hasher.addBytes(m_buffer, m_size);
        m_size = 0;
    }
    spark::Hasher m_hasher;
    uint8_t m_buffer[16384];
    size_t m_size = 0;
};

template <class Out> void putU32(Out& out, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

template <class Out> void putF32(Out& out, float v)
{
    putU32(out, spark::bitCast<uint32_t>(v == 0.0f ? 0.0f : v));
}

/// Bounds-checked little-endian reader.
struct Reader
{
    std::span<const uint8_t> bytes;
    size_t pos = 0;
    bool failed = false;

    size_t remaining() const { return bytes.size() - pos; }
    uint8_t u8()
    {
        if (remaining() < 1)
        {
            failed = true;
            return 0;
        }
        return bytes[pos++];
    }
    uint32_t u32()
    {
        if (remaining() < 4)
        {
            failed = true;
            pos = bytes.size();
            return 0;
        }
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i)
            v |= static_cast<uint32_t>(bytes[pos + i]) << (8 * i);
        pos += 4;
        return v;
    }
    float f32() { return spark::bitCast<float>(u32()); }
};

Error truncated()
{
    return makeError("E_NAV_FORMAT", "the serialised navmesh is truncated or corrupt");
}

template <class Out> void putTag(Out& out, const char (&tag)[5])
{
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<uint8_t>(tag[i]));
}

/// The def of the mesh, as every serialisation starts after its magic and version.
template <class Out> void putDef(Out& out, const NavMesh& mesh)
{
    out.push_back(mesh.is2d() ? 1 : 0);
    const NavMeshSettings& s = mesh.settings();
    putF32(out, s.agentRadius);
    putF32(out, s.agentHeight);
    putF32(out, s.stepHeight);
    putF32(out, s.cellSize);
    putF32(out, s.cellHeight);
    putF32(out, s.maxSlopeDeg);
    putF32(out, mesh.linkTolerance());
    putU32(out, mesh.maxPolyVerts());
}

/// The bytes of serializeNavMesh, into `out`.
template <class Out> void writeNavMesh(Out& out, const NavMesh& mesh)
{
    putTag(out, "SPNM");
    putU32(out, kFormatVersion);
    putDef(out, mesh);
    putU32(out, mesh.vertexCount());
    for (uint32_t i = 0; i < mesh.vertexCount(); ++i)
    {
        const glm::vec3& v = mesh.vertex(i);
        putF32(out, v.x);
        putF32(out, v.y);
        putF32(out, v.z);
    }
    putU32(out, mesh.polygonCount());
    for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
    {
        const auto idx = mesh.polygonIndices(p);
        putU32(out, static_cast<uint32_t>(idx.size()));
        for (uint32_t i : idx)
            putU32(out, i);
        out.push_back(mesh.area(p));
    }
    if (mesh.tiled())
    {
        putTag(out, "TILE");
        putU32(out, mesh.tileSize());
        putU32(out, static_cast<uint32_t>(mesh.tiles().size()));
        for (const NavTile& t : mesh.tiles())
        {
            putU32(out, static_cast<uint32_t>(t.x));
            putU32(out, static_cast<uint32_t>(t.z));
            putU32(out, t.firstPolygon);
            putU32(out, t.polygonCount);
            putU32(out, t.firstVertex);
            putU32(out, t.vertexCount);
        }
    }
    if (mesh.disabledCount() != 0)
    {
        putTag(out, "DSBL");
        putU32(out, mesh.disabledCount());
        for (uint32_t p = 0; p < mesh.polygonCount(); ++p)
            if (mesh.disabled(p))
                putU32(out, p);
    }
}

/// XXH3-64 of the bytes of serializeNavMesh.
uint64_t hashSerialized(const NavMesh& mesh)
{
    HashSink sink;
    writeNavMesh(sink, mesh);
    return sink.digest();
}

} // namespace

std::vector<uint8_t> serializeNavMesh(const NavMesh& mesh)
{
    std::vector<uint8_t> out;
    out.reserve(64 + mesh.vertexCount() * 12 + mesh.polygonCount() * 32 + mesh.tiles().size() * 24);
    writeNavMesh(out, mesh);
    return out;
}

Result<NavMesh> deserializeNavMesh(std::span<const uint8_t> bytes)
{
    Reader r{bytes};
    if (bytes.size() < 8 || std::memcmp(bytes.data(), "SPNM", 4) != 0)
        return makeError("E_NAV_FORMAT", "not a serialised navmesh (bad magic)");
    r.pos = 4;
    const uint32_t version = r.u32();
    if (version != kFormatVersion)
        return makeError("E_NAV_FORMAT", "unsupported serialised navmesh version " + std::to_string(version));
    NavMeshDef def;
    def.is2d = r.u8() != 0;
    def.settings.agentRadius = r.f32();
    def.settings.agentHeight = r.f32();
    def.settings.stepHeight = r.f32();
    def.settings.cellSize = r.f32();
    def.settings.cellHeight = r.f32();
    def.settings.maxSlopeDeg = r.f32();
    def.linkTolerance = r.f32();
    def.maxPolyVerts = r.u32();
    const uint32_t vertexCount = r.u32();
    if (r.failed || vertexCount > kMaxVertices || size_t(vertexCount) * 12 > r.remaining())
        return truncated();
    PolySoup soup;
    soup.vertices.resize(vertexCount);
    for (glm::vec3& v : soup.vertices)
    {
        v.x = r.f32();
        v.y = r.f32();
        v.z = r.f32();
    }
    const uint32_t polyCount = r.u32();
    // Each polygon takes at least 4 + 3 × 4 + 1 bytes.
    if (r.failed || polyCount > kMaxPolygons || size_t(polyCount) * 17 > r.remaining())
        return truncated();
    soup.polyStarts.reserve(polyCount + 1);
    soup.polyStarts.push_back(0);
    soup.areas.reserve(polyCount);
    for (uint32_t p = 0; p < polyCount; ++p)
    {
        const uint32_t n = r.u32();
        if (r.failed || n > kMaxPolyVerts || size_t(n) * 4 + 1 > r.remaining())
            return truncated();
        for (uint32_t i = 0; i < n; ++i)
            soup.indices.push_back(r.u32());
        soup.polyStarts.push_back(static_cast<uint32_t>(soup.indices.size()));
        soup.areas.push_back(r.u8());
    }
    if (r.failed)
        return truncated();
    if (r.remaining() == 0)
        return buildNavMesh(std::move(soup), def);
    if (r.remaining() < 12 || std::memcmp(bytes.data() + r.pos, "TILE", 4) != 0)
        return truncated();
    r.pos += 4;
    const uint32_t tileSize = r.u32();
    const uint32_t tileCount = r.u32();
    if (r.failed || tileCount > kMaxTiles || size_t(tileCount) * 24 != r.remaining())
        return truncated();
    std::vector<NavTile> tiles(tileCount);
    for (NavTile& t : tiles)
    {
        t.x = static_cast<int32_t>(r.u32());
        t.z = static_cast<int32_t>(r.u32());
        t.firstPolygon = r.u32();
        t.polygonCount = r.u32();
        t.firstVertex = r.u32();
        t.vertexCount = r.u32();
    }
    return buildTiledNavMesh(std::move(soup), def, tileSize, std::move(tiles));
}

uint64_t hashNavTile(const NavMesh& mesh, uint32_t tile)
{
    assert(tile < mesh.tiles().size());
    const NavTile& t = mesh.tiles()[tile];
    std::vector<uint8_t> out;
    out.reserve(64 + size_t(t.vertexCount) * 12 + size_t(t.polygonCount) * 32);
    putTag(out, "SPTL");
    putU32(out, kFormatVersion);
    putDef(out, mesh);
    putU32(out, mesh.tileSize());
    putU32(out, static_cast<uint32_t>(t.x));
    putU32(out, static_cast<uint32_t>(t.z));
    putU32(out, t.vertexCount);
    for (uint32_t v = t.firstVertex; v < t.firstVertex + t.vertexCount; ++v)
    {
        const glm::vec3& p = mesh.vertex(v);
        putF32(out, p.x);
        putF32(out, p.y);
        putF32(out, p.z);
    }
    putU32(out, t.polygonCount);
    for (uint32_t p = t.firstPolygon; p < t.firstPolygon + t.polygonCount; ++p)
    {
        const auto idx = mesh.polygonIndices(p);
        putU32(out, static_cast<uint32_t>(idx.size()));
        for (uint32_t i : idx)
            putU32(out, i - t.firstVertex);
        out.push_back(mesh.area(p));
    }
    return hashBytes(out);
}

uint64_t hashPolySoup(const PolySoup& soup)
{
    Hasher h;
    h.addU64(soup.vertices.size());
    for (const glm::vec3& v : soup.vertices)
    {
        h.addF32(v.x);
        h.addF32(v.y);
        h.addF32(v.z);
    }
    h.addU64(soup.indices.size());
    for (uint32_t i : soup.indices)
        h.addU32(i);
    for (uint32_t s : soup.polyStarts)
        h.addU32(s);
    for (uint8_t a : soup.areas)
        h.addU8(a);
    return h.digest();
}

uint64_t hashNavMesh(const NavMesh& mesh)
{
    if (!mesh.tiled())
        return hashSerialized(mesh);
    // docs/tiles.md: a hash over the tile hashes in tile order.
    std::vector<uint8_t> out;
    putTag(out, "SPNT");
    putU32(out, kFormatVersion);
    putU32(out, mesh.tileSize());
    putU32(out, static_cast<uint32_t>(mesh.tiles().size()));
    for (const NavTile& t : mesh.tiles())
    {
        putU32(out, static_cast<uint32_t>(t.x));
        putU32(out, static_cast<uint32_t>(t.z));
        putU32(out, static_cast<uint32_t>(t.hash));
        putU32(out, static_cast<uint32_t>(t.hash >> 32));
    }
    const NavTile& last = mesh.tiles().back();
    if (mesh.disabledCount() != 0 || mesh.polygonCount() != last.firstPolygon + last.polygonCount)
    {
        // Carved: the pieces and the disabled polygons are not in any tile's hash.
        putTag(out, "CRVD");
        const uint64_t whole = hashSerialized(mesh);
        putU32(out, static_cast<uint32_t>(whole));
        putU32(out, static_cast<uint32_t>(whole >> 32));
    }
    return hashBytes(out);
}

} // namespace spark::nav
