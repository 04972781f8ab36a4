// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-docgen: writes the man pages of attnviz-cli and attnviz and the bash completion of
// attnviz-cli from the same option tables that print --help (cli::withCommandLine, the CLI11
// tree; ui::AppOptions, the desktop app's table), so none of them can drift from --help.
// Run at build time by packaging/CMakeLists.txt; not installed.
//   attnviz-docgen cli-man FILE | app-man FILE | cli-completion FILE
#include <CLI/CLI.hpp>
#include <cctype>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#ifdef ATTNVIZ_DOCGEN_APP
#include "ui/command_line.h"
#endif

namespace {

const char* const kVersion = "0.1.0";

// A word for roff: backslashes and hyphens escaped (a plain "-" may print as a hyphen,
// which cannot be copied into a shell).
std::string word(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    return out;
}

// Text for roff: words escaped, each line ended, none starting with "." or "'".
std::string roff(const std::string& text) {
    std::string lines;
    std::istringstream in(word(text));
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && (line[0] == '.' || line[0] == '\'')) line = "\\&" + line;
        lines += line + "\n";
    }
    return lines.empty() ? "\n" : lines;
}

std::string upper(std::string s) {
    for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string header(const std::string& name, const std::string& summary) {
    return ".TH " + upper(name) + " 1 \"\" \"attnviz " + kVersion +
           "\" \"User Commands\"\n.SH NAME\n" + roff(name + " - " + summary);
}

std::string environment() {
    return ".SH ENVIRONMENT\n.TP\n.B ATTNVIZ_MODELS\n" +
           roff(
               "The folder of the bundled models (default: ../share/attnviz/models next to "
               "the executable, /usr/share/attnviz/models when installed by the package; "
               "resources/models in a build tree).");
}

// Every option of a command, in --help's own words; --help only where `withHelp` (it is said
// once for every command).
std::string cliOptions(const CLI::App& app, bool withHelp = false) {
    std::string out;
    for (const CLI::Option* opt : app.get_options()) {
        if ((opt == app.get_help_ptr() && !withHelp) || opt->get_group().empty()) continue;
        std::string names;
        if (opt->nonpositional()) {
            for (const auto& s : opt->get_snames()) names += (names.empty() ? "\\-" : ", \\-") + s;
            for (const auto& l : opt->get_lnames())
                names += (names.empty() ? "\\-\\-" : ", \\-\\-") + word(l);
            names = "\\fB" + names + "\\fR";
        } else {
            names = "\\fI" + upper(opt->get_name(true)) + "\\fR";
        }
        if (opt->nonpositional() && opt->get_type_size() != 0 && !opt->get_type_name().empty())
            names += " \\fI" + word(opt->get_type_name()) + "\\fR";
        std::string help = opt->get_description();
        if (!opt->get_default_str().empty()) help += " (default: " + opt->get_default_str() + ")";
        if (opt->get_required()) help += " (required)";
        out += ".TP\n" + names + "\n" + roff(help);
    }
    return out;
}

// One section per command, "bench forward" under "bench", in --help's order.
std::string cliCommands(const CLI::App& app, const std::string& path) {
    std::string out;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (sub->get_group().empty()) continue;  // hidden
        const std::string name = path.empty() ? sub->get_name() : path + " " + sub->get_name();
        const auto subs = sub->get_subcommands([](const CLI::App*) { return true; });
        std::string usage = "attnviz-cli " + name;
        for (const CLI::Option* opt : sub->get_options())
            if (opt->get_positional()) usage += " " + upper(opt->get_name(true));
        usage += subs.empty() ? " [OPTIONS]" : " COMMAND";
        out += ".SS \"" + word(usage) + "\"\n" + roff(sub->get_description());
        out += cliOptions(*sub);
        out += cliCommands(*sub, name);
    }
    return out;
}

