// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// attnviz-cli run in-process for the CLI tests: its exit code and what it wrote.
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "tests/expect.h"

namespace attnviz::test {

struct CliResult {
    int code;
    std::string out, err;
};

// Runs `attnviz-cli ARGS…` (the program name is added).
inline CliResult runCli(std::vector<std::string> args) {
    args.insert(args.begin(), "attnviz-cli");
    std::vector<const char*> argv;
    for (auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    const int code = attnviz::cli::run(int(argv.size()), argv.data(), out, err);
    return {code, out.str(), err.str()};
}
inline CliResult cli(std::vector<std::string> args) {
    return runCli(std::move(args));
}

}  // namespace attnviz::test
