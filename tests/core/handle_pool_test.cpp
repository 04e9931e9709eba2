// HandlePool: values by typed generational handles; stale handles refused,
// freed slots reused lowest first with a new generation, copies independent.

#include "spark/core/handle_pool.h"

#include <doctest/doctest.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using namespace spark;

namespace
{
struct AgentTag;
struct ObstacleTag;
using AgentPool = HandlePool<AgentTag, std::string>;
using ObstaclePool = HandlePool<ObstacleTag, int>;
using AgentHandle = AgentPool::Handle;

// Every live (handle, value) pair in the order forEach visits them.
std::vector<std::pair<AgentHandle, std::string>> visitAll(const AgentPool& pool)
{
    std::vector<std::pair<AgentHandle, std::string>> out;
    pool.forEach([&](AgentHandle h, const std::string& v) { out.emplace_back(h, v); });
    return out;
}
} // namespace

TEST_CASE("handles are typed: an agent handle is not an obstacle handle")
{
    static_assert(std::is_same_v<AgentPool::Handle, Id<AgentTag>>);
    static_assert(!std::is_same_v<AgentPool::Handle, ObstaclePool::Handle>);
    static_assert(!std::is_convertible_v<Id<AgentTag>, Id<ObstacleTag>>);
    ObstaclePool obstacles;
    const ObstaclePool::Handle h = obstacles.insert(7);
    REQUIRE(obstacles.get(h));
    CHECK(*obstacles.get(h) == 7);
}

TEST_CASE("insert hands out valid handles, get reaches the value and remove takes it out")
{
    AgentPool pool;
    CHECK(pool.empty());
    const AgentHandle a = pool.insert("alice");
    const AgentHandle b = pool.insert("bob");
    CHECK(a.valid());
    CHECK(b.valid());
    CHECK(a != b);
    CHECK(pool.size() == 2);
    CHECK(pool.contains(a));
    REQUIRE(pool.get(a));
    CHECK(*pool.get(a) == "alice");
    *pool.get(b) = "robert";
    const AgentPool& view = pool;
    REQUIRE(view.get(b));
    CHECK(*view.get(b) == "robert");

    CHECK(pool.remove(a));
    CHECK(pool.size() == 1);
    CHECK_FALSE(pool.empty());
    CHECK(*pool.get(b) == "robert");
}

TEST_CASE("a removed handle is refused: get is null, remove is false, contains is false")
{
    AgentPool pool;
    const AgentHandle a = pool.insert("alice");
    const AgentHandle b = pool.insert("bob");
    REQUIRE(pool.remove(a));
    CHECK(pool.get(a) == nullptr);
    CHECK(static_cast<const AgentPool&>(pool).get(a) == nullptr);
    CHECK_FALSE(pool.contains(a));
    CHECK_FALSE(pool.remove(a)); // a second remove changes nothing
    CHECK(pool.size() == 1);
    CHECK(*pool.get(b) == "bob");
}

TEST_CASE("a freed slot is reused with a new generation: the old handle stays refused, the new one works")
{
    AgentPool pool;
    const AgentHandle old = pool.insert("first");
    REQUIRE(pool.remove(old));
    const AgentHandle fresh = pool.insert("second");
    CHECK(fresh.index == old.index);
    CHECK(fresh.generation == old.generation + 1);
    CHECK(fresh != old);
    CHECK(pool.get(old) == nullptr);
    CHECK_FALSE(pool.contains(old));
    CHECK_FALSE(pool.remove(old));
    REQUIRE(pool.get(fresh));
    CHECK(*pool.get(fresh) == "second");
    CHECK(pool.size() == 1);
}

TEST_CASE("the lowest free slot is reused first, so the handles depend only on the operations")
{
    AgentPool pool;
    std::vector<AgentHandle> h;
    for (const char* name : {"s0", "s1", "s2", "s3", "s4"})
        h.push_back(pool.insert(name));
    for (uint32_t i = 0; i < h.size(); ++i)
        CHECK(h[i] == AgentHandle{i, 1});
    // Free 3, then 1: the next inserts take 1, then 3, then a new slot 5.
    REQUIRE(pool.remove(h[3]));
    REQUIRE(pool.remove(h[1]));
    CHECK(pool.insert("a") == AgentHandle{1, 2});
    CHECK(pool.insert("b") == AgentHandle{3, 2});
    CHECK(pool.insert("c") == AgentHandle{5, 1});

    // The same operations on another pool give the same handles.
    AgentPool twin;
    for (const char* name : {"s0", "s1", "s2", "s3", "s4"})
        (void)twin.insert(name);
    REQUIRE(twin.remove(AgentHandle{3, 1}));
    REQUIRE(twin.remove(AgentHandle{1, 1}));
    CHECK(twin.insert("a") == AgentHandle{1, 2});
    CHECK(twin.insert("b") == AgentHandle{3, 2});
    CHECK(twin.insert("c") == AgentHandle{5, 1});
}

