// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A saved workspace of the app (a "session"), read and checked here so that the app and the
// command line share one reader with the limits of core/input_limits.h. The file:
//   {"attnviz_session": 1, "source": TEXT, "target": TEXT, "sentences": [TEXT, …],
//    "sentence_index": I, "columns": [CHECKPOINT PATH, …], "model_set": ID,
//    "column_configs": [CONFIG OBJECT or null, …], "view": {…}}
// Every key but "attnviz_session" may be absent (older files): its default is used. The
// view's keys belong to the app (ui/view_state.h); here it must only be an object.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

struct SessionFile {
    std::string source, target;
    std::vector<std::string> sentences;
    int sentenceIndex = -1;  // -1: none chosen
    std::vector<std::string> columns;
    // Per column: its configuration edited in the app (an object), else null. At most one
    // per column; a missing one counts as null.
    std::vector<nlohmann::json> columnConfigs;
    std::string modelSet;  // the bundled set the columns came from, "" if none
    nlohmann::json view = nlohmann::json::object();

    nlohmann::json toJson() const;
    bool operator==(const SessionFile& o) const { return toJson() == o.toJson(); }
};

// Parses a session's text; `what` names it in errors ("'w.attnviz.json'"). Error for text
// over kMaxSessionBytes, invalid JSON (invalid UTF-8 included), nesting deeper than
// kMaxJsonDepth, a repeated key, a value that is not an object, no "attnviz_session": 1, or
// a key of the wrong type ("<what>: 'columns' must be an array of strings, got …").
SessionFile parseSessionJson(std::string_view text, const std::string& what);
// Reads `path` through readTextFile (a regular file of at most kMaxSessionBytes) and parses
// it; every message names the file.
SessionFile readSessionFile(const std::string& path);
// The file's text (indented, as the app has always written it).
std::string sessionJson(const SessionFile& s);

}  // namespace attnviz
