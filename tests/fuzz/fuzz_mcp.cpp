// Fuzz target: MCP lines. An input is what `spark mcp` reads — JSON-RPC
// messages, one per line, answered in one fresh session. Every answer must be
// one line of JSON-RPC 2.0; none may be an internal error (-32603), and a tool
// call's text must be an envelope without E_INTERNAL.

#include "fuzz_common.h"

#include "runners/mcp.h"
#include "spark/scene/session_state.h"

namespace
{
/// Most messages answered per input.
constexpr int kMaxLines = 16;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace spark;
    using cli::json;
    const std::string_view text = fuzz::asText(data, size);
    cli::Dispatcher& dispatcher = fuzz::dispatcher();
    scene::SessionState state;
    size_t start = 0;
    for (int line = 0; line < kMaxLines && start <= text.size(); ++line)
    {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view message = text.substr(start, end - start);
        start = end + 1;
        if (message.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        const std::string answer = cli::handleMcpMessage(dispatcher, state, message);
        if (answer.empty())
            continue; // a notification
        if (answer.find('\n') != std::string::npos)
            fuzz::finding("mcp: an answer of more than one line", answer);
        const json reply = json::parse(answer, nullptr, false);
        if (reply.is_discarded() || !reply.is_object() || reply.value("jsonrpc", json()) != "2.0")
            fuzz::finding("mcp: an answer that is not JSON-RPC 2.0", answer);
        if (reply.contains("error"))
        {
            if (reply["error"].value("code", json()) == -32603)
                fuzz::finding("mcp: internal error", std::string(message) + "\n" + answer);
            continue;
        }
        const json& result = reply["result"];
        if (result.is_object() && result.contains("content") && result["content"].is_array() &&
            !result["content"].empty() && result["content"][0].contains("text"))
        {
            const json payload = json::parse(result["content"][0]["text"].get<std::string>(), nullptr, false);
            if (payload.is_discarded())
                fuzz::finding("mcp: a tool answer whose text is not JSON", answer);
            if (result.value("isError", false))
                fuzz::checkEnvelope(payload, "mcp tools/call");
        }
    }
    fuzz::ScratchProject::get().restore();
    return 0;
}
