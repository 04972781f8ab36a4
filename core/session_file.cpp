// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_file.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <optional>

#include "base64.h"
#include "error.h"
#include "input_limits.h"
#include "workspace.h"

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

// Whether `q` is "pooled", "cls" or "ROW,COL" with whole numbers (the grid is the app's).
bool imageQueryForm(const std::string& q) {
    if (q == "pooled" || q == "cls") return true;
    const size_t comma = q.find(',');
    auto number = [](const std::string& t) {
        return !t.empty() && t.size() <= 4 &&
               t.find_first_not_of("0123456789") == std::string::npos;
    };
    return comma != std::string::npos && number(q.substr(0, comma)) && number(q.substr(comma + 1));
}

// The "image" object (SessionImage); messages name its keys as 'image.KEY'.
SessionImage parseSessionImage(const json& j, const std::string& what) {
    if (!j.is_object()) wrongType(what, "image", "an object", j);
    auto bad = [&](const char* key, const char* must) {
        wrongType(what, ("image." + std::string(key)).c_str(), must, j[key]);
    };
    auto integer = [&](const char* key, int64_t least, int fallback) {
        const auto it = j.find(key);
        if (it == j.end()) return fallback;
        if (!it->is_number_integer() || it->get<int64_t>() < least ||
            it->get<int64_t>() > std::numeric_limits<int>::max())
            bad(key, least < 0 ? "an integer of at least -1" : "an integer of at least 0");
        return int(it->get<int64_t>());
    };
    auto text = [&](const char* key, const char* fallback) {
        const auto it = j.find(key);
        if (it == j.end()) return std::string(fallback);
        if (!it->is_string()) bad(key, "a string");
        return it->get<std::string>();
    };
    auto oneOf = [&](const char* key, std::initializer_list<const char*> allowed,
                     const char* must) {
        const std::string v = text(key, *allowed.begin());
        if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return v == a; }))
            bad(key, must);
        return v;
    };
    SessionImage m;
    m.testIndex = integer("test_index", 0, -1);
    m.file = text("file", "");
    if (m.file.find('\0') != std::string::npos) bad("file", "a file name without a NUL byte");
    m.fileAbsolute = text("file_absolute", "");
    if (const auto it = j.find("pasted_png"); it != j.end()) {
        const char* must = "base64 of a PNG image";
        if (!it->is_string() ||
            it->get_ref<const std::string&>().size() > (kMaxPastedPngBytes + 2) / 3 * 4)
            bad("pasted_png", "base64 of a PNG image of at most 8 MiB");
        try {
            m.pastedPng = base64Decode(it->get_ref<const std::string&>());
        } catch (const std::exception&) {
            bad("pasted_png", must);
        }
        if (m.pastedPng.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) bad("pasted_png", must);
    }
    if (int(m.testIndex >= 0) + int(!m.file.empty()) + int(!m.pastedPng.empty()) > 1)
        throw Error(what +
                    ": 'image' names more than one of a test image, a file and a pasted "
                    "image: give one of them");
    m.invert = oneOf("invert", {"auto", "yes", "no"}, "auto, yes or no");
    m.prepare = oneOf("prepare", {"plain", "cutout"}, "cutout or plain");  // absent: plain
    m.query = text("query", "pooled");
    if (!imageQueryForm(m.query)) bad("query", "pooled, cls or a patch ROW,COL");
    m.layer = integer("layer", -1, -1);
    if (m.layer >= kMaxLayers)
        bad("layer",
            ("an integer from -1 (the last) to " + std::to_string(kMaxLayers - 1)).c_str());
    m.heads = oneOf("heads", {"all", "mean", "rollout"}, "all, mean or rollout");
    if (const auto it = j.find("opacity"); it != j.end()) {
        if (!it->is_number() || !(it->get<double>() >= 0 && it->get<double>() <= 1))
            bad("opacity", "a number from 0 to 1");
        m.opacity = it->get<double>();
    }
    m.colormap = text("colormap", "viridis");
    if (const auto it = j.find("shared_scale"); it != j.end()) {
        if (!it->is_boolean()) bad("shared_scale", "true or false");
        m.sharedScale = it->get<bool>();
    }
    return m;
}

}  // namespace

json SessionImage::toJson() const {
    json j = {{"invert", invert},     {"prepare", prepare},
              {"query", query},       {"layer", layer},
              {"heads", heads},       {"opacity", opacity},
              {"colormap", colormap}, {"shared_scale", sharedScale}};
    if (testIndex >= 0) j["test_index"] = testIndex;
    if (!file.empty()) j["file"] = file;
    if (!fileAbsolute.empty()) j["file_absolute"] = fileAbsolute;
    if (!pastedPng.empty()) j["pasted_png"] = base64Encode(pastedPng);
    return j;
}

