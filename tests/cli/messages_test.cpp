// SPDX-License-Identifier: GPL-3.0-or-later
// Messages a person can read (issue 48, items 6, 8 and 9), each walked over its class: every
// numeric option of every command takes the one road for numbers (finite, in range, bounds
// in words); every option quotes a long value as an excerpt; every JSON attnviz-cli writes
// survives a file name that is not UTF-8; text commands refuse an image model; a vocabulary
// has room for a word; a checkpoint of 65,536 class names opens and prints in a moment.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "cli/cli.h"
#include "cli_run.h"
#include "core/config.h"
#include "core/input_limits.h"
#include "core/model.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Result = attnviz::test::CliResult;
using attnviz::test::cli;

std::string tmp(const std::string& n) {
    return ::testing::TempDir() + "attnviz_messages_" + n;
}

void writeFile(const std::string& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

std::string readAll(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every command and its options, as the CLI itself lists them: "bench train" for a
// subcommand of a group.
std::vector<std::pair<std::string, std::vector<const CLI::Option*>>> everyCommand(
    const CLI::App& app) {
    std::vector<std::pair<std::string, std::vector<const CLI::Option*>>> all;
    std::vector<std::pair<std::string, const CLI::App*>> todo{{"", &app}};
    while (!todo.empty()) {
        const auto [name, at] = todo.back();
        todo.pop_back();
        const auto subs = at->get_subcommands([](const CLI::App*) { return true; });
        for (const CLI::App* s : subs)
            todo.push_back({name.empty() ? s->get_name() : name + " " + s->get_name(), s});
        if (!name.empty() && subs.empty()) all.push_back({name, at->get_options()});
    }
    return all;
}

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

// `command` with `flag value` and its other required options filled ("1", or a file of
// its own for a declared input): enough for the parser to reach the option's check.
std::vector<std::string> line(const std::string& command,
                              const std::vector<const CLI::Option*>& opts, const std::string& flag,
                              const std::string& value) {
    std::set<std::string> inputs;
    for (const auto& f : attnviz::cli::fileOptions())
        if (f.command == command && !f.output) inputs.insert(f.flag);
    std::vector<std::string> args = words(command);
    args.push_back(flag);
    args.push_back(value);
    for (const CLI::Option* o : opts) {
        if (!o->get_required() || o->get_name() == flag) continue;
        args.push_back(o->get_name());
        if (inputs.count(o->get_name())) {
            writeFile(tmp("filler"), "x\n");
            args.push_back(tmp("filler"));
        } else {
            args.push_back(tmp("filler-out"));
        }
    }
    return args;
}

std::string joined(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args)
        s += (s.empty() ? "" : " ") + (a.size() > 60 ? a.substr(0, 60) + "…" : a);
    return s;
}

bool numeric(const CLI::Option* o) {
    const std::string t = o->get_type_name();
    return t.rfind("INT", 0) == 0 || t.rfind("UINT", 0) == 0 || t.rfind("FLOAT", 0) == 0 ||
           t.rfind("NUMBER", 0) == 0 || t.find("[INT") != std::string::npos ||
           t.find("[FLOAT") != std::string::npos;
}

bool integral(const CLI::Option* o) {
    const std::string t = o->get_type_name();
    return t.find("INT") != std::string::npos;
}

// An untrained image model, and a text one.
const std::string& imageModel() {
    static const std::string path = [] {
        const std::string cfg = tmp("vit.json"), out = tmp("vit.safetensors");
        writeFile(cfg,
                  R"({"arch": "vit", "d_model": 16, "heads": 2, "d_ff": 32, "enc_layers": 1})");
        EXPECT_EQ(cli({"init", "--config", cfg, "--out", out}).code, 0);
        return out;
    }();
    return path;
}

}  // namespace

