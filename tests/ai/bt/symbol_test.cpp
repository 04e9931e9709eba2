// Interned strings: one symbol per text, string values that copy and compare
// as symbols, and the hash bytes of a string value unchanged by interning.
#include "alloc_counter.h"
#include "spark/ai/symbol.h"
#include "spark/ai/value.h"
#include "spark/ai/value_json.h"
#include "spark/core/hash.h"

#include <doctest/doctest.h>

#include <string>

using namespace spark;
using namespace spark::ai;

TEST_CASE("interning the same text gives the same symbol, another text another one")
{
    const Symbol a = Symbol::intern("symbol_test_guard");
    const std::string text = "symbol_test_" + std::string("guard"); // another buffer, same text
    CHECK(Symbol::intern(text) == a);
    CHECK(Symbol::intern(text).id() == a.id());
    CHECK(a.name() == "symbol_test_guard");
    const Symbol b = Symbol::intern("symbol_test_player");
    CHECK_FALSE(a == b);
    CHECK(a.id() != b.id());
    CHECK(a.id() != 0);
    CHECK(b.id() != 0);
}

TEST_CASE("the empty string is the default symbol, with id 0")
{
    CHECK(Symbol::intern("") == Symbol());
    CHECK(Symbol().id() == 0);
    CHECK(Symbol().name().empty());
    CHECK(Symbol().empty());
    CHECK_FALSE(Symbol::intern("x").empty());
}

TEST_CASE("a string value is its symbol: copies share it and allocate nothing")
{
    const Value v("symbol_test_target");
    CHECK(v.isString());
    CHECK(v.symbol() == Symbol::intern("symbol_test_target"));
    test::allocationCounter().count = 0;
    test::allocationCounter().on = true;
    const Value copy = v;
    const bool same = copy == v;
    test::allocationCounter().on = false;
    CHECK(same);
    CHECK(test::allocationCounter().count == 0);
    CHECK(copy.string() == "symbol_test_target");
    CHECK(&copy.string() == &v.string());
    CHECK_FALSE(Value("symbol_test_target") == Value("symbol_test_other"));
    CHECK(Value(Symbol::intern("a b")) == Value(std::string("a b")));
}

TEST_CASE("an interned string value hashes as the JSON string it stands for")
{
    for (const char* s : {"", "Player", "a longer name past the small-string buffer of std::string"})
    {
        Hasher hv, hj;
        hashValue(hv, Value(s));
        hashJson(hj, json(s));
        CHECK(hv.digest() == hj.digest());
        Hasher hs;
        hs.addU8(4);
        hs.addString(s);
        CHECK(hv.digest() == hs.digest());
    }
}
