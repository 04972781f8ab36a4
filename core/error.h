// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>

namespace attnviz {

// Every failure of the engine (bad input, bad file, bad configuration) is reported by
// throwing an Error whose message names the problem in words a user can act on.
// The engine never exits the process; the CLI and the UI catch and show the message.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace attnviz
