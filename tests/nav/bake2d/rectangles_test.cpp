#include "spark/nav/bake2d.h"
#include "grid_test_util.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using namespace spark::nav;

namespace
{

using test::lcg;

// Every walkable cell covered once, nothing else covered, one area per rectangle.
void checkExactCover(int w, int h, const std::vector<uint8_t>& walk, const std::vector<uint8_t>& areas,
                     const std::vector<CellRect>& rects)
{
    std::vector<int> count(walk.size(), 0);
    for (const CellRect& r : rects)
    {
        REQUIRE(r.width >= 1);
        REQUIRE(r.height >= 1);
        REQUIRE(r.x >= 0);
        REQUIRE(r.y >= 0);
        REQUIRE(r.x + r.width <= w);
        REQUIRE(r.y + r.height <= h);
        for (int y = r.y; y < r.y + r.height; ++y)
            for (int x = r.x; x < r.x + r.width; ++x)
            {
                const size_t i = static_cast<size_t>(y) * w + x;
                ++count[i];
                CHECK((areas.empty() ? 0 : areas[i]) == r.area);
            }
    }
    for (size_t i = 0; i < walk.size(); ++i)
        CHECK(count[i] == (walk[i] ? 1 : 0));
}

} // namespace

TEST_CASE("an open grid is covered by one rectangle")
{
    std::vector<uint8_t> walk(6 * 4, 1);
    const auto rects = coverWithRectangles2D(6, 4, walk, {});
    REQUIRE(rects.size() == 1);
    CHECK(rects[0].x == 0);
    CHECK(rects[0].y == 0);
    CHECK(rects[0].width == 6);
    CHECK(rects[0].height == 4);
}

TEST_CASE("a plus-shaped region is covered by three rectangles")
{
    // . X .
    // X X X
    // . X .
    std::vector<uint8_t> walk = {0, 1, 0, 1, 1, 1, 0, 1, 0};
    const auto rects = coverWithRectangles2D(3, 3, walk, {});
    checkExactCover(3, 3, walk, {}, rects);
    CHECK(rects.size() == 3);
    // The seed (1, 0) prefers the tall bar (3 cells) over the single cell run.
    CHECK(rects[0].x == 1);
    CHECK(rects[0].height == 3);
}

TEST_CASE("rectangles never mix area ids and keep them")
{
    std::vector<uint8_t> walk(4 * 2, 1);
    std::vector<uint8_t> areas = {0, 0, 3, 3, 0, 0, 3, 3};
    const auto rects = coverWithRectangles2D(4, 2, walk, areas);
    checkExactCover(4, 2, walk, areas, rects);
    REQUIRE(rects.size() == 2);
    CHECK(rects[0].area == 0);
    CHECK(rects[1].area == 3);
    CHECK(rects[1].x == 2);
    CHECK(rects[1].width == 2);
    CHECK(rects[1].height == 2);
}

TEST_CASE("random grids are covered exactly, without overlap, with maximal rectangles")
{
    uint32_t seed = 777;
    for (int round = 0; round < 80; ++round)
    {
        const int w = 1 + static_cast<int>(lcg(seed) % 31);
        const int h = 1 + static_cast<int>(lcg(seed) % 27);
        std::vector<uint8_t> walk(static_cast<size_t>(w) * h);
        std::vector<uint8_t> areas(walk.size());
        for (size_t i = 0; i < walk.size(); ++i)
        {
            walk[i] = (lcg(seed) % 100) < 70 ? 1 : 0;
            areas[i] = static_cast<uint8_t>(lcg(seed) % 100 < 85 ? 0 : 1 + lcg(seed) % 3);
        }
        CAPTURE(round);
        const auto rects = coverWithRectangles2D(w, h, walk, round % 2 ? areas : std::vector<uint8_t>{});
        checkExactCover(w, h, walk, round % 2 ? areas : std::vector<uint8_t>{}, rects);
        // Maximality at creation: no rectangle can grow right or down into cells that
        // were still uncovered when it was made (i.e. cells of later rectangles).
        std::vector<int> owner(walk.size(), -1);
        for (size_t r = 0; r < rects.size(); ++r)
            for (int y = rects[r].y; y < rects[r].y + rects[r].height; ++y)
                for (int x = rects[r].x; x < rects[r].x + rects[r].width; ++x)
                    owner[static_cast<size_t>(y) * w + x] = static_cast<int>(r);
        for (size_t r = 0; r < rects.size(); ++r)
        {
            const CellRect& c = rects[r];
            auto freeLater = [&](int x, int y) {
                const size_t i = static_cast<size_t>(y) * w + x;
                return owner[i] > static_cast<int>(r) && (round % 2 ? areas[i] : 0) == c.area;
            };
            bool canGrowRight = c.x + c.width < w;
            for (int y = c.y; y < c.y + c.height && canGrowRight; ++y)
                canGrowRight = freeLater(c.x + c.width, y);
            bool canGrowDown = c.y + c.height < h;
            for (int x = c.x; x < c.x + c.width && canGrowDown; ++x)
                canGrowDown = freeLater(x, c.y + c.height);
            CHECK_FALSE(canGrowRight);
            CHECK_FALSE(canGrowDown);
        }
    }
}
