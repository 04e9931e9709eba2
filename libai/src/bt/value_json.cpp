// Blackboard values to and from JSON.
#include "spark/ai/value_json.h"

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

} // namespace spark::ai
