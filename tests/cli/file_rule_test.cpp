// SPDX-License-Identifier: GPL-3.0-or-later
// The one rule for the files of attnviz-cli (cli/command.h, core/file_io.h): no output is the
// same file as an input or as another output. Walked over every command and every pair of
// its declared file options, as the CLI itself lists them (fileOptions), so a command added
// later is covered without editing this test: the same file named directly, through a
// symbolic link or through a hard link is refused with a message naming both options, and
// the file keeps every byte.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cli/cli.h"
#include "cli_run.h"
#include "core/file_io.h"

namespace fs = std::filesystem;

namespace {

using Result = attnviz::test::CliResult;
using attnviz::test::cli;

// A fresh, empty folder of its own for each case.
fs::path freshDir(const std::string& name) {
    const fs::path d = fs::path(::testing::TempDir()) / ("attnviz_file_rule_" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

void writeFile(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> words(const std::string& command) {
    std::istringstream in(command);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

// The subcommand "bench train" of the command line.
const CLI::App* findCommand(const CLI::App& app, const std::string& command) {
    const CLI::App* at = &app;
    for (const std::string& w : words(command)) {
        const CLI::App* next = nullptr;
        for (const CLI::App* s : at->get_subcommands([](const CLI::App*) { return true; }))
            if (s->get_name() == w) next = s;
        if (!next) return nullptr;
        at = next;
    }
    return at;
}

using attnviz::cli::FileOptionInfo;

std::map<std::string, std::vector<FileOptionInfo>> byCommand() {
    std::map<std::string, std::vector<FileOptionInfo>> all;
    for (const FileOptionInfo& f : attnviz::cli::fileOptions()) all[f.command].push_back(f);
    return all;
}

// The arguments that make `command` parse with `given` (option → value) set: every other
// required option, and every option a given one needs, filled in (a declared input with a
// file of its own in `dir`, an output with a new path there, anything else with "1").
std::vector<std::string> commandLine(const std::string& command,
                                     const std::vector<std::pair<std::string, std::string>>& given,
                                     const fs::path& dir) {
    std::set<std::string> inputs, outputs;
    for (const FileOptionInfo& f : attnviz::cli::fileOptions())
        if (f.command == command) (f.output ? outputs : inputs).insert(f.flag);
    std::vector<std::string> args = words(command);
    std::set<std::string> named;
    for (const auto& [flag, value] : given) {
        args.push_back(flag);
        args.push_back(value);
        named.insert(flag);
    }
    attnviz::cli::withCommandLine([&](const CLI::App& app) {
        const CLI::App* sub = findCommand(app, command);
        ASSERT_NE(sub, nullptr) << command;
        std::vector<const CLI::Option*> wanted;
        for (const CLI::Option* o : sub->get_options()) {
            if (o->get_required()) wanted.push_back(o);
            if (named.count(o->get_name()))
                for (const CLI::Option* n : o->get_needs()) wanted.push_back(n);
        }
        int k = 0;
        for (const CLI::Option* o : wanted) {
            const std::string flag = o->get_name();
            if (!named.insert(flag).second) continue;
            args.push_back(flag);
            if (o->get_type_name().empty()) continue;  // a flag
            if (inputs.count(flag)) {
                const fs::path p = dir / ("filler" + std::to_string(k++));
                writeFile(p, "filler\n");
                args.push_back(p.string());
            } else if (outputs.count(flag)) {
                args.push_back((dir / ("filler-out" + std::to_string(k++))).string());
            } else {
                args.push_back("1");
            }
        }
    });
    return args;
}

std::string joined(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
    return s;
}

// The folder's entries (names), to see that nothing was written.
std::set<std::string> listing(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
    return names;
}

const std::string kBytes = std::string("an input that must keep its bytes\n") + '\0' + '\xff';

// Each way to name one existing file twice: (first, second) relative to `dir`, where `file`
// exists; links made as needed.
struct Spelling {
    const char* name;
    std::pair<fs::path, fs::path> (*make)(const fs::path& dir, const fs::path& file);
};

const Spelling kSpellings[] = {
    {"directly",
     [](const fs::path&, const fs::path& f) {
         return std::pair{f, f};
     }},
    {"another spelling",
     [](const fs::path& d, const fs::path& f) {
         fs::create_directory(d / "sub");
         return std::pair{f, d / "sub" / ".." / "." / f.filename()};
     }},
    {"the second through a symbolic link",
     [](const fs::path& d, const fs::path& f) {
         fs::create_symlink(f.filename(), d / "link");
         return std::pair{f, d / "link"};
     }},
    {"the first through a symbolic link",
     [](const fs::path& d, const fs::path& f) {
         fs::create_symlink(f.filename(), d / "link");
         return std::pair{d / "link", f};
     }},
    {"through a hard link",
     [](const fs::path& d, const fs::path& f) {
         fs::create_hard_link(f, d / "hard");
         return std::pair{f, d / "hard"};
     }},
};

// The refusal: exit code 1, both options named, and the file and its folder untouched.
void expectRefused(const Result& r, const std::vector<std::string>& args, const std::string& a,
                   const std::string& b, const fs::path& file, const std::string& bytes,
                   const std::set<std::string>& before, const fs::path& dir) {
    const std::string where = joined(args);
    EXPECT_EQ(r.code, 1) << where << "\n" << r.err;
    EXPECT_NE(r.err.find("same file"), std::string::npos) << where << "\n" << r.err;
    EXPECT_NE(r.err.find(a), std::string::npos) << where << "\n" << r.err;
    EXPECT_NE(r.err.find(b), std::string::npos) << where << "\n" << r.err;
    if (!bytes.empty()) {
        EXPECT_EQ(readAll(file), bytes) << where;
    }
    EXPECT_EQ(listing(dir), before) << where;
}

}  // namespace

// Every command that writes a file declares it; the commands that read one declare theirs.
TEST(CliFileRule, TheCommandsDeclareTheirFiles) {
    const auto all = byCommand();
    for (const char* command : {"init", "attention", "classify", "analyze", "train", "eval"})
        EXPECT_TRUE(all.count(command)) << command;
    std::set<std::pair<std::string, std::string>> declared;
    for (const FileOptionInfo& f : attnviz::cli::fileOptions()) {
        EXPECT_TRUE(declared.insert({f.command, f.flag}).second)
            << f.command << " " << f.flag << " declared twice";
    }
    // An option that speaks of a file, a checkpoint or a folder names one, and must be
    // declared: a new option is held to the rule unless it says here why it is not a file.
    const std::set<std::pair<std::string, std::string>> notFiles{
        {"train", "--probe"},          // a sentence, recorded into a file beside --out
        {"train", "--probe-target"},   // its target sentence
        {"train", "--held-out"},       // a count of lines of --dev
        {"eval", "--count"},           // a count of images
        {"analyze", "--count"},        // a count of sentences of --data
        {"analyze", "--prune-count"},  // a count of sentences of --prune-data
        {"render", "--size"},          // a page size
        {"render", "--dpi"},           // a resolution
        {"train", "--vocab-size"},     // a size
        {"tokenize", "--text"},        // a sentence
        {"train", "--save-at"},        // steps; their checkpoints are derivedOutputs()
    };
    attnviz::cli::withCommandLine([&](const CLI::App& app) {
        std::vector<std::pair<std::string, const CLI::App*>> todo{{"", &app}};
        while (!todo.empty()) {
            const auto [name, at] = todo.back();
            todo.pop_back();
            for (const CLI::App* s : at->get_subcommands([](const CLI::App*) { return true; }))
                todo.push_back({name.empty() ? s->get_name() : name + " " + s->get_name(), s});
            if (name.empty()) continue;
            for (const CLI::Option* o : at->get_options()) {
                if (o->get_type_name().empty() || o->get_name().rfind("--", 0) != 0) continue;
                static const std::regex files(R"(\b(file|files|checkpoint|folder)\b)",
                                              std::regex::icase);
                const bool speaksOfFiles = std::regex_search(o->get_description(), files);
                if (!speaksOfFiles || notFiles.count({name, o->get_name()})) continue;
                EXPECT_TRUE(declared.count({name, o->get_name()}))
                    << name << " " << o->get_name()
                    << " speaks of a file but is not declared as an input or output "
                       "(cli/command.h: input(), output()): \""
                    << o->get_description() << "\"";
            }
        }
    });
}

// Every (input, output) pair of every command: the output may not be the input.
TEST(CliFileRule, NoOutputIsAnInput) {
    int cases = 0;
    for (const auto& [command, files] : byCommand()) {
        for (const FileOptionInfo& in : files) {
            if (in.output) continue;
            for (const FileOptionInfo& out : files) {
                if (!out.output) continue;
                for (const Spelling& s : kSpellings) {
                    const fs::path dir = freshDir("in_out");
                    const fs::path file = dir / "shared.bin";
                    writeFile(file, kBytes);
                    const auto [a, b] = s.make(dir, file);
                    const auto before = listing(dir);
                    const auto args =
                        commandLine(command, {{in.flag, a.string()}, {out.flag, b.string()}}, dir);
                    const auto withFillers = listing(dir);
                    const Result r = cli(args);
                    SCOPED_TRACE(command + " " + in.flag + " / " + out.flag + ", " + s.name);
                    expectRefused(r, args, in.flag, out.flag, file, kBytes, withFillers, dir);
                    EXPECT_TRUE(before.size() <= withFillers.size());
                    ++cases;
                }
            }
        }
    }
    EXPECT_GE(cases, 5 * 20) << "fewer (input, output) pairs than attnviz-cli has";
}

// Every pair of outputs of every command: two outputs may not be one file, whether it
// exists yet or not.
TEST(CliFileRule, NoTwoOutputsAreOneFile) {
    int cases = 0;
    for (const auto& [command, files] : byCommand()) {
        for (size_t i = 0; i < files.size(); ++i) {
            for (size_t k = 0; k < files.size(); ++k) {
                const FileOptionInfo &x = files[i], &y = files[k];
                if (!x.output || !y.output || i == k) continue;
                // The existing file, each spelling; then a file not there yet, directly and
                // through a dangling symbolic link.
                for (const Spelling& s : kSpellings) {
                    const fs::path dir = freshDir("out_out");
                    const fs::path file = dir / "shared.bin";
                    writeFile(file, kBytes);
                    const auto [a, b] = s.make(dir, file);
                    const auto args =
                        commandLine(command, {{x.flag, a.string()}, {y.flag, b.string()}}, dir);
                    const auto before = listing(dir);
                    SCOPED_TRACE(command + " " + x.flag + " / " + y.flag + ", " + s.name);
                    expectRefused(cli(args), args, x.flag, y.flag, file, kBytes, before, dir);
                    ++cases;
                }
                for (const bool dangling : {false, true}) {
                    const fs::path dir = freshDir("out_out_new");
                    const fs::path file = dir / "new.bin";
                    fs::path second = file;
                    if (dangling) {
                        fs::create_symlink("new.bin", dir / "dangling");
                        second = dir / "dangling";
                    }
                    const auto args = commandLine(
                        command, {{x.flag, file.string()}, {y.flag, second.string()}}, dir);
                    const auto before = listing(dir);
                    SCOPED_TRACE(command + " " + x.flag + " / " + y.flag + ", not there yet" +
                                 (dangling ? ", through a dangling link" : ""));
                    expectRefused(cli(args), args, x.flag, y.flag, file, "", before, dir);
                    EXPECT_FALSE(fs::exists(file));
                    ++cases;
                }
            }
        }
    }
    EXPECT_GE(cases, 2 * 7) << "fewer output pairs than attnviz-cli has";
}

// The files a command writes beside its options' (train: --save-at's checkpoints, the probe
// file) are held to the same rule.
TEST(CliFileRule, DerivedOutputsToo) {
    const fs::path dir = freshDir("derived");
    const fs::path data = dir / "m.step5.safetensors", log = dir / "m.probe.json";
    writeFile(data, "a b\tc d\n");
    writeFile(log, kBytes);
    Result r = cli({"train", "--preset", "dot", "--data", data.string(), "--steps", "9",
                    "--save-at", "5", "--out", (dir / "m.safetensors").string()});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("--save-at"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--data"), std::string::npos) << r.err;
    EXPECT_EQ(readAll(data), "a b\tc d\n");
    r = cli({"train", "--preset", "dot", "--task", "copy", "--steps", "9", "--probe", "a b",
             "--log", log.string(), "--out", (dir / "m.safetensors").string()});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("the probe file"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--log"), std::string::npos) << r.err;
    EXPECT_EQ(readAll(log), kBytes);
}

// "-" is standard output where an option says so, not a file named "-".
TEST(CliFileRule, StandardOutputIsNoFile) {
    for (const FileOptionInfo& f : attnviz::cli::fileOptions())
        if (f.dashIsStandardOutput) {
            EXPECT_TRUE(f.output) << f.command << " " << f.flag;
        }
}

// sameFile itself: links followed, a missing file placed where it would be created.
TEST(CliFileRule, SameFile) {
    const fs::path dir = freshDir("same_file");
    writeFile(dir / "a", "a");
    writeFile(dir / "b", "a");
    fs::create_symlink("a", dir / "la");
    fs::create_hard_link(dir / "a", dir / "ha");
    fs::create_symlink("missing", dir / "lm");
    fs::create_symlink("lm", dir / "llm");
    using attnviz::sameFile;
    EXPECT_TRUE(sameFile((dir / "a").string(), (dir / "la").string()));
    EXPECT_TRUE(sameFile((dir / "a").string(), (dir / "ha").string()));
    EXPECT_FALSE(sameFile((dir / "a").string(), (dir / "b").string()));  // equal bytes only
    EXPECT_TRUE(sameFile((dir / "missing").string(), (dir / "llm").string()));
    EXPECT_FALSE(sameFile((dir / "missing").string(), (dir / "a").string()));
    EXPECT_FALSE(sameFile((dir / "missing").string(), (dir / "other").string()));
    const fs::path cwd = fs::current_path();
    fs::current_path(dir);
    EXPECT_TRUE(sameFile("missing", (dir / "missing").string()));
    EXPECT_TRUE(sameFile("./a", (dir / "la").string()));
    fs::current_path(cwd);
}
