// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

#include "command.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/gemm.h"
#include "core/input_limits.h"
#include "fd_output.h"

namespace attnviz::cli {

// Each defined in cli/<command>.cpp.
std::unique_ptr<Command> makeInitCommand();
std::unique_ptr<Command> makeAttentionCommand();
std::unique_ptr<Command> makeClassifyCommand();
std::unique_ptr<Command> makeInfoCommand();
std::unique_ptr<Command> makeAnalyzeCommand();
std::unique_ptr<Command> makeBenchForwardCommand();
std::unique_ptr<Command> makeBenchTrainCommand();
std::unique_ptr<Command> makeBenchDecodeCommand();
std::unique_ptr<Command> makeBenchGemmCommand();
std::unique_ptr<Command> makeBenchAnalyzeCommand();
std::unique_ptr<Command> makeTrainCommand();
std::unique_ptr<Command> makeEvalCommand();
std::unique_ptr<Command> makeBleuCommand();
std::unique_ptr<Command> makeVariantsCommand();
std::unique_ptr<Command> makePresetsCommand();
std::unique_ptr<Command> makeSetsCommand();
std::unique_ptr<Command> makeTokenizeCommand();
std::unique_ptr<Command> makeExamplesCommand();
#ifdef ATTNVIZ_RENDER
std::unique_ptr<Command> makeRenderCommand();
#endif

namespace {

using Registered = std::vector<std::pair<CLI::App*, std::unique_ptr<Command>>>;

// The one list of commands, in the order --help shows them. "bench" is only a group: its
// subcommands are commands of their own, one file each.
Registered addCommands(CLI::App& app) {
    Registered commands;
    auto add = [&](CLI::App& parent, std::unique_ptr<Command> c) {
        CLI::App* sub = c->add(parent);
        commands.emplace_back(sub, std::move(c));
    };
    add(app, makeInitCommand());
    add(app, makeAttentionCommand());
    add(app, makeClassifyCommand());
    add(app, makeInfoCommand());
    add(app, makeAnalyzeCommand());
    CLI::App& bench = *app.add_subcommand("bench", "Benchmarks (JSON on standard output)");
    bench.require_subcommand(1);
    add(bench, makeBenchForwardCommand());
    add(bench, makeBenchTrainCommand());
    add(bench, makeBenchDecodeCommand());
    add(bench, makeBenchGemmCommand());
    add(bench, makeBenchAnalyzeCommand());
    add(app, makeTrainCommand());
    add(app, makeEvalCommand());
    add(app, makeBleuCommand());
    add(app, makeVariantsCommand());
    add(app, makePresetsCommand());
    add(app, makeSetsCommand());
    add(app, makeTokenizeCommand());
    add(app, makeExamplesCommand());
#ifdef ATTNVIZ_RENDER
    add(app, makeRenderCommand());  // needs Qt: only when the UI is built
#endif
    return commands;
}

// The files a parsed command names, read and written (cli/command.h).
void namedFiles(const Command& command, std::vector<NamedPath>& inputs,
                std::vector<NamedPath>& outputs) {
    for (const FileOption& f : command.fileOptions()) {
        for (const std::string& path : f.option->results()) {
            if (f.dashIsStandardOutput && path == "-") continue;
            (f.output ? outputs : inputs).push_back({f.option->get_name(), path});
        }
    }
    for (NamedPath& d : command.derivedOutputs()) outputs.push_back(std::move(d));
}

// An argument longer than any path (PATH_MAX) is no file name a person needs to read whole:
// in a message, whoever wrote it (CLI11's parser, a command, the engine), it is quoted as an
// excerpt (core/input_limits.h), so an 800 KB value never fills the terminal.
constexpr size_t kLongArgument = 4096;
std::string withExcerpts(std::string message, int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a(argv[i]);
        if (a.size() <= kLongArgument) continue;
        const std::string cut = excerpt(a);
        for (size_t at = message.find(a); at != std::string::npos;
             at = message.find(a, at + cut.size()))
            message.replace(at, a.size(), cut);
    }
    return message;
}

// Runs the chosen command; the one place where an error becomes a message and exit code 1.
// The one rule for files comes first: no output is an input or another output.
int runChosen(const Registered& commands, const Context& ctx, int argc, const char* const* argv) {
    try {
        for (const auto& [sub, command] : commands) {
            if (!*sub) continue;
            std::vector<NamedPath> inputs, outputs;
            namedFiles(*command, inputs, outputs);
            checkDistinctFiles(inputs, outputs);
            command->run(ctx);
        }
    } catch (const Error& e) {
        ctx.err << "attnviz-cli: error: " << withExcerpts(e.what(), argc, argv) << '\n';
        return 1;
    } catch (const nlohmann::json::exception& e) {
        ctx.err << "attnviz-cli: error: " << withExcerpts(e.what(), argc, argv) << '\n';
        return 1;
    } catch (const std::bad_alloc&) {
        ctx.err << "attnviz-cli: error: out of memory\n";
        return 1;
    }
    return 0;
}

// Output that could not be written (a full disk, /dev/full, a device error) is lost: the
// exit code must say so. `out` is flushed, then checked.
int checkedOutput(int code, std::ostream& out, std::ostream& err) {
    errno = 0;
    out.flush();
    if (out) return code;
    // The reason: kept by attnviz-cli's own buffer; else errno, set if this flush failed.
    const auto* fd = dynamic_cast<const FdOutputBuffer*>(out.rdbuf());
    const int e = fd && fd->error() ? fd->error() : errno;
    err << "attnviz-cli: error: the output could not be written to standard output"
        << (e ? std::string(" (") + std::strerror(e) + ")" : std::string()) << '\n';
    return 1;
}

const char* const kDescription =
    "attnviz-cli: run, inspect and benchmark Transformers with different attention variants";

// The whole command line: the global flags and every command.
Registered setUp(CLI::App& app) {
    app.require_subcommand(1);
    // The matrix-product library too: it decides the last bits of every trained number.
    app.set_version_flag("--version",
                         std::string("attnviz-cli 0.1.0 (matrix products: ") + gemmBackend() + ")");
    return addCommands(app);
}

}  // namespace