std::string cliMan() {
    std::string out;
    attnviz::cli::withCommandLine([&](const CLI::App& app) {
        std::string summary = app.get_description();
        summary = summary.substr(summary.find(": ") + 2);
        out = header("attnviz-cli", summary);
        out +=
            ".SH SYNOPSIS\n.B attnviz\\-cli\n.I COMMAND\n[\\fIOPTIONS\\fR]\n.br\n"
            ".B attnviz\\-cli\n[\\fB\\-\\-help\\fR] [\\fB\\-\\-version\\fR]\n";
        out += ".SH DESCRIPTION\n" +
               roff(
                   "The command line of attnviz: train, evaluate and inspect Transformer "
                   "models that differ only in their attention, and render their attention "
                   "as figures. Each command takes --help (-h) for its options. Exit status: "
                   "0 success, 1 an error in the work (a bad file, a bad text), 2 a usage "
                   "error.");
        out += ".SH OPTIONS\n" + cliOptions(app, true);
        out += ".SH COMMANDS\n" + cliCommands(app, "");
        out += environment() + ".SH SEE ALSO\n.BR attnviz (1)\n";
    });
    return out;
}

// Bash: the commands, each command's flags, and what follows a flag: one of its choices
// (cli::choiceOptions: the table the command checks the value against), a file name (the
// options a command declared as naming files, cli::fileOptions), nothing for another value
// (a sentence, a number), and for a flag without a value the command's flags or commands again.
std::string cliCompletion() {
    std::map<std::string, std::string> files;  // "render --out" → ""
    for (const auto& f : attnviz::cli::fileOptions()) files[f.command + " " + f.flag];
    std::map<std::string, std::string> choices;  // "render --block" → "encoder_self …"
    for (const auto& c : attnviz::cli::choiceOptions()) {
        std::string& words = choices[c.command + " " + c.flag];
        for (const auto& name : c.choices) words += (words.empty() ? "" : " ") + name;
    }
    std::string tables, choiceCases;
    attnviz::cli::withCommandLine([&](const CLI::App& app) {
        std::vector<std::pair<std::string, const CLI::App*>> todo{{"", &app}};
        for (size_t i = 0; i < todo.size(); ++i) {
            const auto [path, a] = todo[i];
            std::string words, flags, paths, valued;
            for (const CLI::App* sub : a->get_subcommands([](const CLI::App*) { return true; })) {
                if (sub->get_group().empty()) continue;
                words += (words.empty() ? "" : " ") + sub->get_name();
                todo.emplace_back(path.empty() ? sub->get_name() : path + " " + sub->get_name(),
                                  sub);
            }
            for (const CLI::Option* opt : a->get_options()) {
                if (!opt->nonpositional() || opt->get_group().empty()) continue;
                std::vector<std::string> names;
                for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
                for (const auto& s : opt->get_snames()) names.push_back("-" + s);
                const std::string key = path + " " + opt->get_name();
                for (const auto& n : names) {
                    flags += (flags.empty() ? "" : " ") + n;
                    if (opt->get_expected_max() == 0) continue;  // a flag: no value follows
                    if (choices.count(key))
                        choiceCases += "        \"" + path + " " + n + "\") choices=\"" +
                                       choices[key] + "\" ;;\n";
                    else if (files.count(key))
                        paths += " " + n;
                    else
                        valued += " " + n;
                }
            }
            tables += "        \"" + path + "\") words=\"" + words + "\"; flags=\"" + flags +
                      "\"; paths=\"" + paths + " \"; valued=\"" + valued + " \" ;;\n";
        }
    });
    return "# bash completion for attnviz-cli: generated by attnviz-docgen from the option tables\n"
           "# that print --help (packaging/docgen.cpp); do not edit.\n"
           "_attnviz_cli() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
           "    local path=\"\" i w words flags paths valued choices\n"
           "    # The command so far: the words that name a command or a command of a group.\n"
           "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
           "        w=${COMP_WORDS[i]}\n"
           "        [[ $w == -* ]] && continue\n"
           "        _attnviz_cli_table \"$path\"\n"
           "        [[ \" $words \" == *\" $w \"* ]] && path=${path:+$path }$w\n"
           "    done\n"
           "    _attnviz_cli_table \"$path\"\n"
           "    if _attnviz_cli_choices \"$path $prev\"; then\n"
           "        mapfile -t COMPREPLY < <(compgen -W \"$choices\" -- \"$cur\")\n"
           "    elif [[ \"$paths\" == *\" $prev \"* ]]; then\n"
           "        compopt -o filenames 2>/dev/null\n"
           "        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
           "    elif [[ \"$valued\" == *\" $prev \"* ]]; then\n"
           "        COMPREPLY=()  # a value of the user's own: a sentence, a number\n"
           "    elif [[ -n $words && $cur != -* ]]; then\n"
           "        mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
           "    else\n"
           "        mapfile -t COMPREPLY < <(compgen -W \"$flags\" -- \"$cur\")\n"
           "    fi\n"
           "}\n"
           "# Sets words (the commands under $1), flags (its options), paths (its options that\n"
           "# take a file name) and valued (its other options that take a value).\n"
           "_attnviz_cli_table() {\n"
           "    case \"$1\" in\n" +
           tables +
           "        *) words=\"\"; flags=\"\"; paths=\" \"; valued=\" \" ;;\n"
           "    esac\n"
           "}\n"
           "# Sets choices to the values of option $1 (\"COMMAND --flag\"); false for one without\n"
           "# a list of values.\n"
           "_attnviz_cli_choices() {\n"
           "    case \"$1\" in\n" +
           choiceCases +
           "        *) return 1 ;;\n"
           "    esac\n"
           "}\n"
           "complete -F _attnviz_cli attnviz-cli\n";
}

