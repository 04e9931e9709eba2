#pragma once
/// \file crowd_step_scratch.h
/// The per-agent arrays of one crowd's step (private to libnav; a `Crowd`
/// keeps them, crowd_phases.h), reset at each step and kept between steps so
/// a step allocates nothing once they have grown to the crowd.

#include "congestion.h"
#include "spark/nav/crowd.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace spark::nav
{

/// The per-agent arrays of a crowd step. A phase run on several threads
/// writes only agent i's entries for agent i.
struct CrowdStepData
{
    /// An agent in the neighbour grid: its cell (x and z cell coordinates packed) and its index in the step.
    struct Cell
    {
        uint64_t cell = 0;
        uint32_t index = 0;
    };
    /// Agents sorted by (cell, index).
    std::vector<Cell> grid;
    /// The walking agents sorted by (cell, index) in keep-right's wider cells.
    std::vector<Cell> sideGrid;
    /// Per agent: the agents of the step (pointers into the world, valid during the step).
    std::vector<CrowdAgent*> agents;
    /// Per agent: its position (x, z). [Units: m]
    std::vector<glm::dvec2> position;
    /// Per agent i: the other agents within one cell width of it, in grid order,
    /// are `nearList[nearStart[i] .. nearStart[i + 1])`.
    std::vector<uint32_t> nearStart;
    std::vector<uint32_t> nearList;
    /// Per agent: 1 = its corridor was planned again this step (`Crowd::plan`).
    std::vector<uint8_t> plannedAgain;
    /// Per agent: the unit direction it wants to walk in (x, z), when `walking`.
    std::vector<glm::dvec2> heading;
    /// Per agent: 1 = follows its corridor and wants to move.
    std::vector<uint8_t> walking;
    /// Per agent of the step: 1 = stands (not moving), 0 = moves.
    std::vector<uint8_t> standing;
    /// The agents in the order they choose whom to give way to: the stuck ones first.
    std::vector<uint32_t> giveWayOrder;
    /// Per agent: the index of the agent it gives way to this step, or 0xffffffff.
    std::vector<uint32_t> givesWayTo;
    /// Per agent: the velocity it prefers after the traffic rules (the avoidance's input). [Units: m/s]
    std::vector<glm::dvec2> preferred;
    /// Per agent: the velocity it moves at this step. [Units: m/s]
    std::vector<glm::dvec2> velocity;
    /// Per agent: 1 = moves at the avoidance's velocity (no acceleration limit, or the limit was unsafe).
    std::vector<uint8_t> avoided;
    /// Per agent: its position before the move along the surface. [Units: m]
    std::vector<glm::vec3> before;
    /// Per agent: 1 = its move was taken back this step (it came too near another).
    std::vector<uint8_t> heldBack;
    /// One agent's walls by distance (squared) when it may keep only its nearest.
    std::vector<std::pair<double, uint32_t>> wallOrder;
    /// The crowding of the stepped mesh's polygons and the detour search's arrays.
    Congestion congestion;
    /// A detour's polygons.
    std::vector<uint32_t> detour;
};

} // namespace spark::nav
