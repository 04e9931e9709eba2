// Blackboard values: copying, equality and the canonical hash bytes.
#include "spark/ai/value.h"
#include "spark/core/hash.h"

#include <cmath>

namespace spark::ai
{

void Value::copyFrom(const Value& other)
{
    switch (other.m_kind)
    {
    case Kind::List: m_list = new List(*other.m_list); break;
    case Kind::Object: m_object = new Object(*other.m_object); break;
    default: m_int = other.m_int; break;
    }
    m_kind = other.m_kind;
}

void Value::release() noexcept
{
    switch (m_kind)
    {
    case Kind::List: delete m_list; break;
    case Kind::Object: delete m_object; break;
    default: break;
    }
    m_kind = Kind::Null;
    m_int = 0;
}

const Value* Value::find(std::string_view key) const
{
    if (m_kind != Kind::Object)
        return nullptr;
    const auto it = m_object->find(key);
    return it == m_object->end() ? nullptr : &it->second;
}

size_t Value::size() const
{
    switch (m_kind)
    {
    case Kind::List: return m_list->size();
    case Kind::Object: return m_object->size();
    default: return 0;
    }
}

bool Value::isFinitePoint() const
{
    if (m_kind != Kind::List || m_list->size() != 3)
        return false;
    for (const Value& c : *m_list)
    {
        double d = 0;
        if (!c.numberOf(d) || !std::isfinite(d))
            return false;
    }
    return true;
}

bool operator==(const Value& a, const Value& b)
{
    using Kind = Value::Kind;
    if (a.m_kind == b.m_kind)
    {
        switch (a.m_kind)
        {
        case Kind::Null: return true;
        case Kind::Bool: return a.m_bool == b.m_bool;
        case Kind::Int: return a.m_int == b.m_int;
        case Kind::UInt: return a.m_uint == b.m_uint;
        case Kind::Double: return a.m_double == b.m_double;
        case Kind::String: return a.m_symbol == b.m_symbol;
        case Kind::List: return *a.m_list == *b.m_list;
        case Kind::Object: return *a.m_object == *b.m_object;
        }
        return false;
    }
    // Numbers of two kinds: as JSON compares them (a signed and an unsigned
    // integer as signed 64-bit ones, an integer and a double as doubles).
    if (a.isInteger() && b.isInteger())
    {
        const int64_t x = a.m_kind == Kind::Int ? a.m_int : static_cast<int64_t>(a.m_uint);
        const int64_t y = b.m_kind == Kind::Int ? b.m_int : static_cast<int64_t>(b.m_uint);
        return x == y;
    }
    if (a.isNumber() && b.isNumber())
        return a.number() == b.number();
    return false;
}

void hashValue(Hasher& io, const Value& value)
{
    switch (value.kind())
    {
    case Value::Kind::Null: io.addU8(0); break;
    case Value::Kind::Bool:
        io.addU8(1);
        io.addBool(value.boolean());
        break;
    case Value::Kind::Int:
        io.addU8(2);
        io.addI64(value.int64());
        break;
    case Value::Kind::UInt:
        io.addU8(2);
        io.addU64(value.uint64());
        break;
    case Value::Kind::Double:
        io.addU8(3);
        io.addF64(value.number());
        break;
    case Value::Kind::String:
        io.addU8(4);
        io.addString(value.string());
        break;
    case Value::Kind::List:
        io.addU8(5);
        io.addU64(value.items().size());
        for (const Value& v : value.items())
            hashValue(io, v);
        break;
    case Value::Kind::Object:
        io.addU8(6);
        io.addU64(value.fields().size());
        for (const auto& [key, v] : value.fields())
        {
            io.addString(key);
            hashValue(io, v);
        }
        break;
    }
}

} // namespace spark::ai
