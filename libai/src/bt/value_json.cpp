// Blackboard values and blackboards to and from JSON; the canonical hashing of JSON values.
#include "spark/ai/value_json.h"
#include "spark/core/hash.h"

namespace spark::ai
{

Value valueFromJson(const json& j)
{
    switch (j.type())
    {
    case json::value_t::boolean: return Value(j.get<bool>());
    case json::value_t::number_integer: return Value(j.get<int64_t>());
    case json::value_t::number_unsigned: return Value(j.get<uint64_t>());
    case json::value_t::number_float: return Value(j.get<double>());
    case json::value_t::string: return Value(j.get_ref<const std::string&>());
    case json::value_t::array:
    {
        Value::List items;
        items.reserve(j.size());
        for (const json& item : j)
            items.push_back(valueFromJson(item));
        return Value(std::move(items));
    }
    case json::value_t::object:
    {
        Value::Object fields;
        for (auto it = j.begin(); it != j.end(); ++it)
            fields.emplace_hint(fields.end(), it.key(), valueFromJson(it.value()));
        return Value(std::move(fields));
    }
    default: return Value();
    }
}

json valueToJson(const Value& value)
{
    switch (value.kind())
    {
    case Value::Kind::Null: return json();
    case Value::Kind::Bool: return json(value.boolean());
    case Value::Kind::Int: return json(value.int64());
    case Value::Kind::UInt: return json(value.uint64());
    case Value::Kind::Double: return json(value.number());
    case Value::Kind::String: return json(value.string());
    case Value::Kind::List:
    {
        json out = json::array();
        for (const Value& item : value.items())
            out.push_back(valueToJson(item));
        return out;
    }
    case Value::Kind::Object:
    {
        json out = json::object();
        for (const auto& [key, field] : value.fields())
            out[key] = valueToJson(field);
        return out;
    }
    }
    return json();
}

void to_json(json& out, const Value& value) { out = valueToJson(value); }

void from_json(const json& j, Value& out) { out = valueFromJson(j); }

Blackboard blackboardFromJson(const json& object)
{
    Blackboard bb;
    if (object.is_object())
        for (auto it = object.begin(); it != object.end(); ++it)
            bb.set(bb.slotOf(it.key())) = valueFromJson(it.value());
    return bb;
}

json blackboardToJson(const Blackboard& bb)
{
    json out = json::object();
    bb.forEach([&](const std::string& key, const Value& value) { out[key] = valueToJson(value); });
    return out;
}

void to_json(json& out, const Blackboard& bb) { out = blackboardToJson(bb); }

void hashJson(Hasher& io, const json& value)
{
    switch (value.type())
    {
    case json::value_t::null: io.addU8(0); break;
    case json::value_t::boolean:
        io.addU8(1);
        io.addBool(value.get<bool>());
        break;
    case json::value_t::number_integer:
        io.addU8(2);
        io.addI64(value.get<int64_t>());
        break;
    case json::value_t::number_unsigned:
        io.addU8(2);
        io.addU64(value.get<uint64_t>());
        break;
    case json::value_t::number_float:
        io.addU8(3);
        io.addF64(value.get<double>());
        break;
    case json::value_t::string:
        io.addU8(4);
        io.addString(value.get_ref<const std::string&>());
        break;
    case json::value_t::array:
        io.addU8(5);
        io.addU64(value.size());
        for (const json& v : value)
            hashJson(io, v);
        break;
    case json::value_t::object:
        io.addU8(6);
        io.addU64(value.size());
        for (auto it = value.begin(); it != value.end(); ++it)
        {
            io.addString(it.key());
            hashJson(io, it.value());
        }
        break;
    default: io.addU8(7); break;
    }
}

} // namespace spark::ai
