// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The shape every attnviz-cli command has.
//
// A command is a class derived from Command, alone in its file cli/<command>.cpp with a
// factory make<Name>Command(); bench's subcommands are one file each (bench_forward.cpp,
// bench_train.cpp), the "bench" group itself has no work and no file (render alone keeps
// its class in render.h). CLI11 fills the command's option members during the parse;
// run() then does the work.
//
// cli.cpp holds the one list that registers every command, and is the one place where an
// error becomes a message and an exit code: run() reports failure by throwing
// attnviz::Error (or letting one through), never by exiting or printing the error itself.
//
// Adding a command: write cli/<name>.cpp with the class and its factory (CMake picks the
// file up), and declare the factory and add it to the list in cli.cpp.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iosfwd>
#include <memory>
#include <string>

namespace attnviz::cli {

// What a command's run() may use besides its options.
struct Context {
    std::ostream& out;  // results (standard output)
    std::ostream& err;  // progress and notes (standard error)
    bool errIsTty;      // err is a terminal: progress may redraw a line with \r
};

// The sizes of a benchmark training step (bench train, bench gemm), range-checked by the
// parser before anything is allocated or any thread started: a vocabulary of the 4 special
// tokens alone has no word to draw, and larger sizes overflow the products' int sizes.
inline void addStepSizeOptions(CLI::App* c, int& batch, int& len, int& threads, int& vocab,
                               const std::string& threadsHelp) {
    c->add_option("--batch-size", batch, "Sequences per step")
        ->capture_default_str()
        ->check(CLI::Range(1, 4096));
    c->add_option("--seq-len", len, "Source and target positions")
        ->capture_default_str()
        ->check(CLI::Range(2, 1024));
    c->add_option("--threads", threads, threadsHelp)
        ->capture_default_str()
        ->check(CLI::Range(1, 256));
    c->add_option("--vocab", vocab, "Vocabulary size (with the 4 special tokens)")
        ->capture_default_str()
        ->check(CLI::Range(5, 1000000));
}

// For unsigned 64-bit options such as --seed: refuses a negative number, which CLI11 would
// wrap round to 2^64 - 1, and a number above 2^64 - 1, which it would cut to that silently.
inline CLI::Validator nonNegative() {
    return CLI::Validator(
        [](std::string& s) {
            const auto first = s.find_first_not_of(" \t");
            if (first != std::string::npos && s[first] == '-') return "must be 0 or more, got " + s;
            auto digits = s.substr(first == std::string::npos ? s.size() : first);
            digits = digits.substr(0, digits.find_first_not_of("0123456789"));
            digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
            const std::string max = "18446744073709551615";
            if (digits.size() > max.size() || (digits.size() == max.size() && digits > max))
                return "must be at most " + max + ", got " + s.substr(0, 40);
            return std::string();
        },
        "NON-NEGATIVE");
}

class Command {
public:
    virtual ~Command() = default;
    // Adds the command's subcommand, with its options, to `parent` (the application or a
    // group such as "bench") and returns it.
    virtual CLI::App* add(CLI::App& parent) = 0;
    // Does the work once the command line has parsed and chose this command.
    virtual void run(const Context& ctx) = 0;
};

}  // namespace attnviz::cli
