#pragma once
// What the space3d.* command files share: the session's world once it has a
// scene document, or the E_SCENE_NONE answer; an object by name, or E_SCENE_UNKNOWN_OBJECT at `field`.

#include "surface/registry.h"

#include "spark/scene/world.h"

#include <string>

namespace spark::cli
{

/// The session's world; fails with E_SCENE_NONE until space3d.new or space3d.load gave it a scene document.
inline scene::World& requireScene(Context& ctx)
{
    if (!ctx.state.world.hasScene())
        fail("E_SCENE_NONE", "There is no 3D scene in this session.", json::object(),
             "Create one with space3d.new or load one with space3d.load.");
    return ctx.state.world;
}

/// The object named `name`; fails with E_SCENE_UNKNOWN_OBJECT at `field`.
inline scene::ObjectId requireObject(const scene::World& world, const std::string& name,
                                     const std::string& field = "/name")
{
    const scene::ObjectId id = world.findObject(name);
    if (!id.valid())
        fail("E_SCENE_UNKNOWN_OBJECT", "There is no object named \"" + name + "\".", {{"path", field}},
             "space3d.list shows the objects.");
    return id;
}

} // namespace spark::cli
