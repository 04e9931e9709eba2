#include "spark/core/id.h"
#include "spark/core/result.h"

#include <doctest/doctest.h>

using namespace spark;

namespace
{
Result<int> half(int v)
{
    if (v % 2 != 0)
        return makeError("E_ODD", "odd", "/v");
    return v / 2;
}
Status quarter(int v, int& out)
{
    auto h = half(v);
    SPARK_TRY(h);
    auto q = half(h.value());
    SPARK_TRY(q);
    out = q.value();
    return {};
}
struct AgentTag;
} // namespace

TEST_CASE("Result carries a value or a coded error with its field")
{
    auto ok = half(4);
    REQUIRE(ok.ok());
    CHECK(ok.value() == 2);
    auto bad = half(3);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == "E_ODD");
    CHECK(bad.error().field == "/v");
    CHECK_FALSE(bad.status().ok());
}

TEST_CASE("SPARK_TRY returns the first error")
{
    int out = 0;
    CHECK(quarter(8, out).ok());
    CHECK(out == 2);
    Status s = quarter(6, out);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().code == "E_ODD");
}

TEST_CASE("typed ids: generation zero is null, ids compare by index then generation")
{
    Id<AgentTag> none;
    CHECK_FALSE(none.valid());
    Id<AgentTag> a{1, 1}, b{1, 2};
    CHECK(a.valid());
    CHECK(a != b);
    CHECK(a < b);
}
