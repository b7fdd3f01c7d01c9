#include "serve/batch_body.hpp"

#include <cstdint>

#include "serve/request_error.hpp"

namespace retro {

namespace {

const char* const SHAPE = "expected a JSON array of FEN strings or {\"fens\": [...]}";

// A reader of exactly the two shapes: no general JSON values, so no recursion and no depth to bound.
class BatchReader {
public:
    BatchReader(std::string_view text, size_t max_fens) : s_(text), max_fens_(max_fens) {}

    std::vector<std::string> read() {
        skip_space();
        if (peek() == '[') {
            read_fens();
        } else if (peek() == '{') {
            ++i_;
            skip_space();
            if (peek() == '}') fail(std::string("no \"fens\" member: ") + SHAPE);
            if (read_string() != "fens") fail(std::string("the only member is \"fens\": ") + SHAPE);
            expect(':');
            read_fens();
            expect('}');
        } else {
            fail(SHAPE);
        }
        skip_space();
        if (i_ != s_.size()) fail("unexpected text after the JSON value");
        return std::move(fens_);
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw RequestError(400, "batch body, at byte " + std::to_string(i_) + ": " + why);
    }
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    void skip_space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    void expect(char c) {
        skip_space();
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++i_;
    }

    void read_fens() {
        expect('[');
        skip_space();
        if (peek() == ']') {
            ++i_;
            return;
        }
        for (;;) {
            skip_space();
            if (fens_.size() == max_fens_)
                throw RequestError(413, "too many FENs in one batch: at most " + std::to_string(max_fens_));
            fens_.push_back(read_string());
            skip_space();
            if (peek() == ']') {
                ++i_;
                return;
            }
            expect(',');
        }
    }

    uint32_t read_hex4() {
        uint32_t v = 0;
        for (int k = 0; k < 4; ++k, ++i_) {
            const char c = peek();
            const int d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
            if (d < 0) fail("bad \\u escape");
            v = v * 16 + uint32_t(d);
        }
        return v;
    }

    static void append_utf8(std::string& out, uint32_t cp) {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }

    std::string read_string() {
        skip_space();
        if (peek() != '"') fail("expected a string");
        ++i_;
        std::string out;
        for (;;) {
            if (i_ >= s_.size()) fail("unterminated string");
            const char c = s_[i_++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            const char e = peek();
            ++i_;
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    uint32_t cp = read_hex4();
                    if (cp >= 0xD800 && cp <= 0xDBFF) {  // a surrogate pair
                        if (peek() != '\\' || i_ + 1 >= s_.size() || s_[i_ + 1] != 'u')
                            fail("unpaired surrogate");
                        i_ += 2;
                        const uint32_t low = read_hex4();
                        if (low < 0xDC00 || low > 0xDFFF) fail("unpaired surrogate");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        fail("unpaired surrogate");
                    }
                    append_utf8(out, cp);
                    break;
                }
                default:
                    --i_;
                    fail("bad escape in a string");
            }
        }
    }

    std::string_view s_;
    size_t i_ = 0;
    size_t max_fens_;
    std::vector<std::string> fens_;
};

}  // namespace

std::vector<std::string> parse_batch_body(std::string_view body, size_t max_fens) {
    return BatchReader(body, max_fens).read();
}

}  // namespace retro
