// Bounded line reading for the request streams.

#include "surface/lines.h"

namespace spark::cli
{

LineRead readBoundedLine(std::istream& in, std::string& out, size_t maxBytes)
{
    out.clear();
    bool any = false;
    bool tooLong = false;
    std::streambuf* buf = in.rdbuf();
    for (;;)
    {
        const int c = buf->sbumpc();
        if (c == std::char_traits<char>::eof())
        {
            in.setstate(std::ios::eofbit);
            if (!any)
                return LineRead::End;
            break;
        }
        any = true;
        if (c == '\n')
            break;
        if (tooLong)
            continue;
        if (out.size() >= maxBytes)
        {
            tooLong = true;
            out.clear();
            out.shrink_to_fit();
            continue;
        }
        out.push_back(static_cast<char>(c));
    }
    return tooLong ? LineRead::TooLong : LineRead::Line;
}

bool readAllBounded(std::istream& in, std::string& out, size_t maxBytes)
{
    out.clear();
    char chunk[65536];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0)
    {
        const size_t n = static_cast<size_t>(in.gcount());
        if (out.size() + n > maxBytes)
        {
            out.clear();
            return false;
        }
        out.append(chunk, n);
    }
    return true;
}

} // namespace spark::cli
