#pragma once
/// \file neighbor_grid_2d.h
/// The k nearest agents on the plane, exactly (neighbor_grid_2d.cpp).

#include "strip_grid.h"

namespace spark::nav::detail
{

/// A grid of strips across y over the agents, rebuilt each step, answering
/// "the k nearest within a distance" exactly, in the order (squared distance,
/// id, index).
class NeighborGrid2D : public StripGrid<2>
{
public:
    /// As StripGrid::build, then the list of strips each strip's queries walk.
    void build(std::span<const glm::dvec2> positions, std::span<const uint32_t> ids, double range,
               std::size_t expectedCount = 0);
    /// Writes to out[0, maxCount) the at most `maxCount` agents nearest to agent
    /// `self` whose centre distance is below `range` (<= the build range);
    /// returns how many. `guessSq` (0: none) is a squared distance the k
    /// nearest probably lie within: tried first, the whole range only when
    /// fewer than k lie within it. It changes the work, never the answer.
    std::size_t query(std::size_t self, double range, std::size_t maxCount, Neighbor* out, double guessSq,
                      Cursor& cursor) const;
    /// The same with the grid's own cursor (one thread).
    std::size_t query(std::size_t self, double range, std::size_t maxCount, Neighbor* out,
                      double guessSq = 0.0) const;
    /// The same into a vector (resized to what was found).
    void query(std::size_t self, double range, std::size_t maxCount, std::vector<Neighbor>& out) const;

private:
    /// A strip a query walks from another (its home): its nominal squared
    /// distance, its y nearest the home strip (its largest y below it, its
    /// smallest above) and the strip.
    struct NearStrip
    {
        double floorSq;
        double edgeY;
        uint64_t strip;
    };
    std::size_t search(std::size_t self, double rangeSq, double startBound, std::size_t maxCount, Neighbor* out,
                       Cursor& cursor) const;
    /// Per strip holding agents, from m_nearFirst[strip] on: the strips in
    /// reach that hold agents, nearest first (the home strip left out), then
    /// a record of floorSq +∞ that ends the walk.
    std::vector<NearStrip> m_near;
    std::vector<uint32_t> m_nearFirst;
    mutable Cursor m_cursor;
};

} // namespace spark::nav::detail
