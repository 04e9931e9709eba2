#pragma once
// Reading JSON numbers and points on the tick's path (internal): a switch on the
// stored type and a load, not nlohmann's generic conversion. The values are the
// ones get<double>() gives (integers converted with static_cast<double>).
#include "spark/ai/leaves.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace spark::ai::detail
{

/// The number `v` holds as a double; false when `v` is not a number.
inline bool numberOf(const nlohmann::json& v, double& out)
{
    using T = nlohmann::json::value_t;
    switch (v.type())
    {
    case T::number_float: out = *v.get_ptr<const nlohmann::json::number_float_t*>(); return true;
    case T::number_integer:
        out = static_cast<double>(*v.get_ptr<const nlohmann::json::number_integer_t*>());
        return true;
    case T::number_unsigned:
        out = static_cast<double>(*v.get_ptr<const nlohmann::json::number_unsigned_t*>());
        return true;
    default: return false;
    }
}

/// The number `v` holds as a double. [Limit: v is a number]
inline double numberAt(const nlohmann::json& v)
{
    double d = 0;
    (void)numberOf(v, d);
    return d;
}

/// True when `v` is a point: an array of exactly three finite numbers.
inline bool isFinitePoint(const nlohmann::json& v)
{
    const auto* a = v.get_ptr<const nlohmann::json::array_t*>();
    if (!a || a->size() != 3)
        return false;
    for (const nlohmann::json& c : *a)
    {
        double d = 0;
        if (!numberOf(c, d) || !std::isfinite(d))
            return false;
    }
    return true;
}

} // namespace spark::ai::detail
