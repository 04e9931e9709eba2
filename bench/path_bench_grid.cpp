/// \file path_bench_grid.cpp
/// Path queries on big grid maps (issue 34): Spark's 2D bake (bakeGrid2D,
/// radius 0, cell size 1) of a MovingAI map or of a generated map, and
/// findPath with uniform costs (the any-angle search) over many pairs.
///
/// Maps: every `--map=FILE.map` given (MovingAI format; the pairs are the
/// problems of FILE.map.scen when it exists, cell centres, else random free
/// cells), and `--generated=random|rooms|maze|all` (default all) at
/// `--size=N` × N (default 1024): random rectangular obstacles (a quarter of
/// the cells), rooms (a grid of 32-cell rooms with walls and random doors), a
/// maze (corridors 4 cells wide, walls 2, a spanning tree by seeded DFS).
/// Without arguments: $SPARK_DATA_DIR/movingai/den009d.map and AR0418SR.map
/// (the MovingAI maps are not in the repository, data/README.md; skipped
/// with a note when absent) and the three generated maps.
///
/// Per map, three meshes of the same cover of the free cells, each queried
/// with the same pairs: `bake` (Spark's 2D bake: only free-space corners,
/// convex polygons of up to 6 corners), `rects` (the cover's rectangles as
/// polygons, the 2D bake before issue 34) and `cdt` (the constrained Delaunay
/// triangulation of the bake's corners, meshFromRectangles2D with 3 corners
/// per polygon: the kind of mesh Polyanya is published on; the bench does not
/// import other triangulations). Printed: polygons, vertices, bake time (the
/// whole bakeGrid2D; for cdt the re-cut only), pairs complete, mean length and
/// the largest length difference to `bake` (shortest paths must agree), then
/// µs/query (thread CPU time, each pair's median over `--rounds=R`, default 3,
/// rounds alternating the meshes' order, after one untimed pass): median, 99th
/// percentile, worst, mean; and the most search nodes one query made
/// (QueryScratch::lastSearchNodes). `--pairs=N` (default 2000) caps the pairs
/// per map (random pairs: seeded, kSeed). `--meshes=bake` queries Spark's
/// bake only (quicker when comparing changes to the search).

#include "bench_stats.h"

#include "spark/core/rng.h"
#include "spark/nav/bake2d.h"
#include "spark/nav/query.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace spark;
using namespace spark::nav;

