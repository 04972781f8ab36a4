// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace attnviz::cli {

// Runs attnviz-cli with the given arguments. Output goes to `out`, messages to `err`.
// Returns the process exit code: 0 success, 1 an error in the work (bad file, bad text),
// 2 a usage error (unknown option, missing argument). Output that cannot be written (a full
// disk, /dev/full) is an error: `out` is flushed and checked at the end, exit code 1.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// Builds the command line that run() parses (every command, option and help text, as --help
// prints them) and hands it to `use`: the man page and the bash completion are generated from
// it (packaging/docgen.cpp), so they cannot drift from --help.
void withCommandLine(const std::function<void(const CLI::App&)>& use);

// An option that names a file, as its command declared it (cli/command.h): what the test of
// the one rule for outputs walks, so that every command, a new one too, is covered.
struct FileOptionInfo {
    std::string command;  // "render", "bench train"
    std::string flag;     // "--out"
    bool output;          // written, else read
    bool dashIsStandardOutput;
};
std::vector<FileOptionInfo> fileOptions();

// An option whose value is one of a fixed list of names: those a command declared with the
// table it checks them against (cli/command.h, oneOf) and those the parser checks with
// CLI::IsMember. What the bash completion offers after the option.
struct ChoiceOptionInfo {
    std::string command;               // "render", "bench forward"
    std::string flag;                  // "--colormap"
    std::vector<std::string> choices;  // in the table's order
};
std::vector<ChoiceOptionInfo> choiceOptions();

}  // namespace attnviz::cli
