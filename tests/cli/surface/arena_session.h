#pragma once
// Pieces of the sessions the dispatcher tests build on the arena sample.

#include "surface/dispatcher.h"

namespace arena_session
{

/// `space3d.spawn` params of the guard: a character with the guard tree on the "arena" mesh.
inline spark::cli::json guardSpawn()
{
    return {{"name", "Guard"},
            {"components",
             {{"Transform3D", {{"position", {-6, 0.95, -6}}}},
              {"CharacterController", {{"height", 1.8}, {"radius", 0.4}}},
              {"AiAgent", {{"mesh", "arena"}, {"tree", "guard"}, {"blackboard", {{"target", "Player"}}}}}}}};
}

} // namespace arena_session
