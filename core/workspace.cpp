// SPDX-License-Identifier: GPL-3.0-or-later
#include "workspace.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>

#include "error.h"
#include "input_limits.h"
#include "presets.h"
#include "texts.h"

namespace attnviz {

namespace fs = std::filesystem;

ModelColumn loadModelColumn(const std::string& path) {
    ModelColumn c;
    c.path = path;
    c.model = std::make_shared<Model>(Model::load(path));
    if (!c.model->training().name.empty()) {
        c.name = c.model->training().name;
    } else {
        c.name = fs::path(path).stem().string();
        const size_t digits = c.name.find_first_not_of("0123456789");
        if (digits > 0 && digits != std::string::npos && c.name[digits] == '-')
            c.name.erase(0, digits + 1);
    }
    c.fileConfig = c.model->config().toJson().dump();
    return c;
}

bool isModified(const ModelColumn& c) {
    return !c.fileConfig.empty() && c.model && c.model->config().toJson().dump() != c.fileConfig;
}

std::vector<ModelColumn> loadModelDirectory(const std::string& dir,
                                            std::vector<std::string>* errors) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file(ec) && e.path().extension() == ".safetensors")
            files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    std::vector<ModelColumn> out;
    for (const auto& f : files) {
        try {
            out.push_back(loadModelColumn(f));
        } catch (const std::exception& e) {
            if (errors) errors->push_back(e.what());
        }
    }
    return out;
}

namespace {

bool isCheckpoint(const fs::directory_entry& e) {
    std::error_code ec;
    return e.path().extension() == ".safetensors" && e.is_regular_file(ec);
}

// The set of one folder (relative path `rel`, "." for the top; `checkpoints` its *.safetensors,
// sorted): its set.json, else its name.
ModelSet readModelSet(const fs::path& folder, const std::string& rel,
                      const std::vector<fs::path>& checkpoints) {
    ModelSet set;
    set.dir = rel;
    const std::string byFolder = rel == "." ? folder.filename().string() : rel;
    set.id = set.label = byFolder;
    std::error_code ec;
    if (fs::exists(folder / "set.json", ec)) {
        try {
            const std::string file = (folder / "set.json").string();
            const nlohmann::json j =
                parseJson(readTextFile(file, kMaxConfigBytes, "model set"), "'" + file + "'");
            if (!j.is_object()) throw Error("'" + file + "' is not a JSON object");
            for (const auto& [key, value] : j.items()) {
                if (key == "id" || key == "name") {
                    if (!value.is_string() || value.get<std::string>().empty())
                        throw Error("'" + file + "': '" + key + "' must be a non-empty string");
                    (key == "id" ? set.id : set.label) = value.get<std::string>();
                } else if (key == "order") {
                    if (!value.is_number_integer())
                        throw Error("'" + file + "': 'order' must be an integer");
                    set.order = value.get<int>();
                } else {
                    throw Error("'" + file + "': unknown key '" + excerpt(key) +
                                "' (known: id, name, order)");
                }
            }
        } catch (const std::exception& e) {  // none of the file is used
            set.id = set.label = byFolder;
            set.order = ModelSet().order;
            set.problem = e.what();
        }
    }
    for (const auto& f : checkpoints) {  // the first checkpoint that reads says what the set holds
        try {
            set.images = Model::readConfig(f.string()).isVision();
            break;
        } catch (const std::exception&) {
        }
    }
    return set;
}

std::vector<ModelSet> findModelSets(const fs::path& top) {
    std::vector<ModelSet> sets;
    auto consider = [&](const fs::path& folder, const std::string& rel) {
        std::error_code ec;
        std::vector<fs::path> checkpoints;  // the folder is read once
        for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
            if (isCheckpoint(*it)) checkpoints.push_back(it->path());
        std::sort(checkpoints.begin(), checkpoints.end());
        if (!checkpoints.empty() || fs::exists(folder / "set.json", ec))
            sets.push_back(readModelSet(folder, rel, checkpoints));
    };
    consider(top, ".");
    std::error_code ec;
    for (fs::recursive_directory_iterator it(top, ec), end; !ec && it != end; it.increment(ec)) {
        if (it.depth() >= 4) it.disable_recursion_pending();  // four levels deep at most
        if (it->is_directory(ec) && !it->is_symlink(ec))
            consider(it->path(), fs::relative(it->path(), top, ec).generic_string());
    }
    std::stable_sort(sets.begin(), sets.end(), [](const ModelSet& a, const ModelSet& b) {
        return a.order != b.order ? a.order < b.order : a.id < b.id;
    });
    // Two folders that claim one id: the later one is called by its folder.
    for (size_t i = 1; i < sets.size(); ++i)
        for (size_t k = 0; k < i; ++k)
            if (sets[i].id == sets[k].id) {
                sets[i].problem =
                    "another folder (" + sets[k].dir + ") is the set '" + sets[k].id + "' already";
                sets[i].id = sets[i].dir;
            }
    return sets;
}

}  // namespace

const std::vector<ModelSet>& modelSets() {
    // Found once per folder: ATTNVIZ_MODELS may name another one later (tests do).
    static std::mutex lock;
    static std::map<std::string, std::unique_ptr<const std::vector<ModelSet>>> found;
    const std::string top = bundledModelDirectory();
    const std::lock_guard<std::mutex> hold(lock);
    auto& sets = found[top];
    if (!sets) sets = std::make_unique<const std::vector<ModelSet>>(findModelSets(top));
    return *sets;
}