// Every numeric option of every command: what is not a finite number in range is refused by
// the parser with the option's name and its bounds in words, never CLI11's "Value … not in
// range 0.000000 to 1797693134862315…", never a crash.
TEST(CliNumbers, EveryNumericOptionTakesTheOneRoad) {
    int options = 0;
    attnviz::cli::withCommandLine([&](const CLI::App& app) {
        for (const auto& [command, opts] : everyCommand(app)) {
            for (const CLI::Option* o : opts) {
                if (!numeric(o) || o->get_name().rfind("--", 0) != 0) continue;
                ++options;
                // Never a number of any option; the huge ones may be (--clip has no upper bound).
                std::vector<std::string> hostile{"nan", "inf", "-inf", "1e400", "abc", ""};
                if (integral(o)) hostile.push_back("1.5");
                for (const std::string& v : hostile) {
                    const auto args = line(command, opts, o->get_name(), v);
                    const Result r = cli(args);
                    SCOPED_TRACE(joined(args));
                    EXPECT_EQ(r.code, 2) << r.err;
                    EXPECT_NE(r.err.find(o->get_name()), std::string::npos) << r.err;
                    EXPECT_NE(r.err.find("must be"), std::string::npos) << r.err;
                    EXPECT_EQ(r.err.find("0.000000"), std::string::npos) << r.err;
                    EXPECT_EQ(r.err.find("1797693"), std::string::npos) << r.err;
                    EXPECT_EQ(r.err.find("Could not convert"), std::string::npos) << r.err;
                }
                for (const std::string v : {"99999999999999999999999", "-99999999999999999999"}) {
                    const auto args = line(command, opts, o->get_name(), v);
                    const Result r = cli(args);
                    SCOPED_TRACE(joined(args));
                    EXPECT_EQ(r.err.find("0.000000"), std::string::npos) << r.err;
                    EXPECT_EQ(r.err.find("1797693"), std::string::npos) << r.err;
                    EXPECT_EQ(r.err.find("Could not convert"), std::string::npos) << r.err;
                }
            }
        }
    });
    EXPECT_GE(options, 40) << "fewer numeric options than attnviz-cli has";
}

// The cases of the issue, in words.
TEST(CliNumbers, BoundsAreSaidInWords) {
    struct Case {
        std::vector<std::string> args;
        std::string said;
    };
    const std::vector<Case> cases{
        {{"render", "--model", "m", "--show", "difference", "--base", "0", "--out", "x.svg"},
         "--base: must be at least 1, got 0"},
        {{"train", "--task", "copy", "--save-at", "0", "--out", "x"},
         "--save-at: must be at least 1, got 0"},
        {{"train", "--task", "copy", "--probe-every", "-1", "--out", "x"},
         "--probe-every: must be at least 0, got -1"},
        {{"train", "--task", "copy", "--dropout", "1", "--out", "x"},
         "--dropout: must be at least 0 and below 1, got 1"},
        {{"train", "--task", "copy", "--lr", "0", "--out", "x"},
         "--lr: must be above 0 and at most 10, got 0"},
        {{"render", "--model", "m", "--layer", "2147483647", "--out", "x.svg"},
         "--layer: must be between 0 and 255, got 2147483647"},
        {{"eval", "--model", "m", "--batch-size", "70000"},
         "--batch-size: must be between 1 and 65536, got 70000"},
        {{"train", "--task", "copy", "--vocab-size", "2", "--out", "x"},
         "--vocab-size: must be at least 5, got 2"},
    };
    for (const Case& c : cases) {
        const Result r = cli(c.args);
        if (r.err.find("unknown command") != std::string::npos) continue;  // render: no Qt
        EXPECT_EQ(r.code, 2) << joined(c.args);
        EXPECT_NE(r.err.find(c.said), std::string::npos) << joined(c.args) << "\n" << r.err;
    }
}

// Every option of every command given an 800 KB value: the message quotes an excerpt, never
// the whole value (one function, excerpt in core/input_limits.h).
TEST(CliMessages, ALongValueIsQuotedAsAnExcerpt) {
    const std::string huge(800 * 1024, 'q');
    int tried = 0;
    attnviz::cli::withCommandLine([&](const CLI::App& app) {
        for (const auto& [command, opts] : everyCommand(app)) {
            for (const CLI::Option* o : opts) {
                if (o->get_type_size() == 0 || o->get_name().rfind("--", 0) != 0) continue;
                // --text and --target are text to analyse (1 MiB allowed): their own limit.
                if (o->get_name() == "--help" || o->get_name() == "--text" ||
                    o->get_name() == "--target" || o->get_name() == "--probe" ||
                    o->get_name() == "--probe-target" || o->get_name() == "--title" ||
                    o->get_name() == "--caption")
                    continue;
                const auto args = line(command, opts, o->get_name(), huge);
                const Result r = cli(args);
                SCOPED_TRACE(joined(args));
                EXPECT_LT(r.err.size(), 4096u) << r.err.substr(0, 300);
                EXPECT_LT(r.out.size(), 4096u);
                ++tried;
            }
        }
    });
    EXPECT_GE(tried, 60);
    // A value checked after the parse, with every other input good: the colour map.
    const Result r = cli({"render", "--model", imageModel(), "--fashion-mnist", "0", "--colormap",
                          huge, "--out", tmp("cm.svg")});
    if (r.err.find("unknown command") == std::string::npos) {
        EXPECT_EQ(r.code, 1);
        EXPECT_NE(r.err.find("--colormap"), std::string::npos) << r.err.substr(0, 300);
        EXPECT_LT(r.err.size(), 400u) << r.err.substr(0, 300);
    }
}