void withCommandLine(const std::function<void(const CLI::App&)>& use) {
    CLI::App app{kDescription, "attnviz-cli"};
    const Registered commands = setUp(app);  // the commands own the options' variables
    use(app);
}

namespace {

// "render", "bench forward": a command's words after attnviz-cli.
std::string commandPath(const CLI::App* sub) {
    std::string name = sub->get_name();
    for (const CLI::App* p = sub->get_parent(); p && p->get_parent(); p = p->get_parent())
        name = p->get_name() + " " + name;
    return name;
}

// The set of a CLI::IsMember check of `o`, as CLI11 describes it in the option's type
// ("TEXT:{a,b,c}"); empty when it has none.
std::vector<std::string> memberSet(const CLI::Option& o) {
    const std::string type = o.get_type_name();
    const size_t open = type.find(":{");
    const size_t close = type.find('}', open);
    std::vector<std::string> names;
    if (open == std::string::npos || close == std::string::npos) return names;
    std::istringstream set(type.substr(open + 2, close - open - 2));
    for (std::string name; std::getline(set, name, ',');) names.push_back(name);
    return names;
}

}  // namespace

std::vector<FileOptionInfo> fileOptions() {
    CLI::App app{kDescription, "attnviz-cli"};
    const Registered commands = setUp(app);
    std::vector<FileOptionInfo> all;
    for (const auto& [sub, command] : commands)
        for (const FileOption& f : command->fileOptions())
            all.push_back(
                {commandPath(sub), f.option->get_name(), f.output, f.dashIsStandardOutput});
    return all;
}

std::vector<ChoiceOptionInfo> choiceOptions() {
    CLI::App app{kDescription, "attnviz-cli"};
    const Registered commands = setUp(app);
    std::vector<ChoiceOptionInfo> all;
    for (const auto& [sub, command] : commands) {
        const std::string path = commandPath(sub);
        for (const ChoiceOption& c : command->choiceOptions())
            all.push_back({path, c.option->get_name(), c.names()});
        for (const CLI::Option* o : sub->get_options()) {
            const auto set = memberSet(*o);
            if (!set.empty()) all.push_back({path, o->get_name(), set});
        }
    }
    return all;
}

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    CLI::App app{kDescription};
    const Registered commands = setUp(app);
    // CLI11 reports an unknown word as "A subcommand is required": name it instead.
    if (argc > 1 && argv[1][0] != '-') {
        std::string names;
        bool known = false;
        for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
            names += (names.empty() ? "" : ", ") + s->get_name();
            known = known || s->get_name() == argv[1];
        }
        if (!known) {
            err << "attnviz-cli: error: unknown command '" << excerpt(std::string(argv[1]))
                << "' (commands: " << names << "; see --help)\n";
            return 2;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::ostringstream said;  // CLI11 quotes values whole: long ones become excerpts
        const int code = app.exit(e, out, said);
        err << withExcerpts(said.str(), argc, argv);
        return checkedOutput(code == 0 ? 0 : 2, out, err);
    }
    const int code =
        runChosen(commands, {out, err, &err == &std::cerr && isatty(STDERR_FILENO)}, argc, argv);
    return checkedOutput(code, out, err);
}

}  // namespace attnviz::cli