const ModelSet* findModelSet(const std::string& id) {
    for (const auto& s : modelSets())
        if (s.id == id) return &s;
    return nullptr;
}

std::string modelSetDirectory(const ModelSet& set) {
    return set.dir == "." ? bundledModelDirectory() : bundledModelDirectory() + "/" + set.dir;
}

int modelSetSize(const ModelSet& set) {
    std::error_code ec;
    int n = 0;
    for (fs::directory_iterator it(modelSetDirectory(set), ec), end; !ec && it != end;
         it.increment(ec))
        n += isCheckpoint(*it);
    return n;
}

const std::vector<ComparisonPreset>& comparisonPresets() {
    static const std::vector<ComparisonPreset> presets{
        {"dot-hc-sa",
         ATTNVIZ_TR("attnviz::Engine", "Dot-product vs hard-coded Gaussian (HC-SA)"),
         {"dot", "hc-sa|gaussian"}},
        {"hc-sa-paper",
         ATTNVIZ_TR("attnviz::Engine", "The hard-coded attention paper's four (You et al. 2020)"),
         {"dot", "hc-sa|gaussian", "hc-all", "hc-sa-1head"}},
        {"synthesizer",
         ATTNVIZ_TR("attnviz::Engine", "The Synthesizer family (Tay et al. 2021) beside dot"),
         {"dot", "dense", "random", "fixed-random", "factorized-dense", "factorized-random",
          "random+dot", "dense+dot"}},
        {"all", ATTNVIZ_TR("attnviz::Engine", "Every model of the set"), {}}};
    return presets;
}

const ComparisonPreset* findComparisonPreset(const std::string& id) {
    for (const auto& p : comparisonPresets())
        if (p.id == id) return &p;
    return nullptr;
}

std::string presetKey(const ModelColumn& c) {
    if (c.path.empty()) return {};
    std::string stem = fs::path(c.path).stem().string();
    size_t digits = 0;
    while (digits < stem.size() && std::isdigit(static_cast<unsigned char>(stem[digits]))) ++digits;
    if (digits > 0 && digits < stem.size() && stem[digits] == '-') stem.erase(0, digits + 1);
    if (stem.rfind("lm-", 0) == 0) stem.erase(0, 3);
    return stem;
}

std::vector<ModelColumn> presetColumns(const std::vector<ModelColumn>& columns,
                                       const ComparisonPreset& preset) {
    if (preset.models.empty()) return columns;
    std::vector<ModelColumn> out;
    for (const std::string& entry : preset.models) {
        std::vector<std::string> names;  // the alternatives, in order of preference
        for (size_t at = 0; at <= entry.size();) {
            const size_t bar = std::min(entry.find('|', at), entry.size());
            names.push_back(entry.substr(at, bar - at));
            at = bar + 1;
        }
        bool found = false;
        for (const std::string& name : names) {
            for (const ModelColumn& c : columns)
                if (presetKey(c) == name) {
                    out.push_back(c);
                    found = true;
                    break;
                }
            if (found) break;
        }
    }
    return out;
}

ColumnResult namedResult(const ModelColumn& c) {
    ColumnResult r;
    r.name = c.name;
    r.untrained = c.model->training().untrained();
    // Edited settings are said wherever the name appears: grid, titles, figures.
    r.modified = isModified(c);
    if (r.modified) r.name += " (modified)";
    return r;
}

ColumnResult analyzeColumn(const ModelColumn& c, const std::string& source,
                           const std::string& target, AnalysisStage stage,
                           const std::atomic<bool>* cancel) {
    ColumnResult r;
    r.name = c.name;
    try {
        std::lock_guard<std::mutex> g(*c.lock);
        r = namedResult(c);
        if (stage == AnalysisStage::Source) {
            r.analysis = c.model->analyzeSource(source);
            r.partial = c.model->config().hasEncoder();
        } else {
            r.analysis = target.empty()
                             ? c.model->analyze(source, std::nullopt, cancel)
                             : c.model->analyze(source, std::string_view(target), cancel);
        }
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

std::string inputError(const ModelColumn& c, const std::string& source, const std::string& target) {
    try {
        std::lock_guard<std::mutex> g(*c.lock);
        if (target.empty())
            c.model->checkInput(source);
        else
            c.model->checkInput(source, std::string_view(target));
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

Results analyzeAll(const std::vector<ModelColumn>& columns, const std::string& source,
                   const std::string& target) {
    // Models are independent (each has its own lock): analyse them on every core.
    std::vector<std::future<ColumnResult>> running;
    for (const auto& c : columns)
        running.push_back(std::async(std::launch::async, [&c, &source, &target] {
            return analyzeColumn(c, source, target);
        }));
    Results out;
    for (auto& f : running) out.push_back(f.get());
    return out;
}

std::vector<ModelColumn> untrainedPresetColumns(const std::vector<std::string>& ids, int maxLen,
                                                const std::vector<std::string>& words) {
    const auto presets = loadPresets(presetDirectory());
    const Vocab v = Vocab::fromWords(words);
    std::vector<ModelColumn> out;
    for (const std::string& id : ids) {
        const nlohmann::json cfg =
            presetConfig(findPreset(presets, id), {{"max_len", maxLen}}, false);
        ModelColumn c;
        c.name = id + " (untrained, max_len " + std::to_string(maxLen) + ")";
        c.model = std::make_shared<Model>(
            Model::initialize(ModelConfig::fromJson(cfg), v, v, Tokenizer(true), 1));
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace attnviz
