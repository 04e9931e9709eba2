// grid_navmesh_doc N FILE: writes the spark.navmesh document of N × N unit
// quads (grid_navmesh.h) to FILE, for measuring nav.import by hand
// (DEVELOPERS.md, "Big documents").

#include "grid_navmesh.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

int main(int argc, char** argv)
{
    const long n = argc == 3 ? std::strtol(argv[1], nullptr, 10) : 0;
    if (n < 1 || n > 2048)
    {
        std::fprintf(stderr, "usage: grid_navmesh_doc N FILE   (N quads a side, 1..2048)\n");
        return 2;
    }
    const std::string text = gridnav::gridDocument(static_cast<uint32_t>(n));
    std::ofstream out(argv[2], std::ios::binary);
    out << text;
    out.close();
    if (!out)
    {
        std::fprintf(stderr, "grid_navmesh_doc: cannot write %s\n", argv[2]);
        return 1;
    }
    std::printf("%s: %ld polygons, %zu bytes\n", argv[2], n * n, text.size());
    return 0;
}
