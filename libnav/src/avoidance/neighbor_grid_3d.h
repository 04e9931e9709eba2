#pragma once
/// \file neighbor_grid_3d.h
/// The k nearest agents in space, exactly (neighbor_grid_3d.cpp).

#include "strip_grid.h"

namespace spark::nav::detail
{

/// A grid of columns across y and z over the agents, rebuilt each step,
/// answering "the k nearest within a distance" exactly, in the order
/// (squared distance, id, index).
class NeighborGrid3D : public StripGrid<3>
{
public:
    /// As StripGrid::build (and the grid's own cursor reset).
    void build(std::span<const glm::dvec3> positions, std::span<const uint32_t> ids, double range,
               std::size_t expectedCount = 0);
    /// As NeighborGrid2D::query, in space.
    std::size_t query(std::size_t self, double range, std::size_t maxCount, Neighbor* out, double guessSq,
                      Cursor& cursor) const;
    /// The same with the grid's own cursor (one thread).
    std::size_t query(std::size_t self, double range, std::size_t maxCount, Neighbor* out,
                      double guessSq = 0.0) const;
    /// The same into a vector (resized to what was found).
    void query(std::size_t self, double range, std::size_t maxCount, std::vector<Neighbor>& out) const;

private:
    std::size_t search(std::size_t self, double rangeSq, double startBound, std::size_t maxCount, Neighbor* out,
                       Cursor& cursor) const;
    mutable Cursor m_cursor;
};

} // namespace spark::nav::detail
