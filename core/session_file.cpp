// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_file.h"

#include <limits>

#include "error.h"
#include "input_limits.h"

namespace attnviz {

using nlohmann::json;

namespace {

[[noreturn]] void wrongType(const std::string& what, const char* key, const char* must,
                            const json& v) {
    throw Error(what + ": '" + key + "' must be " + must + ", got " + excerpt(v));
}

std::string stringAt(const json& o, const char* key, const std::string& what) {
    const auto it = o.find(key);
    if (it == o.end()) return {};
    if (!it->is_string()) wrongType(what, key, "a string", *it);
    return it->get<std::string>();
}

std::vector<std::string> stringsAt(const json& o, const char* key, const std::string& what) {
    std::vector<std::string> out;
    const auto it = o.find(key);
    if (it == o.end()) return out;
    if (!it->is_array()) wrongType(what, key, "an array of strings", *it);
    for (const json& v : *it) {
        if (!v.is_string()) wrongType(what, key, "an array of strings", v);
        out.push_back(v.get<std::string>());
    }
    return out;
}

}  // namespace

json SessionFile::toJson() const {
    json configs = json::array();
    for (const json& c : columnConfigs) configs.push_back(c);
    return {{"attnviz_session", 1},
            {"source", source},
            {"target", target},
            {"sentences", sentences},
            {"sentence_index", sentenceIndex},
            {"columns", columns},
            {"model_set", modelSet},
            {"column_configs", std::move(configs)},
            {"view", view}};
}

SessionFile parseSessionJson(std::string_view text, const std::string& what) {
    const json j = parseJson(text, what, kMaxSessionBytes);
    if (!j.is_object()) {
        throw Error(what + " is " + (j.is_array() ? "a JSON array" : "a single JSON value") +
                    ", not an object: not an attnviz session");
    }
    const auto version = j.find("attnviz_session");
    if (version == j.end() || !version->is_number() || version->get<double>() != 1.0)
        throw Error(what + " is not an attnviz session (no \"attnviz_session\": 1)");
    SessionFile s;
    s.source = stringAt(j, "source", what);
    s.target = stringAt(j, "target", what);
    s.sentences = stringsAt(j, "sentences", what);
    s.columns = stringsAt(j, "columns", what);
    s.modelSet = stringAt(j, "model_set", what);
    if (const auto it = j.find("sentence_index"); it != j.end()) {
        if (!it->is_number_integer() || it->get<int64_t>() < -1 ||
            it->get<int64_t>() > std::numeric_limits<int>::max())
            wrongType(what, "sentence_index", "an integer of at least -1", *it);
        s.sentenceIndex = int(it->get<int64_t>());
    }
    if (const auto it = j.find("column_configs"); it != j.end()) {
        if (!it->is_array()) wrongType(what, "column_configs", "an array", *it);
        if (it->size() > s.columns.size())
            throw Error(what + ": 'column_configs' has " + std::to_string(it->size()) +
                        " entries for " + std::to_string(s.columns.size()) + " columns");
        for (const json& c : *it) {
            if (!c.is_object() && !c.is_null())
                wrongType(what, "column_configs", "an array of objects or nulls", c);
            s.columnConfigs.push_back(c);
        }
    }
    if (const auto it = j.find("view"); it != j.end()) {
        if (!it->is_object()) wrongType(what, "view", "an object", *it);
        s.view = *it;
    }
    return s;
}

SessionFile readSessionFile(const std::string& path) {
    return parseSessionJson(readTextFile(path, kMaxSessionBytes, "session"), "'" + path + "'");
}

std::string sessionJson(const SessionFile& s) {
    return s.toJson().dump(4, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace attnviz