json SessionFile::toJson() const {
    json configs = json::array();
    for (const json& c : columnConfigs) configs.push_back(c);
    json j = {{"attnviz_session", 1},
              {"source", source},
              {"target", target},
              {"sentences", sentences},
              {"sentence_index", sentenceIndex},
              {"columns", columns},
              {"model_set", modelSet},
              {"column_configs", std::move(configs)},
              {"view", view}};
    if (std::any_of(columnsAbsolute.begin(), columnsAbsolute.end(),
                    [](const std::string& a) { return !a.empty(); }))
        j["columns_absolute"] = columnsAbsolute;
    if (image) j["image"] = image->toJson();
    return j;
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
    s.columnsAbsolute = stringsAt(j, "columns_absolute", what);
    if (s.columnsAbsolute.size() > s.columns.size())
        throw Error(what + ": 'columns_absolute' has " + std::to_string(s.columnsAbsolute.size()) +
                    " entries for " + std::to_string(s.columns.size()) + " columns");
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
    if (const auto it = j.find("image"); it != j.end()) s.image = parseSessionImage(*it, what);
    return s;
}

SessionFile readSessionFile(const std::string& path) {
    return parseSessionJson(readTextFile(path, kMaxSessionBytes, "session"), "'" + path + "'");
}

std::string sessionJson(const SessionFile& s) {
    return s.toJson().dump(4, ' ', false, json::error_handler_t::replace) + "\n";
}

namespace {

namespace fs = std::filesystem;

// An absolute, normalised path with symbolic links resolved as far as it exists.
fs::path canonicalPath(const fs::path& p) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return ec ? fs::absolute(p, ec).lexically_normal() : c;
}

// `p` relative to `dir` when p is `dir` itself or below it, else nullopt.
std::optional<fs::path> below(const fs::path& p, const fs::path& dir) {
    const fs::path rel = p.lexically_relative(dir);
    if (rel.empty() || *rel.begin() == "..") return std::nullopt;
    return rel;
}

bool isFile(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

}  // namespace

std::string storedColumnPath(const std::string& path, const std::string& workspaceDir) {
    if (path.empty()) return path;
    const fs::path p = canonicalPath(path);
    if (const auto rel = below(p, canonicalPath(bundledModelDirectory())))
        return std::string(kBundlePrefix) + rel->generic_string();
    if (!workspaceDir.empty())
        if (const auto rel = below(p, canonicalPath(workspaceDir))) return rel->generic_string();
    return p.string();
}

std::string resolveColumnPath(const std::string& stored, const std::string& workspaceDir,
                              const std::string& absolute) {
    if (stored.empty()) return stored;
    const fs::path bundled(bundledModelDirectory());
    if (stored.rfind(kBundlePrefix, 0) == 0)
        return (bundled / stored.substr(kBundlePrefix.size())).lexically_normal().string();
    const fs::path p(stored);
    if (p.is_relative()) {
        if (workspaceDir.empty()) return stored;
        const fs::path here = (fs::path(workspaceDir) / p).lexically_normal();
        // The workspace moved without its models: where they were when it was saved.
        if (!isFile(here) && !absolute.empty() && isFile(absolute)) return absolute;
        return here.string();
    }
    if (isFile(p)) return stored;
    // An older workspace's absolute path into a bundled models folder elsewhere (a build
    // tree's resources/models or an installed share/attnviz/models): the part after it,
    // when its bundled counterpart exists ("…/resources/models/en-es/01-dot…").
    std::vector<fs::path> parts(p.begin(), p.end());
    for (size_t i = parts.size(); i-- > 2;) {
        if (parts[i - 1] != "models") continue;
        const bool layout = parts[i - 2] == "resources" ||
                            (i >= 3 && parts[i - 2] == "attnviz" && parts[i - 3] == "share");
        if (!layout) continue;
        fs::path rest;
        for (size_t k = i; k < parts.size(); ++k) rest /= parts[k];
        if (isFile(bundled / rest)) return (bundled / rest).lexically_normal().string();
    }
    return stored;
}

void storeColumnPaths(SessionFile& s, const std::string& workspaceDir) {
    s.columnsAbsolute.assign(s.columns.size(), std::string());
    for (size_t i = 0; i < s.columns.size(); ++i) {
        std::string& c = s.columns[i];
        const std::string stored = storedColumnPath(c, workspaceDir);
        if (!stored.empty() && fs::path(stored).is_relative() &&
            stored.rfind(kBundlePrefix, 0) != 0)
            s.columnsAbsolute[i] = canonicalPath(c).string();
        c = stored;
    }
    if (s.image && !s.image->file.empty()) {
        const std::string stored = storedColumnPath(s.image->file, workspaceDir);
        s.image->fileAbsolute =
            fs::path(stored).is_relative() && stored.rfind(kBundlePrefix, 0) != 0
                ? canonicalPath(s.image->file).string()
                : std::string();
        s.image->file = stored;
    }
}

void resolveColumnPaths(SessionFile& s, const std::string& workspaceDir) {
    for (size_t i = 0; i < s.columns.size(); ++i)
        s.columns[i] =
            resolveColumnPath(s.columns[i], workspaceDir,
                              i < s.columnsAbsolute.size() ? s.columnsAbsolute[i] : std::string());
    s.columnsAbsolute.clear();
    if (s.image && !s.image->file.empty())
        s.image->file = resolveColumnPath(s.image->file, workspaceDir, s.image->fileAbsolute);
    if (s.image) s.image->fileAbsolute.clear();
}

}  // namespace attnviz
