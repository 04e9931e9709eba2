// Crowd agent defs: defaults and the search box of an agent.

#include "spark/nav/crowd.h"

namespace spark::nav
{

glm::vec3 agentSearchExtents(const CrowdAgentDef& def)
{
    return glm::vec3(def.radius * 2.0f + 0.5f, def.height, def.radius * 2.0f + 0.5f);
}

} // namespace spark::nav
