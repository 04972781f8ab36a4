// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

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

// "a", "a or b", "a, b or c": the values a message says are accepted, from the table that
// checks them, so the message cannot drift from the check.
inline std::string alternatives(const std::vector<std::string>& names) {
    std::string text;
    for (size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return text;
}

}  // namespace attnviz
