#pragma once
/// \file value.h
/// A blackboard value: null, a boolean, a number (a signed or an unsigned
/// integer, or a double), a string, a list of values or an object (values by
/// key, in key order). These are the kinds a blackboard may hold (a target's
/// name or point, a route of points, a count, a flag, what a game leaf keeps);
/// the two integer kinds and the double are kept apart so that a value read
/// from a document is written back and hashed exactly as it came. JSON is not
/// part of the type: value_json.h converts at the edges.
///
/// A value is 16 bytes: a kind and a scalar, an interned string (symbol.h:
/// copying and comparing a string value touches no text), or a pointer to its
/// list or object on the heap.

#include "spark/ai/symbol.h"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_AI_API_BEGIN

namespace spark
{
class Hasher;
}

namespace spark::ai
{

/// A blackboard value (see the file comment).
class Value
{
  public:
    enum class Kind : uint8_t
    {
        Null,
        Bool,
        Int,    ///< A signed integer.
        UInt,   ///< An unsigned integer (a document's non-negative integers).
        Double,
        String, ///< Interned (a Symbol).
        List,
        Object,
    };
    using List = std::vector<Value>;
    using Object = std::map<std::string, Value, std::less<>>;

    /// Null.
    Value() noexcept : m_int(0) {}
    Value(std::nullptr_t) noexcept : Value() {} // NOLINT(google-explicit-constructor): values are written as literals
    Value(bool v) noexcept : m_kind(Kind::Bool), m_bool(v) {} // NOLINT(google-explicit-constructor)
    /// A signed integer type gives Int, an unsigned one UInt.
    template <std::integral T>
        requires(!std::same_as<T, bool> && !std::same_as<T, char>)
    Value(T v) noexcept // NOLINT(google-explicit-constructor)
    {
        if constexpr (std::is_signed_v<T>)
        {
            m_kind = Kind::Int;
            m_int = v;
        }
        else
        {
            m_kind = Kind::UInt;
            m_uint = v;
        }
    }
    Value(double v) noexcept : m_kind(Kind::Double), m_double(v) {} // NOLINT(google-explicit-constructor)
    Value(Symbol s) noexcept : m_kind(Kind::String), m_symbol(s) {}     // NOLINT(google-explicit-constructor)
    Value(std::string_view s) : Value(Symbol::intern(s)) {}           // NOLINT(google-explicit-constructor)
    Value(const char* s) : Value(std::string_view(s)) {}              // NOLINT(google-explicit-constructor)
    Value(const std::string& s) : Value(std::string_view(s)) {}       // NOLINT(google-explicit-constructor)
    Value(List items) : m_kind(Kind::List), m_list(new List(std::move(items))) {}          // NOLINT
    Value(Object fields) : m_kind(Kind::Object), m_object(new Object(std::move(fields))) {} // NOLINT

    Value(const Value& other) : m_int(0) { copyFrom(other); }
    Value(Value&& other) noexcept : m_kind(other.m_kind), m_int(other.m_int)
    {
        other.m_kind = Kind::Null;
        other.m_int = 0;
    }
    Value& operator=(const Value& other)
    {
        if (this != &other)
        {
            Value copy(other);
            swap(copy);
        }
        return *this;
    }
    Value& operator=(Value&& other) noexcept
    {
        if (this != &other)
        {
            release();
            m_kind = other.m_kind;
            m_int = other.m_int;
            other.m_kind = Kind::Null;
            other.m_int = 0;
        }
        return *this;
    }
    ~Value() { release(); }

    /// A list of `items`: `Value::list({1, 2, 3})`.
    static Value list(List items = {}) { return Value(std::move(items)); }
    /// An object of `fields`: `Value::object({{"x", 1}})`.
    static Value object(Object fields = {}) { return Value(std::move(fields)); }

    Kind kind() const { return m_kind; }
    bool isNull() const { return m_kind == Kind::Null; }
    bool isBool() const { return m_kind == Kind::Bool; }
    /// An integer or a double.
    bool isNumber() const { return m_kind == Kind::Int || m_kind == Kind::UInt || m_kind == Kind::Double; }
    /// An integer kind (Int or UInt).
    bool isInteger() const { return m_kind == Kind::Int || m_kind == Kind::UInt; }
    bool isString() const { return m_kind == Kind::String; }
    bool isList() const { return m_kind == Kind::List; }
    bool isObject() const { return m_kind == Kind::Object; }

    /// The boolean. [Limit: isBool()]
    bool boolean() const { return m_bool; }
    /// The signed integer. [Limit: kind() == Int]
    int64_t int64() const { return m_int; }
    /// The unsigned integer. [Limit: kind() == UInt]
    uint64_t uint64() const { return m_uint; }
    /// The number as a double (an integer converted); false when not a number.
    bool numberOf(double& out) const
    {
        switch (m_kind)
        {
        case Kind::Double: out = m_double; return true;
        case Kind::Int: out = static_cast<double>(m_int); return true;
        case Kind::UInt: out = static_cast<double>(m_uint); return true;
        default: return false;
        }
    }
    /// The number as a double; 0 when not a number.
    double number() const
    {
        double d = 0;
        (void)numberOf(d);
        return d;
    }
    /// The string. [Limit: isString()]
    const std::string& string() const { return m_symbol.name(); }
    /// The string as interned. [Limit: isString()]
    Symbol symbol() const { return m_symbol; }
    /// The items. [Limit: isList()]
    const List& items() const { return *m_list; }
    List& items() { return *m_list; }
    /// The fields. [Limit: isObject()]
    const Object& fields() const { return *m_object; }
    Object& fields() { return *m_object; }
    /// The field `key` of an object, or nullptr (also for a value that is no object).
    const Value* find(std::string_view key) const;
    /// Items of a list, fields of an object, else 0.
    size_t size() const;

    /// True when the value is a point: a list of exactly three finite numbers.
    bool isFinitePoint() const;

    void swap(Value& other) noexcept
    {
        std::swap(m_kind, other.m_kind);
        std::swap(m_int, other.m_int);
    }

    /// Equal values. Numbers compare by value across the three number kinds
    /// (1 == 1.0; a NaN equals nothing), lists item by item, objects field by
    /// field; values of different kinds are otherwise unequal.
    friend bool operator==(const Value& a, const Value& b);

  private:
    void copyFrom(const Value& other);
    void release() noexcept;

    Kind m_kind = Kind::Null;
    union
    {
        bool m_bool;
        int64_t m_int;
        uint64_t m_uint;
        double m_double;
        Symbol m_symbol;
        List* m_list;
        Object* m_object;
    };
};

/// Feeds a value canonically into `io`: a kind tag, then the value (Null 0;
/// Bool 1 and a byte; Int and UInt 2 and 64 bits; Double 3 and its bit
/// pattern; String 4 and the string; List 5, the count and the items; Object
/// 6, the count, then each key and value in key order). These are the bytes
/// hashJson feeds for the JSON value a value stands for (value_json.h), so a
/// hash is the same whichever form it was taken of.
void hashValue(Hasher& io, const Value& value);

} // namespace spark::ai
SPARK_AI_API_END