#ifdef ATTNVIZ_DOCGEN_APP
std::string appMan() {
    const attnviz::ui::AppOptions o;
    std::string out = header("attnviz", "compare Transformer attention variants side by side");
    out += ".SH SYNOPSIS\n.B attnviz\n[\\fIOPTIONS\\fR] [\\fIFILE\\fR...]\n";
    out += ".SH DESCRIPTION\n" +
           roff(std::string(attnviz::ui::AppOptions::description()) +
                " A desktop app: a column per model, a panel per attention head, the same "
                "sentence in every column. Without options it reopens the last workspace, "
                "else a bundled model set.");
    out += ".SH ARGUMENTS\n.TP\n\\fIFILE\\fR...\n" + roff(attnviz::ui::AppOptions::filesHelp());
    out += ".SH OPTIONS\n.TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n" + roff("Show the options.") +
           ".TP\n\\fB\\-\\-help\\-all\\fR\n" +
           roff("Show the options and Qt's own (-platform, -style, -reverse, ...).") +
           ".TP\n\\fB\\-v\\fR, \\fB\\-\\-version\\fR\n" + roff("Show the version.");
    for (const QCommandLineOption& opt : o.all()) {
        if (opt.flags() & QCommandLineOption::HiddenFromHelp) continue;
        std::string names;
        for (const QString& n : opt.names())
            names += std::string(names.empty() ? "" : ", ") + "\\fB" +
                     (n.size() == 1 ? "\\-" : "\\-\\-") + word(n.toStdString()) + "\\fR";
        if (!opt.valueName().isEmpty())
            names += " \\fI" + word(opt.valueName().toUpper().toStdString()) + "\\fR";
        std::string help = opt.description().toStdString();
        if (!opt.defaultValues().isEmpty()) {
            const bool stop = !help.empty() && help.back() == '.';
            if (stop) help.pop_back();
            help += " (default: " + opt.defaultValues().join(", ").toStdString() + ")" +
                    (stop ? "." : "");
        }
        out += ".TP\n" + names + "\n" + roff(help);
    }
    out += environment() + ".SH FILES\n.TP\n.I ~/.config/attnviz/attnviz.conf\n" +
           roff("The last workspace, the language and recent sentences.") +
           ".TP\n.I /usr/share/attnviz/models\n" + roff("The bundled model sets.");
    out += ".SH SEE ALSO\n.BR attnviz\\-cli (1)\n";
    return out;
}
#endif

}  // namespace

int main(int argc, char** argv) {
    const std::string what = argc == 3 ? argv[1] : "";
    std::string text;
    if (what == "cli-man")
        text = cliMan();
    else if (what == "cli-completion")
        text = cliCompletion();
#ifdef ATTNVIZ_DOCGEN_APP
    else if (what == "app-man")
        text = appMan();
#endif
    else {
        std::cerr << "usage: attnviz-docgen cli-man|app-man|cli-completion FILE\n";
        return 2;
    }
    std::ofstream out(argv[2], std::ios::binary);
    out << text;
    out.close();
    if (!out) {
        std::cerr << "attnviz-docgen: cannot write " << argv[2] << "\n";
        return 1;
    }
    return 0;
}
