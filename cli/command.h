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
//
// Files: add() declares every option that names a file the command reads or writes, as it
// adds it: `input(c->add_option("--model", m_model, "Checkpoint"))->required();`,
// `output(c->add_option("--out", m_out, "Output file"))`. Before any run(), cli.cpp checks
// the one rule for them (core/file_io.h, checkDistinctFiles): no output is the same file as
// an input or as another output, after symbolic and hard links. tests/cli walks every
// command's declared files, so a new command is covered by declaring its options.
//
// Choices: an option whose value is one of a list of names that run() (or the engine) checks
// itself is declared with the table that check uses, `oneOf(c->add_option("--colormap", m_c,
// "…"), [] { return names(); })`, so the bash completion offers exactly what is accepted
// (packaging/docgen.cpp; an option checked by CLI::IsMember needs no declaration, its set is
// read from the parser).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/input_limits.h"
#include "numbers.h"

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
        ->check(integerIn(1, 4096));
    c->add_option("--seq-len", len, "Source and target positions")
        ->capture_default_str()
        ->check(integerIn(2, 1024));
    c->add_option("--threads", threads, threadsHelp)
        ->capture_default_str()
        ->check(integerIn(1, 256));
    c->add_option("--vocab", vocab, "Vocabulary size (with the 4 special tokens)")
        ->capture_default_str()
        ->check(integerIn(kMinVocabSize, 1000000));
}

// For unsigned 64-bit options such as --seed: refuses a negative number, which CLI11 would
// wrap round to 2^64 - 1, and a number above 2^64 - 1, which it would cut to that silently.
inline CLI::Validator nonNegative() {
    return CLI::Validator(
        [](std::string& s) {
            const auto first = s.find_first_not_of(" \t");
            if (first != std::string::npos && s[first] == '-')
                return "must be 0 or more, got " + excerpt(s);
            auto digits = s.substr(first == std::string::npos ? s.size() : first);
            digits = digits.substr(0, digits.find_last_not_of(" \t") + 1);
            if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
                return "must be an integer of 0 or more, got '" + excerpt(s) + "'";
            digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
            const std::string max = "18446744073709551615";
            if (digits.size() > max.size() || (digits.size() == max.size() && digits > max))
                return "must be at most " + max + ", got " + s.substr(0, 40);
            return std::string();
        },
        "NON-NEGATIVE");
}

// An option that names a file, as a command declared it.
struct FileOption {
    CLI::Option* option;
    bool output;                // written (else read)
    bool dashIsStandardOutput;  // "-" means standard output, not a file
};

// An option whose value the command checks against a table of names, as a command declared it.
struct ChoiceOption {
    CLI::Option* option;
    std::function<std::vector<std::string>()> names;  // read when asked (presets are files)
};

class Command {
public:
    virtual ~Command() = default;
    // Adds the command's subcommand, with its options, to `parent` (the application or a
    // group such as "bench") and returns it.
    virtual CLI::App* add(CLI::App& parent) = 0;
    // Does the work once the command line has parsed and chose this command.
    virtual void run(const Context& ctx) = 0;

    // The options that name files, as add() declared them.
    const std::vector<FileOption>& fileOptions() const { return m_files; }
    // The options whose values are names from a table, as add() declared them.
    const std::vector<ChoiceOption>& choiceOptions() const { return m_choices; }
    // The files the command will write besides its options' own, once the command line is
    // parsed (train: OUT.stepN.safetensors, the probe file), each named by the option it
    // comes from: held to the same rule.
    virtual std::vector<NamedPath> derivedOutputs() const { return {}; }

protected:
    // Declare an option (returned, to chain) as naming a file the command reads.
    CLI::Option* input(CLI::Option* o) {
        m_files.push_back({o, false, false});
        return o;
    }
    // Declare an option as naming a file the command writes; with `dashIsStandardOutput`,
    // "-" means standard output.
    CLI::Option* output(CLI::Option* o, bool dashIsStandardOutput = false) {
        m_files.push_back({o, true, dashIsStandardOutput});
        return o;
    }
    // Declare an option (returned, to chain) as taking one of the names `names` returns: the
    // table the command checks the value against.
    CLI::Option* oneOf(CLI::Option* o, std::function<std::vector<std::string>()> names) {
        m_choices.push_back({o, std::move(names)});
        return o;
    }
    // The files of the image options (cli/image_input.h) of `c`: --image read, --save-input
    // and --save-steps written.
    void imageFiles(CLI::App* c) {
        input(c->get_option("--image"));
        for (const char* name : {"--save-input", "--save-steps"})
            if (CLI::Option* o = c->get_option_no_throw(name)) output(o);
    }

private:
    std::vector<FileOption> m_files;
    std::vector<ChoiceOption> m_choices;
};

}  // namespace attnviz::cli