namespace
{

constexpr uint64_t kSeed = 34;

struct Map
{
    std::string name;
    Grid2D grid;
    std::vector<std::pair<glm::vec3, glm::vec3>> pairs;
};

Grid2D emptyGrid(int w, int h)
{
    Grid2D g;
    g.width = w;
    g.height = h;
    g.cellSize = 1.0f;
    g.blocked.assign(size_t(w) * h, 0);
    return g;
}

bool readMovingAI(const std::string& path, Map& out)
{
    std::ifstream f(path);
    if (!f)
        return false;
    std::string word;
    int w = 0, h = 0;
    f >> word >> word >> word >> h >> word >> w >> word;
    if (!f || w <= 0 || h <= 0)
        return false;
    out.grid = emptyGrid(w, h);
    for (int y = 0; y < h; ++y)
    {
        std::string row;
        f >> row;
        if (int(row.size()) != w)
            return false;
        for (int x = 0; x < w; ++x)
            out.grid.blocked[size_t(y) * w + x] = (row[x] == '.' || row[x] == 'G' || row[x] == 'S') ? 0 : 1;
    }
    const size_t slash = path.find_last_of('/');
    out.name = slash == std::string::npos ? path : path.substr(slash + 1);
    std::ifstream scen(path + ".scen");
    std::string line;
    std::getline(scen, line);
    while (std::getline(scen, line))
    {
        std::istringstream in(line);
        int bucket, mw, mh, sx, sy, gx, gy;
        std::string mapName;
        if (in >> bucket >> mapName >> mw >> mh >> sx >> sy >> gx >> gy)
            out.pairs.emplace_back(glm::vec3(sx + 0.5f, 0.0f, sy + 0.5f), glm::vec3(gx + 0.5f, 0.0f, gy + 0.5f));
    }
    return true;
}

void fill(Grid2D& g, int x0, int y0, int x1, int y1, uint8_t v)
{
    for (int y = std::max(0, y0); y < std::min(g.height, y1); ++y)
        for (int x = std::max(0, x0); x < std::min(g.width, x1); ++x)
            g.blocked[size_t(y) * g.width + x] = v;
}

Grid2D generated(const std::string& kind, int n)
{
    Rng rng = rngFromSeed(kSeed, 1);
    Grid2D g = emptyGrid(n, n);
    if (kind == "random")
    {
        // Rectangles of 1..16 cells a side until a quarter of the cells is covered (overlaps count once).
        size_t blocked = 0;
        while (blocked < size_t(n) * n / 4)
        {
            const int x = int(rngNextBelow(rng, n)), y = int(rngNextBelow(rng, n));
            const int w = 1 + int(rngNextBelow(rng, 16)), h = 1 + int(rngNextBelow(rng, 16));
            for (int yy = y; yy < std::min(g.height, y + h); ++yy) // fill, counting the newly blocked cells
                for (int xx = x; xx < std::min(g.width, x + w); ++xx)
                {
                    uint8_t& b = g.blocked[size_t(yy) * g.width + xx];
                    blocked += b == 0 ? 1 : 0;
                    b = 1;
                }
        }
    }
    else if (kind == "rooms")
    {
        constexpr int kRoom = 32;
        for (int i = 0; i <= n; i += kRoom)
        {
            fill(g, i - 1, 0, i + 1, n, 1);
            fill(g, 0, i - 1, n, i + 1, 1);
        }
        for (int ry = 0; ry < n; ry += kRoom)
            for (int rx = 0; rx < n; rx += kRoom)
            {
                // A door of 2..8 cells in the room's right wall and one in its top wall, each with probability 3/4.
                if (rngNextBelow(rng, 4) != 0 && rx + kRoom < n)
                {
                    const int d = 2 + int(rngNextBelow(rng, 7)), at = ry + 2 + int(rngNextBelow(rng, kRoom - 4 - d));
                    fill(g, rx + kRoom - 1, at, rx + kRoom + 1, at + d, 0);
                }
                if (rngNextBelow(rng, 4) != 0 && ry + kRoom < n)
                {
                    const int d = 2 + int(rngNextBelow(rng, 7)), at = rx + 2 + int(rngNextBelow(rng, kRoom - 4 - d));
                    fill(g, at, ry + kRoom - 1, at + d, ry + kRoom + 1, 0);
                }
            }
    }
    else // maze
    {
        constexpr int kStep = 6, kWall = 2; // corridors 4 wide
        const int cells = n / kStep;
        fill(g, 0, 0, n, n, 1);
        std::vector<uint8_t> seen(size_t(cells) * cells, 0);
        std::vector<int> stack{0};
        seen[0] = 1;
        auto open = [&](int c) { fill(g, (c % cells) * kStep + kWall, (c / cells) * kStep + kWall,
                                      (c % cells + 1) * kStep, (c / cells + 1) * kStep, 0); };
        open(0);
        while (!stack.empty())
        {
            const int c = stack.back(), cx = c % cells, cy = c / cells;
            int options[4], count = 0;
            const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
            for (int k = 0; k < 4; ++k)
            {
                const int nx = cx + dx[k], ny = cy + dy[k];
                if (nx >= 0 && ny >= 0 && nx < cells && ny < cells && !seen[size_t(ny) * cells + nx])
                    options[count++] = k;
            }
            if (count == 0)
            {
                stack.pop_back();
                continue;
            }
            const int k = options[rngNextBelow(rng, uint32_t(count))];
            const int next = (cy + dy[k]) * cells + cx + dx[k];
            seen[size_t(next)] = 1;
            open(next);
            // Knock out the wall between the two cells.
            const int x0 = std::min(cx, cx + dx[k]) * kStep + kWall, y0 = std::min(cy, cy + dy[k]) * kStep + kWall;
            fill(g, x0, y0, x0 + kStep * (dx[k] != 0 ? 2 : 1) - kWall, y0 + kStep * (dy[k] != 0 ? 2 : 1) - kWall, 0);
            stack.push_back(next);
        }
    }
    return g;
}

void randomPairs(Map& m, size_t count)
{
    Rng rng = rngFromSeed(kSeed, 2);
    auto freeCell = [&]()
    {
        for (;;)
        {
            const int x = int(rngNextBelow(rng, uint32_t(m.grid.width))), y = int(rngNextBelow(rng, uint32_t(m.grid.height)));
            if (!m.grid.blocked[size_t(y) * m.grid.width + x])
                return glm::vec3(x + 0.5f, 0.0f, y + 0.5f);
        }
    };
    while (m.pairs.size() < count)
    {
        const glm::vec3 a = freeCell(), b = freeCell();
        m.pairs.emplace_back(a, b);
    }
}

/// One mesh of a map under test.
struct Variant
{
    const char* name;
    NavMesh mesh;
    size_t vertices = 0;
    double bakeMs = 0.0;
    std::vector<double> us;      ///< Per pair: median over the rounds.
    std::vector<double> lengths; ///< Per pair: path length, −1 when incomplete.
    uint32_t peakNodes = 0;
};

/// The soup of `corners` (grid corners, cell size 1 at the origin).
PolySoup soupOf(const CornerMesh2D& corners)
{
    PolySoup soup;
    for (const glm::ivec2& c : corners.corners)
        soup.vertices.emplace_back(float(c.x), 0.0f, float(c.y));
    soup.indices = corners.indices;
    soup.polyStarts = corners.polyStarts;
    soup.areas = corners.areas;
    return soup;
}

/// Before issue 34's bake change: one polygon per rectangle of the cover (T-junctions linked by overlap).
PolySoup rectangleSoup(const std::vector<CellRect>& rects)
{
    CornerMesh2D c;
    std::vector<std::pair<int, int>> keys;
    for (const CellRect& r : rects)
        for (const auto& k : {std::pair{r.y, r.x}, std::pair{r.y, r.x + r.width}, std::pair{r.y + r.height, r.x + r.width},
                              std::pair{r.y + r.height, r.x}})
            keys.push_back(k);
    std::vector<std::pair<int, int>> unique = keys;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    for (const auto& [y, x] : unique)
        c.corners.emplace_back(x, y);
    c.polyStarts.push_back(0);
    for (size_t i = 0; i < keys.size(); ++i)
    {
        c.indices.push_back(uint32_t(std::lower_bound(unique.begin(), unique.end(), keys[i]) - unique.begin()));
        if (i % 4 == 3)
        {
            c.polyStarts.push_back(uint32_t(c.indices.size()));
            c.areas.push_back(rects[i / 4].area);
        }
    }
    return soupOf(c);
}

bool addVariant(std::vector<Variant>& out, const char* name, const PolySoup& soup, size_t vertices, double bakeMs,
                const std::string& map)
{
    NavMeshDef def = defaultNavMeshDef();
    def.is2d = true;
    def.settings.cellSize = 1.0f;
    def.maxPolyVerts = kMaxBakedPolyVerts;
    auto mesh = buildNavMesh(soup, def);
    if (!mesh.ok())
    {
        std::printf("%-14s %s: mesh failed: %s\n", map.c_str(), name, mesh.error().message.c_str());
        return false;
    }
    out.push_back(Variant{name, std::move(mesh).value(), vertices, bakeMs, {}, {}, 0});
    return true;
}

void run(Map& m, size_t maxPairs, int rounds, bool bakeOnly)
{
    if (m.pairs.empty())
        randomPairs(m, maxPairs);
    if (m.pairs.size() > maxPairs)
    {
        // An even spread over the file's problems (they come by length bucket).
        std::vector<std::pair<glm::vec3, glm::vec3>> kept;
        for (size_t i = 0; i < maxPairs; ++i)
            kept.push_back(m.pairs[i * m.pairs.size() / maxPairs]);
        m.pairs.swap(kept);
    }
    // Spark's bake (timed whole), then from the same cover the old rectangles and the
    // constrained Delaunay triangulation of the same corners (meshFromRectangles2D, 3).
    double t0 = bench::threadSeconds();
    auto baked = bakeGrid2D(m.grid, 0.0f);
    const double bakeMs = (bench::threadSeconds() - t0) * 1e3;
    if (!baked.ok())
    {
        std::printf("%-14s bake failed: %s\n", m.name.c_str(), baked.error().message.c_str());
        return;
    }
    const std::vector<uint8_t> walk = erodeGrid2D(m.grid, 0.0f);
    const std::vector<CellRect> rects = coverWithRectangles2D(m.grid.width, m.grid.height, walk, m.grid.areas);
    t0 = bench::threadSeconds();
    const CornerMesh2D cdt = meshFromRectangles2D(m.grid.width, m.grid.height, rects, walk, m.grid.areas, 3);
    const double cdtMs = (bench::threadSeconds() - t0) * 1e3;
    const PolySoup rectSoup = rectangleSoup(rects);
    std::vector<Variant> vs;
    if (!addVariant(vs, "bake", *baked, baked->vertices.size(), bakeMs, m.name) ||
        (!bakeOnly && (!addVariant(vs, "rects", rectSoup, rectSoup.vertices.size(), 0.0, m.name) ||
                       !addVariant(vs, "cdt", soupOf(cdt), cdt.corners.size(), cdtMs, m.name))))
        return;

    QueryScratch scratch;
    PathResult path;
    const glm::vec3 ext(0.25f, 1.0f, 0.25f);
    const size_t n = m.pairs.size();
    std::vector<std::vector<double>> times(vs.size(), std::vector<double>(n * size_t(rounds)));
    for (Variant& v : vs) // warm, lengths, peak nodes
    {
        v.lengths.assign(n, -1.0);
        for (size_t i = 0; i < n; ++i)
        {
            const bool ok = findPath(v.mesh, scratch, m.pairs[i].first, m.pairs[i].second, defaultQueryFilter(), ext, path).ok();
            v.peakNodes = std::max(v.peakNodes, scratch.lastSearchNodes());
            if (ok && path.complete)
                v.lengths[i] = path.length;
        }
    }
    // Rounds alternate the meshes (bake, rects, cdt, then the reverse order), so
    // a slow stretch of the shared machine falls on each alike.
    for (int r = 0; r < rounds; ++r)
        for (size_t k = 0; k < vs.size(); ++k)
        {
            const size_t vi = r % 2 == 0 ? k : vs.size() - 1 - k;
            for (size_t i = 0; i < n; ++i)
            {
                const double q0 = bench::threadSeconds();
                (void)findPath(vs[vi].mesh, scratch, m.pairs[i].first, m.pairs[i].second, defaultQueryFilter(), ext, path);
                times[vi][i * size_t(rounds) + size_t(r)] = (bench::threadSeconds() - q0) * 1e6;
            }
        }
    for (size_t vi = 0; vi < vs.size(); ++vi)
    {
        Variant& v = vs[vi];
        v.us.resize(n);
        for (size_t i = 0; i < n; ++i)
            v.us[i] = bench::median(std::vector<double>(times[vi].begin() + ptrdiff_t(i * size_t(rounds)),
                                                        times[vi].begin() + ptrdiff_t((i + 1) * size_t(rounds))));
        std::vector<double> sorted = v.us;
        std::sort(sorted.begin(), sorted.end());
        const double p99 = sorted[std::min(sorted.size() - 1, size_t(0.99 * double(sorted.size())))];
        size_t complete = 0;
        double lengthSum = 0.0, worstDiff = 0.0;
        for (size_t i = 0; i < n; ++i)
        {
            if (v.lengths[i] >= 0.0)
                ++complete, lengthSum += v.lengths[i];
            // Against the first mesh (Spark's bake): shortest paths agree on every mesh.
            if ((v.lengths[i] >= 0.0) != (vs[0].lengths[i] >= 0.0))
                worstDiff = 1e30;
            else if (v.lengths[i] >= 0.0)
                worstDiff = std::max(worstDiff, std::abs(v.lengths[i] - vs[0].lengths[i]));
        }
        std::printf("%-14s %-5s %7u polys %7zu verts bake %7.1f ms | %5zu pairs %5zu complete, mean length %8.2f, "
                    "max |diff| vs bake %.2g | us/query median %7.1f p99 %8.1f worst %8.1f mean %7.1f | peak nodes %u\n",
                    m.name.c_str(), v.name, v.mesh.polygonCount(), v.vertices, v.bakeMs, n, complete,
                    complete ? lengthSum / double(complete) : 0.0, worstDiff, bench::median(v.us), p99, sorted.back(),
                    bench::mean(v.us), v.peakNodes);
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> maps;
    std::string kinds;
    int size = 1024;
    size_t pairs = 2000;
    int rounds = 3;
    bool any = false, bakeOnly = false;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg.rfind("--map=", 0) == 0)
            maps.push_back(arg.substr(6)), any = true;
        else if (arg.rfind("--generated=", 0) == 0)
            kinds = arg.substr(12), any = true;
        else if (arg.rfind("--size=", 0) == 0)
            size = std::max(16, std::atoi(arg.c_str() + 7));
        else if (arg.rfind("--pairs=", 0) == 0)
            pairs = size_t(std::max(1, std::atoi(arg.c_str() + 8)));
        else if (arg.rfind("--rounds=", 0) == 0)
            rounds = std::max(1, std::atoi(arg.c_str() + 9));
        else if (arg == "--meshes=bake" || arg == "--meshes=all")
            bakeOnly = arg == "--meshes=bake";
        else
        {
            std::fprintf(
                stderr,
                "usage: path_bench_grid [--map=FILE.map]... [--generated=random|rooms|maze|all] [--size=N] "
                "[--pairs=N] [--rounds=R] [--meshes=bake|all]\n");
            return 2;
        }
    }
    if (!any)
    {
        const char* root = std::getenv("SPARK_DATA_DIR");
        if (root != nullptr && *root != '\0')
            maps = {std::string(root) + "/movingai/den009d.map", std::string(root) + "/movingai/AR0418SR.map"};
        else
            std::printf("MovingAI maps skipped: set SPARK_DATA_DIR to a folder holding movingai/ (data/README.md)\n");
        kinds = "all";
    }
    for (const std::string& file : maps)
    {
        Map m;
        if (!readMovingAI(file, m))
        {
            std::printf("%s: not found or not a MovingAI map, skipped\n", file.c_str());
            continue;
        }
        run(m, pairs, rounds, bakeOnly);
    }
    for (const char* kind : {"random", "rooms", "maze"})
        if (kinds == "all" || kinds == kind)
        {
            Map m;
            m.name = std::string(kind) + "-" + std::to_string(size);
            m.grid = generated(kind, size);
            run(m, pairs, rounds, bakeOnly);
        }
    return 0;
}
