// Blackboard values: kinds, copies, equality, the JSON edge and the hash bytes.
#include "spark/ai/blackboard.h"
#include "spark/ai/value.h"
#include "spark/ai/value_json.h"
#include "spark/core/hash.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace spark;
using namespace spark::ai;

namespace
{
uint64_t valueHash(const Value& v)
{
    Hasher h;
    hashValue(h, v);
    return h.digest();
}
uint64_t jsonHash(const json& j)
{
    Hasher h;
    hashJson(h, j);
    return h.digest();
}
} // namespace

TEST_CASE("a value keeps its kind: the two integer kinds and the double apart")
{
    CHECK(Value().isNull());
    CHECK(Value(nullptr).isNull());
    CHECK(Value(true).kind() == Value::Kind::Bool);
    CHECK(Value(-3).kind() == Value::Kind::Int);
    CHECK(Value(int64_t{-3}).int64() == -3);
    CHECK(Value(3u).kind() == Value::Kind::UInt);
    CHECK(Value(uint64_t{1} << 63).uint64() == uint64_t{1} << 63);
    CHECK(Value(2.5).kind() == Value::Kind::Double);
    CHECK(Value("Player").string() == "Player");
    CHECK(Value(std::string_view("Player")).isString());
    CHECK(Value::list({1, 2.5, "x"}).size() == 3);
    CHECK(Value::object({{"a", 1}, {"b", Value::list()}}).size() == 2);
    CHECK(Value(1).size() == 0);
    CHECK(sizeof(Value) == 16);

    double d = 7;
    CHECK_FALSE(Value("1").numberOf(d));
    CHECK(d == 7);
    CHECK(Value(-4).numberOf(d));
    CHECK(d == -4.0);
    CHECK(Value("x").number() == 0.0);
}

TEST_CASE("copies are deep; a moved-from value is null")
{
    Value a = Value::list({"Player", Value::object({{"hp", 10}})});
    Value b = a;
    b.items()[1].fields()["hp"] = 11;
    CHECK(a.items()[1].find("hp")->int64() == 10);
    CHECK(b.items()[1].find("hp")->int64() == 11);
    CHECK(a != b);
    Value c = std::move(b);
    CHECK(b.isNull()); // NOLINT(bugprone-use-after-move): the moved-from state is specified
    CHECK(c.items()[1].find("hp")->int64() == 11);
    c = a;
    CHECK(c == a);
    c = c; // self-assignment keeps the value
    CHECK(c == a);
    c = Value("x");
    CHECK(c.string() == "x");
    CHECK(a.find("hp") == nullptr); // a list has no fields
    CHECK(a.items()[1].find("mp") == nullptr);
}

TEST_CASE("equality compares numbers by value across kinds, as JSON does")
{
    CHECK(Value(1) == Value(1.0));
    CHECK(Value(1u) == Value(1));
    CHECK(Value(1u) == Value(1.0));
    CHECK(Value(1) != Value(1.5));
    CHECK(Value(-1) != Value(1u));
    CHECK(Value(true) != Value(1));
    CHECK(Value("1") != Value(1));
    CHECK(Value() == Value(nullptr));
    CHECK(Value() != Value(false));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(Value(nan) != Value(nan));
    CHECK(Value::list({1, 2}) == Value::list({1.0, 2u}));
    CHECK(Value::list({1, 2}) != Value::list({1, 2, 3}));
    CHECK(Value::object({{"a", 1}}) == Value::object({{"a", 1.0}}));
    CHECK(Value::object({{"a", 1}}) != Value::object({{"b", 1}}));

    // The same answers as the JSON values they stand for.
    const json samples = json::parse(R"([null, true, false, 0, 1, -1, 1.0, 1.5, 18446744073709551615, "a", "b",
                                         [1, 2], [1.0, 2], {"a": 1}, {"a": 1.0}, {"b": [1]}])");
    for (const json& x : samples)
        for (const json& y : samples)
        {
            CAPTURE(x.dump());
            CAPTURE(y.dump());
            CHECK((valueFromJson(x) == valueFromJson(y)) == (x == y));
        }
}

