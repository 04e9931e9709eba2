/// \file radii_bench.cpp
/// What several agent radii cost (docs/navmesh.md "Agent radii"): one bake of
/// `agent_radii: [0.3, 0.6, 1.2]` (one voxelisation and filter pass, erosion
/// onward per radius) against one bake of the smallest radius alone (the
/// dearest of the three: erosion keeps the most) and against three separate
/// bakes. The goal (issue 33): three radii cost at most 1.6x one.
///
/// Levels: the dungeon (data/meshes/dungeon.obj, default settings) and the
/// 1 km terrain written by tools/terrain.py (run it first; without the file
/// the level is skipped with a message), single grid at 0.3 m cells and tiled
/// at 0.2 m cells (64-cell tiles). Thread CPU time on one thread, medians over
/// repeats that alternate the three kinds of bake (bench_stats.h).
///
/// Run from the project root:
///   python3 tools/terrain.py -o out/terrain-1k.obj
///   build/release/bench/radii_bench [--repeats=N] [--terrain=out/terrain-1k.obj] [--only=TEXT]
/// (--only: just the levels whose name holds TEXT, e.g. --only="terrain 1 km, one grid").

#include "bench_stats.h"

#include "spark/nav/bake.h"
#include "spark/scene/model_obj.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace
{

using namespace spark;

const std::vector<float> kRadii = {0.3f, 0.6f, 1.2f};

struct Case
{
    std::string name;
    nav::BakeInput input;
    nav::BakeDef def;
};

bool loadObj(const std::filesystem::path& path, nav::BakeInput& out)
{
    auto model = scene::loadObj(path);
    if (!model)
        return false;
    out.vertices = model->vertices;
    out.indices = model->indices;
    out.oneSided = true; // as `spark bake` bakes an OBJ
    return true;
}

/// CPU seconds of one call of `bake` (which must succeed) on this thread.
template <class F> double timed(F&& bake)
{
    const double start = bench::threadSeconds();
    if (!bake())
    {
        std::fprintf(stderr, "radii_bench: a bake failed\n");
        std::exit(1);
    }
    return bench::threadSeconds() - start;
}

void run(const Case& c, int repeats)
{
    nav::BakeDef one = nav::bakeDefForRadius(c.def, kRadii[0]);
    nav::BakeDef three = c.def;
    three.agentRadii = kRadii;
    std::vector<double> tOne, tSeparate, tShared;
    size_t polys[3] = {0, 0, 0};
    for (int r = 0; r < repeats; ++r)
    {
        tOne.push_back(timed([&] { return nav::bakeNavMesh(c.input, one).ok(); }));
        tShared.push_back(timed([&] {
            auto baked = nav::bakeNavMeshes(c.input, three);
            if (baked.ok())
                for (size_t i = 0; i < 3; ++i)
                    polys[i] = baked.value()[i].mesh.polygonCount();
            return baked.ok();
        }));
        tSeparate.push_back(timed([&] {
            for (float radius : kRadii)
                if (!nav::bakeNavMesh(c.input, nav::bakeDefForRadius(c.def, radius)).ok())
                    return false;
            return true;
        }));
    }
    const double one1 = bench::median(tOne), shared = bench::median(tShared), separate = bench::median(tSeparate);
    std::printf("%-28s %9.1f %9.1f %9.1f %9.2fx %9.2fx   %zu/%zu/%zu   (spread %.0f/%.0f/%.0f %%)\n", c.name.c_str(),
                one1 * 1e3, shared * 1e3, separate * 1e3, shared / one1, separate / one1, polys[0], polys[1],
                polys[2], bench::spreadPercent(tOne), bench::spreadPercent(tShared),
                bench::spreadPercent(tSeparate));
    std::fflush(stdout); // a line per level as it finishes
}

} // namespace

int main(int argc, char** argv)
{
    int repeats = 5;
    std::string terrain = "out/terrain-1k.obj";
    std::string only; // a piece of a level's name: run only the levels whose name holds it
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (const char* v = bench::optionValue(arg, "--repeats="))
            repeats = std::max(1, std::atoi(v));
        else if (const char* t = bench::optionValue(arg, "--terrain="))
            terrain = t;
        else if (const char* o = bench::optionValue(arg, "--only="))
            only = o;
        else
        {
            std::fprintf(stderr, "usage: radii_bench [--repeats=N] [--terrain=PATH] [--only=TEXT]\n");
            return 2;
        }
    }
    std::vector<Case> cases;
    nav::BakeInput dungeon;
    if (!loadObj(std::filesystem::path(SPARK_SOURCE_DIR) / "data/meshes/dungeon.obj", dungeon))
    {
        std::fprintf(stderr, "radii_bench: cannot read data/meshes/dungeon.obj\n");
        return 1;
    }
    nav::BakeDef def = nav::defaultBakeDef();
    def.threads = 1;
    cases.push_back({"dungeon, one grid 0.2 m", dungeon, def});
    def.tileSize = 64;
    cases.push_back({"dungeon, tiles 64 x 0.2 m", dungeon, def});
    nav::BakeInput land;
    if (loadObj(terrain, land))
    {
        nav::BakeDef grid = nav::defaultBakeDef();
        grid.threads = 1;
        grid.cellSize = 0.3f;
        cases.push_back({"terrain 1 km, one grid 0.3 m", land, grid});
        nav::BakeDef tiled = nav::defaultBakeDef();
        tiled.threads = 1;
        tiled.tileSize = 64;
        cases.push_back({"terrain 1 km, tiles 64 x 0.2 m", land, tiled});
    }
    else
        std::printf("(no %s: the terrain is skipped; write it with python3 tools/terrain.py -o %s)\n",
                    terrain.c_str(), terrain.c_str());
    std::printf("radii 0.3, 0.6, 1.2 m; thread CPU ms, medians of %d alternated repeats, 1 thread\n", repeats);
    std::fflush(stdout);
    std::printf("%-28s %9s %9s %9s %10s %10s   %s\n", "level", "r 0.3", "3 shared", "3 apart", "shared/1",
                "apart/1", "polygons");
    for (const Case& c : cases)
        if (c.name.find(only) != std::string::npos)
            run(c, repeats);
    return 0;
}
