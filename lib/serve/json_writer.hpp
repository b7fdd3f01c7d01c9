// A small JSON writer for the server's answers: objects, arrays, strings, integers, booleans and
// null, with the commas placed by the writer, and strings always valid JSON (escaped, valid UTF-8).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace retro {

// Appends s to out as a quoted JSON string: quotes, backslashes and control characters escaped, and
// each byte that is not part of valid UTF-8 replaced by U+FFFD (error messages may quote a client's
// bytes).
void append_json_string(std::string& out, std::string_view s);

// Writes one JSON value front to back: begin_object(); key("dtm"); number(13); end_object(). Every
// value inside an object follows its key(); nesting is checked with asserts only.
class JsonWriter {
public:
    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view name);
    JsonWriter& string(std::string_view s);
    JsonWriter& number(int64_t n);
    JsonWriter& boolean(bool b);
    JsonWriter& null();
    // A value already written as JSON (by another JsonWriter), copied as it is.
    JsonWriter& raw(std::string_view json);

    const std::string& str() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    void before_value();  // the comma between elements of an array
    JsonWriter& open(char bracket);
    JsonWriter& close(char bracket);
    std::string out_;
    std::vector<bool> empty_;  // per open object or array: no element written yet
    bool after_key_ = false;
};

}  // namespace retro
