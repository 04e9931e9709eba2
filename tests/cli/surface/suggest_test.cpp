#include "surface/suggest.h"

#include <doctest/doctest.h>

using namespace spark::cli;

TEST_CASE("editDistance counts insertions, deletions and substitutions")
{
    CHECK(editDistance("", "") == 0);
    CHECK(editDistance("abc", "abc") == 0);
    CHECK(editDistance("abc", "abd") == 1);
    CHECK(editDistance("kitten", "sitting") == 3);
    CHECK(editDistance("", "abc") == 3);
}

TEST_CASE("nearestNames orders by distance and keeps siblings in the namespace")
{
    const std::vector<std::string> ids = {"nav.path", "nav.bake", "nav.raycast", "ai.step", "system.version"};
    auto near = nearestNames("nav.pth", ids);
    REQUIRE_FALSE(near.empty());
    CHECK(near[0] == "nav.path");
    CHECK(nearestNames("zzzzzzzz.qqq", ids).empty());
    auto siblings = nearestNames("nav.nope", ids);
    CHECK(siblings.size() == 3);
}
