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

/// Field offsets of a patrol's packed memory (NodeMemory::Patrol): its counter
/// (the next waypoint) and point (the point last requested), which a NodeState
/// holds, then what the tick derived from its route: the write stamp of the
/// route's blackboard slot (0: none), the counter and the route's size at that
/// stamp when `point` was set to that counter's waypoint (so that, while the
/// slot keeps the stamp, the waypoint is `point`: no JSON read). Derived data:
/// not in a NodeState (not hashed, not shown), cleared whenever the memory is
/// written from a NodeState.
struct PatrolMemory
{
    static constexpr size_t kCounter = 0;
    static constexpr size_t kPoint = 4;
    static constexpr size_t kRouteStamp = 28;
    static constexpr size_t kRouteCounter = 36;
    static constexpr size_t kRouteSize = 40;
    static constexpr size_t kBytes = 44;
};

} // namespace spark::ai