TEST_CASE("the null handle and handles past the slots are refused")
{
    AgentPool pool;
    const AgentHandle a = pool.insert("alice"); // slot 0, generation 1
    const AgentHandle null{};
    CHECK_FALSE(null.valid());
    CHECK(pool.get(null) == nullptr);
    CHECK_FALSE(pool.contains(null));
    CHECK_FALSE(pool.remove(null));
    // Index 0 with generation 0 names slot 0 but is still the null handle.
    CHECK(pool.get(AgentHandle{a.index, 0}) == nullptr);
    CHECK(pool.get(AgentHandle{7, 1}) == nullptr);       // no such slot
    CHECK(pool.get(AgentHandle{a.index, 2}) == nullptr); // a generation not handed out yet
    CHECK_FALSE(pool.remove(AgentHandle{7, 1}));
    CHECK(pool.size() == 1);
}

TEST_CASE("a copied pool keeps every handle valid in the copy, and the two change independently")
{
    AgentPool pool;
    const AgentHandle a = pool.insert("alice");
    const AgentHandle b = pool.insert("bob");
    const AgentHandle c = pool.insert("carol");
    REQUIRE(pool.remove(b));

    AgentPool copy = pool;
    REQUIRE(copy.get(a));
    REQUIRE(copy.get(c));
    CHECK(*copy.get(a) == "alice");
    CHECK(*copy.get(c) == "carol");
    CHECK(copy.get(b) == nullptr); // stale in the original, stale in the copy
    CHECK(copy.size() == 2);
    CHECK(copy.get(a) != pool.get(a)); // its own storage

    // Writes to the copy do not reach the original, and the other way round.
    *copy.get(a) = "alicia";
    REQUIRE(copy.remove(c));
    CHECK(*pool.get(a) == "alice");
    CHECK(pool.contains(c));
    REQUIRE(pool.remove(a));
    CHECK(copy.contains(a));
    CHECK(*copy.get(a) == "alicia");

    // Both reuse the same free slot with the same generation (same history).
    const AgentHandle inCopy = copy.insert("dave");
    const AgentHandle inPool = pool.insert("erin");
    CHECK(inCopy == AgentHandle{1, 2});
    CHECK(inPool == AgentHandle{0, 2});
}

TEST_CASE("forEach visits the live values in slot order with their current handles")
{
    AgentPool pool;
    const AgentHandle a = pool.insert("a");
    const AgentHandle b = pool.insert("b");
    const AgentHandle c = pool.insert("c");
    REQUIRE(pool.remove(a));
    const AgentHandle d = pool.insert("d"); // reuses slot 0 with generation 2
    REQUIRE(pool.remove(b));

    const auto seen = visitAll(pool);
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].first == d);
    CHECK(seen[0].second == "d");
    CHECK(seen[1].first == c);
    CHECK(seen[1].second == "c");

    // The mutable overload can change the values in place.
    pool.forEach([](AgentHandle, std::string& v) { v += "!"; });
    CHECK(*pool.get(c) == "c!");
    CHECK(*pool.get(d) == "d!");

    AgentPool empty;
    CHECK(visitAll(empty).empty());
}

namespace
{
struct PlainKind; // kind 0, as agents
struct OtherKind; // kind 5
} // namespace
namespace spark
{
template <> inline constexpr uint32_t kHandleKind<OtherKind> = 5;
} // namespace spark

TEST_CASE("a handle number carries its kind and world: another kind's or world's number names nothing")
{
    const Id<PlainKind> plain{3, 7};
    const Id<OtherKind> other{3, 7};
    // Kind 0 and world 0: generation << 20 | index, the surface's numbers before kinds.
    CHECK(handleNumber(plain) == (uint64_t{7} << 20 | 3));
    CHECK(handleNumber(other) == (uint64_t{5} << 50 | uint64_t{7} << 20 | 3));
    CHECK(handleNumber(other) < (uint64_t{1} << 53)); // exact in any JSON reader
    CHECK(handleNumberKind(handleNumber(other)) == 5);
    // Round trips, and refusals.
    CHECK(handleFromNumber<PlainKind>(handleNumber(plain)) == plain);
    CHECK(handleFromNumber<OtherKind>(handleNumber(other)) == other);
    CHECK_FALSE(handleFromNumber<OtherKind>(handleNumber(plain)).valid());
    CHECK_FALSE(handleFromNumber<PlainKind>(handleNumber(other)).valid());
    const uint64_t inWorld9 = handleNumber(other, 9);
    CHECK(handleFromNumber<OtherKind>(inWorld9, 9) == other);
    CHECK_FALSE(handleFromNumber<OtherKind>(inWorld9, 8).valid());
    CHECK_FALSE(handleFromNumber<OtherKind>(inWorld9).valid());
    // The largest generation and index still round trip.
    const Id<OtherKind> last{(1u << 20) - 1, kMaxIdGeneration};
    CHECK(handleFromNumber<OtherKind>(handleNumber(last, 2047), 2047) == last);
}
