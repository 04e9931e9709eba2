#pragma once
/// \file session_state.h
/// Everything one session owns: the detached navigation state (2D meshes,
/// crowds), the AI state, the 2D scene and (later) the 3D scene with its own
/// navigation state. Plain value semantics: the command dispatcher copies it
/// before a mutating command and keeps the copy only when the command succeeds,
/// so a failed command changes nothing. Every member must therefore be copyable
/// and must not hold pointers into other members.

#include "spark/ai/brain.h"
#include "spark/scene/nav_state.h"
#include "spark/scene/scene2d.h"
#include "spark/scene/scene3d.h"

#include <cstdint>
#include <optional>

namespace spark::scene
{

/// The state of one session.
struct SessionState
{
    // Members are added by the parts that own them (navigation, AI, scenes).
    // Keep each one a copyable value.
    NavState nav;                   ///< Named navigation meshes (nav.*).
    ai::AiState ai;                 ///< Trees, utility documents, brains and the AI event log (ai.*).
    std::optional<Scene2D> scene2d; ///< The session's 2D tile scene (scene2d.*), when one was made or loaded.
    std::optional<Scene3D> scene3d; ///< The session's 3D scene document (space3d.*), when one was made or loaded.
    uint64_t commandsRun = 0; ///< Successful mutating commands so far (diagnostics only, not hashed).
};

} // namespace spark::scene
