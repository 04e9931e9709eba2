#pragma once
// A generated navmesh: n × n unit quads over (n + 1)² shared vertices, as a
// polygon soup and as the text of its spark.navmesh document (2D), for the
// big-document tests of nav.import and for measuring it by hand
// (grid_navmesh_doc writes the document to a file).

#include "spark/nav/navmesh.h"

#include <charconv>
#include <cstdint>
#include <string>

namespace gridnav
{

/// Area id of quad (i, j): a diagonal band of area 1 through an area-0 grid,
/// so the document carries more than one area.
inline uint8_t quadArea(uint32_t i, uint32_t j)
{
    return (i + j) % 97 == 0 ? 1 : 0;
}

/// The soup: vertex (i, j) = (i, 0, j) is number j × (n + 1) + i; quad (i, j)
/// (the square from (i, j) to (i + 1, j + 1)) is polygon j × n + i, its
/// corners counter-clockwise seen from +Y.
inline spark::nav::PolySoup gridSoup(uint32_t n)
{
    spark::nav::PolySoup soup;
    const uint32_t side = n + 1;
    soup.vertices.reserve(size_t(side) * side);
    for (uint32_t j = 0; j < side; ++j)
        for (uint32_t i = 0; i < side; ++i)
            soup.vertices.emplace_back(float(i), 0.0f, float(j));
    soup.indices.reserve(4 * size_t(n) * n);
    soup.polyStarts.reserve(size_t(n) * n + 1);
    soup.areas.reserve(size_t(n) * n);
    soup.polyStarts.push_back(0);
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t v = j * side + i;
            // (x, z) → (x + 1, z) → (x + 1, z + 1) → (x, z + 1) turns from +x
            // towards +z: positive winding in the x–z plane.
            for (uint32_t corner : {v, v + 1, v + side + 1, v + side})
                soup.indices.push_back(corner);
            soup.polyStarts.push_back(uint32_t(soup.indices.size()));
            soup.areas.push_back(quadArea(i, j));
        }
    return soup;
}

/// The def the document states: the default settings, 2D, quads allowed.
inline spark::nav::NavMeshDef gridDef()
{
    spark::nav::NavMeshDef def = spark::nav::defaultNavMeshDef();
    def.is2d = true;
    def.maxPolyVerts = 6;
    return def;
}

namespace detail
{
/// `v` as the shortest decimal that reads back to it.
template <class T> void appendNumber(std::string& out, T v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}
} // namespace detail

/// The spark.navmesh document of `gridSoup(n)` with `gridDef()` (no hash
/// field), spaced as Python's json.dump writes it.
inline std::string gridDocument(uint32_t n)
{
    const spark::nav::PolySoup soup = gridSoup(n);
    const spark::nav::NavMeshDef def = gridDef();
    const spark::nav::NavMeshSettings& s = def.settings;
    std::string out;
    out.reserve(soup.vertices.size() * 16 + soup.indices.size() * 10 + soup.areas.size() * 3 + 512);
    out += R"({"format": "spark.navmesh", "version": 1, "dimensions": 2, "settings": {)";
    const std::pair<const char*, float> floats[] = {
        {"agent_radius", s.agentRadius}, {"agent_height", s.agentHeight},   {"step_height", s.stepHeight},
        {"cell_size", s.cellSize},       {"cell_height", s.cellHeight},     {"max_slope_deg", s.maxSlopeDeg},
        {"link_tolerance", def.linkTolerance}};
    for (const auto& [name, value] : floats)
    {
        out += '"';
        out += name;
        out += "\": ";
        detail::appendNumber(out, value);
        out += ", ";
    }
    out += "\"max_poly_verts\": " + std::to_string(def.maxPolyVerts) + "},\n\"vertices\": [";
    for (size_t k = 0; k < soup.vertices.size(); ++k)
    {
        out += k == 0 ? "[" : ", [";
        detail::appendNumber(out, soup.vertices[k].x);
        out += ", ";
        detail::appendNumber(out, soup.vertices[k].z);
        out += ']';
    }
    out += "],\n\"polygons\": [";
    for (size_t p = 0; p + 1 < soup.polyStarts.size(); ++p)
    {
        out += p == 0 ? "[" : ", [";
        for (uint32_t k = soup.polyStarts[p]; k < soup.polyStarts[p + 1]; ++k)
        {
            if (k != soup.polyStarts[p])
                out += ", ";
            detail::appendNumber(out, soup.indices[k]);
        }
        out += ']';
    }
    out += "],\n\"areas\": [";
    for (size_t p = 0; p < soup.areas.size(); ++p)
    {
        if (p != 0)
            out += ", ";
        out += char('0' + soup.areas[p]);
    }
    out += "]}\n";
    return out;
}

} // namespace gridnav
