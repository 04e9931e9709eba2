// Blackboard look-ups and the canonical hashing of JSON values.
#include "spark/ai/blackboard.h"
#include "spark/core/hash.h"

namespace spark::ai
{

const json* blackboardFind(const Blackboard& bb, std::string_view key)
{
    if (!bb.is_object())
        return nullptr;
    const auto it = bb.find(key);
    return it == bb.end() ? nullptr : &*it;
}

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