TEST_CASE("JSON goes to a value and back unchanged, kinds included")
{
    const json j = json::parse(R"({"target": "Player", "n": [1, 2.5, -3, 18446744073709551615], "flag": false,
                                   "none": null, "spot": [5, 0, -5], "deep": {"x": {"y": []}}})");
    const Value v = valueFromJson(j);
    CHECK(v.isObject());
    CHECK(v.find("n")->items()[0].kind() == Value::Kind::UInt); // a parsed non-negative integer
    CHECK(v.find("n")->items()[2].kind() == Value::Kind::Int);
    CHECK(v.find("n")->items()[3].uint64() == UINT64_MAX);
    const json back = valueToJson(v);
    CHECK(back == j);
    CHECK(back.dump() == j.dump());
    CHECK(back["n"][0].is_number_unsigned());
    CHECK(back["n"][1].is_number_float());
    json hook = Value(2.0);
    CHECK(hook.is_number_float());
    CHECK(j.get<Value>() == v);
}

TEST_CASE("a value hashes to the bytes of its JSON form, kind by kind")
{
    const json samples =
        json::parse(R"([null, true, false, 0, 7, -7, 9223372036854775807, 18446744073709551615, 0.5, -0.0, 1e300,
                        "", "Player", [], [1, 2.5, "x"], [[1, 0, 2]], {}, {"b": 1, "a": [true, null]}])");
    for (const json& j : samples)
    {
        CAPTURE(j.dump());
        CHECK(valueHash(valueFromJson(j)) == jsonHash(j));
    }
    // Kinds stay apart in the hash: 1, 1.0 and "1" differ (a double's zero
    // is one, whatever its sign, as Hasher::addF64 feeds it).
    CHECK(valueHash(Value(1)) != valueHash(Value(1.0)));
    CHECK(valueHash(Value(1)) != valueHash(Value("1")));
    CHECK(valueHash(Value(0.0)) == valueHash(Value(-0.0)));
    // A list and an object of the same items differ.
    CHECK(valueHash(Value::list({1})) != valueHash(Value::object({{"1", 1}})));
}

TEST_CASE("a point is a list of three finite numbers")
{
    CHECK(Value::list({1, 0, 2.5}).isFinitePoint());
    CHECK_FALSE(Value::list({1, 0}).isFinitePoint());
    CHECK_FALSE(Value::list({1, 0, "2"}).isFinitePoint());
    CHECK_FALSE(Value::list({1, 0, std::numeric_limits<double>::infinity()}).isFinitePoint());
    CHECK_FALSE(Value("Player").isFinitePoint());
}

TEST_CASE("a blackboard comes from a JSON object and goes back to it, hashing as that object")
{
    const json object = json::parse(R"({"target": "Player", "route": [[1, 0, 2], [3.5, 0, 4]], "hp": 100,
                                        "alert": false, "memo": {"seen": null}})");
    const Blackboard bb = blackboardFromJson(object);
    CHECK(bb.size() == 5);
    CHECK(bb.find("route")->items()[1].items()[0] == Value(3.5));
    CHECK(blackboardToJson(bb) == object);
    json hooked = bb;
    CHECK(hooked.dump() == object.dump());
    Hasher a, b;
    hashBlackboard(a, bb);
    hashJson(b, object);
    CHECK(a.digest() == b.digest());
    CHECK(blackboardFromJson(json::array({1})).empty()); // not an object: nothing
}

TEST_CASE("assigning values keeps a blackboard's slots and erases the keys not given")
{
    Blackboard bb{{"b", 1}, {"a", "x"}};
    const uint32_t slotA = bb.findSlot("a");
    const uint64_t layout = bb.layout();
    bb.assign(Blackboard{{"a", "y"}});
    CHECK(bb.findSlot("a") == slotA);
    CHECK(bb.layout() == layout); // no key was added
    CHECK(*bb.find("a") == "y");
    CHECK_FALSE(bb.contains("b"));
    CHECK(bb.size() == 1);
    bb.assign(Blackboard{{"c", Value::list({1, 2})}});
    CHECK(bb.layout() != layout); // a new key took a new slot
    CHECK(bb.find("c")->size() == 2);
    CHECK_FALSE(bb.contains("a"));
    bb.assign(bb); // itself: unchanged
    CHECK(bb.size() == 1);
    Blackboard repeated{{"k", 1}, {"k", 2}};
    CHECK(repeated.size() == 1);
    CHECK(*repeated.find("k") == 2);
}
