#pragma once
// Reading and writing values at byte offsets of a brain's packed node states
// (tree.h: NodeStates), by memcpy: the bytes have no alignment.

#include "spark/ai/world.h"

#include <cstring>

namespace spark::ai
{

template <class T> T loadAt(const unsigned char* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class T> void storeAt(unsigned char* p, const T& v) { std::memcpy(p, &v, sizeof v); }
inline Vec3 loadPoint(const unsigned char* p)
{
    return Vec3(loadAt<double>(p), loadAt<double>(p + 8), loadAt<double>(p + 16));
}
inline void storePoint(unsigned char* p, const Vec3& v)
{
    storeAt(p, v.x);
    storeAt(p + 8, v.y);
    storeAt(p + 16, v.z);
}

} // namespace spark::ai
