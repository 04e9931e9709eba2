// Fuzz target: scenario and test documents. An input is either a test file
// ({"version", "name", "tests": [...]}, when the document has "tests", or any
// text that is not JSON), run by `spark test` on the scratch project, or a
// scenario ({"version", "name", "steps": [...]}), run inline by
// `ai.scenario.run` on a fresh session, where no step may answer E_INTERNAL,
// nested runs included. (`spark test` prints text that quotes the input, so
// its runs are checked by the sanitizers only: the steps of a test are a
// scenario's, checked through the other branch.)

#include "fuzz_common.h"

#include "runners/test_runner.h"
#include "spark/scene/session_state.h"

#include <fstream>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace spark;
    const std::string_view text = fuzz::asText(data, size);
    cli::json doc;
    std::string why;
    const bool parsed = cli::parseJsonText(text, doc, why);
    fuzz::ScratchProject& project = fuzz::ScratchProject::get();
    if (!parsed || (doc.is_object() && doc.contains("tests")))
    {
        // A test file, bytes as given (spark test reads and parses it itself).
        {
            std::ofstream file(project.root() / "fuzz.test.json", std::ios::binary | std::ios::trunc);
            file.write(text.data(), static_cast<std::streamsize>(text.size()));
        }
        project.ignoreChanges();
        cli::TestRunOptions options;
        options.paths = {"fuzz.test.json"};
        options.projectRoot = project.root();
        std::ostringstream out, err;
        const int status = cli::runTests(options, out, err);
        if (status < 0 || status > 2)
            fuzz::finding("spark test: an exit code other than 0, 1 or 2", out.str() + err.str());
    }
    else
    {
        scene::SessionState state;
        const cli::json answer = fuzz::dispatcher().call(state, "ai.scenario.run", {{"doc", doc}});
        fuzz::checkEnvelope(answer, "ai.scenario.run");
    }
    project.restore();
    return 0;
}
