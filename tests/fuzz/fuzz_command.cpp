// Fuzz target: the command surface. An input is what `spark run` reads — JSON
// request lines, run one after the other on one fresh session (so a load can
// feed a bake and a query). Every answer must be an envelope that serialises,
// and none may be E_INTERNAL (results are checked against their schemas and a
// failed mutating command must leave the state hash as it was).

#include "fuzz_common.h"

#include "spark/scene/session_state.h"

namespace
{
/// Most request lines run per input (keeps each input's time bounded).
constexpr int kMaxLines = 16;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace spark;
    const std::string_view text = fuzz::asText(data, size);
    cli::Dispatcher& dispatcher = fuzz::dispatcher();
    scene::SessionState state;
    size_t start = 0;
    for (int line = 0; line < kMaxLines && start <= text.size(); ++line)
    {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view request = text.substr(start, end - start);
        start = end + 1;
        if (request.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        const cli::json answer = dispatcher.executeText(state, request);
        fuzz::checkEnvelope(answer, "spark run");
        const std::string out = cli::dumpJson(answer);
        if (out.empty())
            fuzz::finding("spark run: an answer serialised to nothing", request);
    }
    fuzz::ScratchProject::get().restore();
    return 0;
}
