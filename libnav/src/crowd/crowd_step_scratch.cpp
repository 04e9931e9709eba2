// The crowd step's working memory: made empty, never copied (its contents
// mean nothing between steps).

#include "crowd_phases.h"

#include <memory>

namespace spark::nav
{

CrowdStepScratch::CrowdStepScratch() : m_data(std::make_unique<Data>()) {}
CrowdStepScratch::~CrowdStepScratch() = default;
CrowdStepScratch::CrowdStepScratch(const CrowdStepScratch&) : m_data(std::make_unique<Data>()) {}
CrowdStepScratch& CrowdStepScratch::operator=(const CrowdStepScratch&)
{
    return *this; // each keeps its own arrays
}

} // namespace spark::nav
