// Response curves of utility considerations (the curve families of Dave Mark's
// "Infinite Axis Utility System", GDC 2013/2015). Every curve takes x in 0..1
// and answers in 0..1; exp and pow come from spark::det (docs/determinism.md).
#include "spark/ai/utility.h"
#include "spark/core/det_math.h"

#include <algorithm>

namespace spark::ai
{

const char* curveTypeName(CurveType type)
{
    switch (type)
    {
    case CurveType::Linear: return "linear";
    case CurveType::Power: return "power";
    case CurveType::Logistic: return "logistic";
    case CurveType::Step: return "step";
    case CurveType::Smoothstep: return "smoothstep";
    case CurveType::Inverse: return "inverse";
    case CurveType::Constant: return "constant";
    case CurveType::Count: break;
    }
    return "?";
}

const std::vector<std::string>& curveTypeNames()
{
    static const std::vector<std::string> kNames = [] {
        std::vector<std::string> n;
        for (int i = 0; i < static_cast<int>(CurveType::Count); ++i)
            n.push_back(curveTypeName(static_cast<CurveType>(i)));
        return n;
    }();
    return kNames;
}

double evaluateCurve(const Curve& curve, double x)
{
    x = std::clamp(x, 0.0, 1.0);
    double y = 0;
    switch (curve.type)
    {
    case CurveType::Linear: y = curve.slope * x + curve.intercept; break;
    case CurveType::Power: y = det::pow(x, curve.exponent); break;
    case CurveType::Logistic:
        y = 1.0 / (1.0 + det::exp(std::clamp(-curve.steepness * (x - curve.midpoint), -700.0, 700.0)));
        break;
    case CurveType::Step: y = x >= curve.threshold ? 1.0 : 0.0; break;
    case CurveType::Smoothstep:
    {
        const double t = std::clamp((x - curve.edge0) / (curve.edge1 - curve.edge0), 0.0, 1.0);
        y = t * t * (3.0 - 2.0 * t);
        break;
    }
    case CurveType::Inverse: y = 1.0 - x; break;
    case CurveType::Constant: y = curve.value; break;
    case CurveType::Count: break;
    }
    return std::clamp(y, 0.0, 1.0);
}

} // namespace spark::ai
