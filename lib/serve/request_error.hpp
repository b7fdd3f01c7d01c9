// A request the server refuses: the HTTP status to answer with and the reason to show the client.
#pragma once

#include <stdexcept>
#include <string>

namespace retro {

class RequestError : public std::runtime_error {
public:
    RequestError(int status, const std::string& reason) : std::runtime_error(reason), status_(status) {}
    int status() const { return status_; }

private:
    int status_;
};

}  // namespace retro
