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

// A computation given up because its caller asked (a newer request replaced it): not a
// failure to show, the caller drops the result.
class Cancelled : public Error {
public:
    Cancelled() : Error("cancelled: a newer request replaced this one") {}
};

}  // namespace attnviz