// Every command that writes JSON writes it through jsonText (core/input_limits.h): a string
// that is not UTF-8 (a file name) is replaced, not an exception. The sources call no dump()
// of their own, and the commands that name an image file say so in valid JSON.
TEST(CliMessages, JsonOutputSurvivesANameThatIsNotUtf8) {
    for (const auto& e : fs::directory_iterator(fs::path(ATTNVIZ_SOURCE_DIR) / "cli")) {
        if (e.path().extension() != ".cpp") continue;
        if (e.path().filename() == "image_input.cpp") continue;  // writes no JSON
        std::ifstream in(e.path());
        std::string text((std::istreambuf_iterator<char>(in)), {});
        EXPECT_EQ(text.find(".dump("), std::string::npos)
            << e.path() << ": JSON is written through jsonText (core/input_limits.h)";
    }
    const std::string png = tmp("\xff\xfe name.png");
    ASSERT_EQ(
        cli({"classify", "--model", imageModel(), "--fashion-mnist", "3", "--save-input", png})
            .code,
        0);
    const std::string out = tmp("\xff dump.json");
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"classify", "--model", imageModel(), "--image", png, "--json"},
             {"attention", "--model", imageModel(), "--image", png},
             {"attention", "--model", imageModel(), "--image", png, "--out", out},
             {"analyze", "--model", imageModel(), "--image", png},
             {"render", "--model", imageModel(), "--image", png, "--out", out}}) {
        const Result r = cli(args);
        if (r.err.find("unknown command") != std::string::npos) continue;  // render: no Qt
        EXPECT_EQ(r.code, 0) << joined(args) << "\n" << r.err;
        const std::string text = r.out.find('{') != std::string::npos ? r.out : readAll(out);
        EXPECT_NO_THROW(json::parse(text.substr(text.find_first_of("{["))));
        if (args[0] != "classify") {  // its JSON names no file
            EXPECT_NE(text.find("\xef\xbf\xbd"), std::string::npos) << joined(args);  // U+FFFD
        }
    }
}

// Commands that read text refuse an image model by name: it has no tokenizer.
TEST(CliMessages, TextCommandsRefuseAnImageModel) {
    Result r = cli({"tokenize", "--model", imageModel(), "--text", "hello world"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("image model"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"tokenize", "--model", imageModel(), "--text", "a", "--as", "ids"},
             {"attention", "--model", imageModel(), "--text", "a"},
             {"analyze", "--model", imageModel(), "--text", "a"},
             {"eval", "--model", imageModel(), "--task", "copy"}}) {
        r = cli(args);
        EXPECT_EQ(r.code, 1) << joined(args);
        EXPECT_NE(r.err.find("image"), std::string::npos) << joined(args) << "\n" << r.err;
    }
}

// --vocab-size below the special tokens and a word is refused, by the parser and the engine.
TEST(CliMessages, AVocabularyHasRoomForAWord) {
    const std::string data = tmp("vocab.tsv");
    writeFile(data, "a b\tc d\nb a\td c\n");
    for (const std::string v : {"-1", "0", "1", "2", "4"}) {
        const Result r = cli({"train", "--preset", "dot", "--data", data, "--vocab-size", v,
                              "--steps", "1", "--out", tmp("vocab.safetensors")});
        EXPECT_EQ(r.code, 2) << v;
        EXPECT_NE(
            r.err.find("--vocab-size: must be at least " + std::to_string(attnviz::kMinVocabSize)),
            std::string::npos)
            << r.err;
    }
}

// A checkpoint of 65,536 class names of 200 bytes: opened in linear time, and info prints
// the first names and their number, not 13 MB on one line (--json: all of them).
TEST(CliMessages, ManyClassNamesOpenFastAndPrintShort) {
    const int n = 65536;
    attnviz::ModelConfig cfg = attnviz::ModelConfig::fromJsonText(
        R"({"arch": "vit", "d_model": 8, "heads": 2, "d_ff": 8, "enc_layers": 1,
            "image_size": 8, "patch": 4, "classes": 65536})");
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) names.push_back(std::string(190, 'c') + std::to_string(i));
    const std::string path = tmp("many_classes.safetensors");
    attnviz::Model::initializeImages(cfg, names, 1).save(path);
    const auto start = std::chrono::steady_clock::now();
    const Result r = cli({"info", "--model", path});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_LT(seconds, 3.0) << "quadratic in the class names?";  // linear: ~0.2 s
    EXPECT_LT(r.out.size(), 10000u);
    EXPECT_NE(r.out.find("65536 classes"), std::string::npos) << r.out.substr(0, 2000);
    const Result j = cli({"info", "--model", path, "--json"});
    ASSERT_EQ(j.code, 0);
    EXPECT_EQ(json::parse(j.out)["classes"].size(), size_t(n));
}
