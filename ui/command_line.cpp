// SPDX-License-Identifier: GPL-3.0-or-later
#include "command_line.h"

namespace attnviz::ui {

std::vector<std::string> sessionSafeArguments(int argc, const char* const* argv) {
    std::vector<std::string> out;
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i] ? argv[i] : "";
        if (arg == "--") {  // everything after is positional
            for (; i < argc; ++i) out.emplace_back(argv[i] ? argv[i] : "");
            break;
        }
        if (i > 0 && arg == "--session" && i + 1 < argc) {
            out.push_back("--session=" + std::string(argv[++i] ? argv[i] : ""));
        } else {
            out.push_back(arg);
        }
    }
    return out;
}

ArgumentVector::ArgumentVector(std::vector<std::string> args) : strings(std::move(args)) {
    for (auto& s : strings) pointers.push_back(s.data());
    argc = int(strings.size());
    pointers.push_back(nullptr);
}

const char* AppOptions::description() {
    return "Compare Transformer attention variants side by side.";
}

const char* AppOptions::filesHelp() {
    return "Files to open: checkpoints (.safetensors) each as a new column, workspaces "
           "(.attnviz.json) and training probes (.probe.json). Given files replace the last "
           "workspace; when attnviz already runs they go to its window.";
}

}  // namespace attnviz::ui
