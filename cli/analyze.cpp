// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli analyze: what every head does, in numbers (core/head_stats.h, docs/analysis.md):
// entropy, confidence, distance, the best Gaussian window with its R², the relative-offset
// profile, and with several sentences the input dependence. JSON. On an image model (arch
// "vit"): every head's mean attention distance in pixels over one image or many.
#include <algorithm>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>

#include "command.h"
#include "core/error.h"
#include "core/evaluate.h"
#include "core/file_io.h"
#include "core/head_importance.h"
#include "core/head_stats.h"
#include "core/head_table.h"
#include "core/image_set.h"
#include "core/input_limits.h"
#include "core/model.h"
#include "core/tasks.h"
#include "core/training_job.h"
#include "image_input.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

class AnalyzeCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_model, m_text, m_target, m_data, m_task, m_out, m_pruneData;
    int m_count = 200, m_maxOffset = 8, m_imageCount = 1000, m_pruneCount = 0, m_randomOrders = 1;
    bool m_rollout = false, m_importance = false, m_prune = false;
    uint64_t m_seed = 1;
    CLI::Option *m_targetOpt = nullptr, *m_textOpt = nullptr, *m_imageCountOpt = nullptr;
    ImageInput m_image;

    using Inputs = std::vector<std::pair<std::string, std::optional<std::string>>>;
    Inputs readInputs(const Model& m, bool haveText) const;
    static Inputs readLines(const Model& m, const std::string& path, int count);
    nlohmann::json rolloutJson(const std::vector<Analysis>& runs) const;
    nlohmann::json pruneJson(Model& m, const SetAnalysis& set) const;
    void runText(const Context& ctx, Model& m);
    void runImages(const Context& ctx, Model& m);
    void write(const Context& ctx, const nlohmann::json& out) const;
};

CLI::App* AnalyzeCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand(
        "analyze",
        "Per-head statistics: entropy, confidence, distance, Gaussian fit, input dependence; "
        "on image models the mean attention distance in pixels");
    input(c->add_option("--model", m_model, "Checkpoint (.safetensors)"))->required();
    auto* text = m_textOpt =
        c->add_option("--text", m_text, "One sentence (decoder-only models: the text)");
    m_targetOpt = c->add_option("--target", m_target,
                                "Its target; without it a seq2seq model decodes greedily")
                      ->needs(text);
    auto* data = input(c->add_option("--data", m_data,
                                     "Sentences, one per line (source, or source TAB target)"))
                     ->check(CLI::ExistingFile);
    auto* task =
        oneOf(c->add_option("--task", m_task, "Held-out examples of a built-in task"), taskNames);
    text->excludes(data)->excludes(task);
    data->excludes(task);
    c->add_option("--count", m_count, "At most this many sentences of --data or --task")
        ->capture_default_str()
        ->check(integerIn(1, 100000));
    c->add_option("--seed", m_seed, "--task: seed of the held-out examples")
        ->capture_default_str()
        ->check(nonNegative());
    c->add_option("--max-offset", m_maxOffset, "Relative-offset profile over -N..N")
        ->capture_default_str()
        ->check(integerIn(0, 1024));
    c->add_flag("--rollout", m_rollout,
                "With --text: attention rollout (Abnar & Zuidema 2020) of the encoder and of the "
                "decoder self-attention");
    c->add_flag("--importance", m_importance,
                "With --data (source TAB target lines) or --task: head importance (Michel et al. "
                "2019), E|dL/d gate| over the sentences");
    c->add_flag("--prune", m_prune,
                "With --importance: the pruning curves, loss and BLEU after removing heads one "
                "by one, least important first and in a random order");
    auto* pruneData =
        input(c->add_option("--prune-data", m_pruneData,
                            "With --prune: measure the curves on these sentences (source TAB "
                            "target), not on the ones the importance was computed on: pruning "
                            "out of sample"))
            ->check(CLI::ExistingFile);
    c->add_option("--prune-count", m_pruneCount,
                  "At most this many sentences of --prune-data (default: --count)")
        ->check(integerIn(1, 100000))
        ->needs(pruneData);
    c->add_option("--random-orders", m_randomOrders,
                  "With --prune: this many random orders, drawn one after the other from --seed "
                  "(the first is the same for any number)")
        ->capture_default_str()
        ->check(integerIn(1, 1000));
    m_image.addOptions(c);
    imageFiles(c);
    m_imageCountOpt = c->add_option("--fashion-mnist-count", m_imageCount,
                                    "Image models: average over the first N images of --split of "
                                    "the model's image set, Fashion-MNIST or the clothing photos "
                                    "(the default without --image, --fashion-mnist or --photo)")
                          ->capture_default_str()
                          ->check(integerIn(1, 60000));
    output(c->add_option("--out", m_out, "Output file (default: standard output)"), true);
    return c;
}

std::string joined(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

// The sentences to analyse: (source, target or none) pairs from --text, --data or --task.
AnalyzeCommand::Inputs AnalyzeCommand::readInputs(const Model& m, bool haveText) const {
    const bool seq2seq = m.config().hasEncoder();
    Inputs inputs;
    if (haveText) {
        inputs.emplace_back(m_text, m_targetOpt->count() ? std::optional(m_target) : std::nullopt);
    } else if (!m_data.empty()) {
        inputs = readLines(m, m_data, m_count);
    } else {
        const auto t = makeTask(m_task);
        if (t->seq2seq() != seq2seq)
            throw Error("task '" + excerpt(m_task) + "' does not fit '" + m_model +
                        "' (seq2seq or not)");
        for (const Example& e : taskHeldOut(*t, m_seed, m_count))
            inputs.emplace_back(seq2seq ? joined(e.src) : joined(e.tgt),
                                seq2seq ? std::optional(joined(e.tgt)) : std::nullopt);
    }
    return inputs;
}

// The first `count` non-blank lines of `path`: source TAB target (seq2seq), or text.
AnalyzeCommand::Inputs AnalyzeCommand::readLines(const Model& m, const std::string& path,
                                                 int count) {
    const bool seq2seq = m.config().hasEncoder();
    Inputs inputs;
    std::istringstream in(readTextFile(path, kMaxDataBytes, "'" + path + "'"));
    std::string line;
    while (int(inputs.size()) < count && std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        const size_t tab = line.find('\t');
        if (tab == std::string::npos || !seq2seq)
            inputs.emplace_back(line, std::nullopt);
        else
            inputs.emplace_back(line.substr(0, tab), line.substr(tab + 1));
    }
    return inputs;
}

// Attention rollout of the one sentence, per self-attention kind.
json AnalyzeCommand::rolloutJson(const std::vector<Analysis>& runs) const {
    json rollout = json::object();
    {
        if (runs.size() != 1) throw Error("--rollout needs one sentence (--text)");
        for (BlockKind kind : {BlockKind::EncoderSelf, BlockKind::DecoderSelf}) {
            std::vector<Mat> means;
            for (const auto& b : runs.front().blocks) {
                if (b.kind != kind) continue;
                Mat mean = Mat::Zero(b.weights.front().rows(), b.weights.front().cols());
                for (const Mat& w : b.weights) mean += w;
                means.push_back(mean / Scalar(b.weights.size()));
            }
            if (means.empty()) continue;
            const Mat r = attentionRollout(means);
            json m = json::array();
            for (Eigen::Index i = 0; i < r.rows(); ++i)
                m.push_back(std::vector<double>(r.row(i).data(), r.row(i).data() + r.cols()));
            rollout[blockKindName(kind)] = m;
        }
    }
    return rollout;
}

// With --prune: the curves of removing heads one by one (core/head_importance.h), loss and
// BLEU after each, over the examples the importance was computed on or, with --prune-data,
// over those sentences (out of sample).
json AnalyzeCommand::pruneJson(Model& m, const SetAnalysis& set) const {
    std::vector<Example> held;
    if (!m_pruneData.empty()) {
        std::vector<SetSentence> sentences;
        for (const auto& [src, tgt] :
             readLines(m, m_pruneData, m_pruneCount > 0 ? m_pruneCount : m_count))
            sentences.push_back({src, tgt});
        held = importanceExamples(m, sentences).examples;
        if (held.empty())
            throw Error(
                "--prune-data '" + m_pruneData + "' has no usable sentence" +
                std::string(m.config().hasEncoder() ? " (it needs source TAB target lines)" : ""));
    }
    const std::vector<Example>& examples = held.empty() ? set.examples.examples : held;
    const PruneCurves curves =
        pruneHeads(m, examples, set.importance, m_seed, {}, nullptr, m_randomOrders);
    auto points = [](const std::vector<PrunePoint>& curve) {
        json out = json::array();
        for (const PrunePoint& pt : curve) {
            json p{{"removed", pt.removed}, {"loss", pt.loss}};
            if (pt.bleu) p["bleu"] = *pt.bleu;
            if (pt.head)
                p["head"] = {{"block", blockKindName(pt.head->kind)},
                             {"layer", pt.head->layer},
                             {"head", pt.head->head}};
            out.push_back(p);
        }
        return out;
    };
    json orders = json::array({points(curves.random)});
    for (const auto& more : curves.moreRandom) orders.push_back(points(more));
    json out{{"by_importance", points(curves.byImportance)},
             {"random", points(curves.random)},
             {"random_orders", orders},
             {"seed", m_seed},
             {"sentences", examples.size()},
             {"importance_sentences", set.examples.examples.size()}};
    if (!m_pruneData.empty()) out["data"] = std::filesystem::path(m_pruneData).filename().string();
    return out;
}

void AnalyzeCommand::run(const Context& ctx) {
    if (!m_out.empty() && m_out != "-") checkOutputPath(m_out);
    m_image.check({});
    Model m = Model::load(m_model);
    if (m.config().isVision()) return runImages(ctx, m);
    if (m_image.given() || m_imageCountOpt->count())
        throw Error(
            "--image, --fashion-mnist and --fashion-mnist-count need an image model; this one "
            "reads text");
    runText(ctx, m);
}

void AnalyzeCommand::runText(const Context& ctx, Model& m) {
    const bool haveText = m_textOpt->count() > 0;
    if (!haveText + m_data.empty() + m_task.empty() != 2)
        throw Error("analyze needs one of --text, --data or --task");
    if (m_prune && !m_importance) throw Error("--prune needs --importance");
    if ((!m_pruneData.empty() || m_randomOrders != 1) && !m_prune)
        throw Error("--prune-data and --random-orders need --prune");
    if (m_importance && haveText)
        throw Error("--importance needs a set of sentences: --data or --task");
    std::vector<SetSentence> sentences;
    for (const auto& [src, tgt] : readInputs(m, haveText)) sentences.push_back({src, tgt});
    // Every sentence analysed, every head's statistics over them (the Heads dock's road).
    const SetAnalysis set = analyzeSet(m, sentences, {m_importance, {}, {}});
    if (sentences.empty()) throw Error("no sentence to analyse: the input holds none");
    // A reason is always given, even if the analysis left none.
    const std::string problem =
        set.firstProblem.empty() ? std::string("no reason was given") : set.firstProblem;
    if (set.runs.empty() && sentences.size() == 1) throw Error(m_model + ": " + problem);
    if (set.runs.empty()) throw Error("no sentence could be analysed: " + problem);
    if (set.skipped > 0)
        ctx.err << "attnviz-cli: note: " << set.skipped << " of " << sentences.size()
                << " sentences skipped (first: " << set.firstProblem << ")\n";
    if (m_importance && !set.importanceError.empty()) throw Error(set.importanceError);
    if (m_importance && set.importance.empty())
        throw Error(
            "--importance found no usable sentence" +
            std::string(m.config().hasEncoder() ? " (it needs source TAB target lines)" : ""));
    json heads = json::array();
    for (const SetHead& head : set.heads) {
        const HeadStats& s = head.set.stats;
        json j{
            {"block", blockKindName(head.kind)},
            {"layer", head.layer},
            {"head", head.head},
            {"variant", head.variant},
            {"entropy", s.entropy},
            {"confidence", s.confidence},
            {"distance", s.distance},
            {"rows", s.rows},
            {"gaussian_fit", {{"offset", s.fit.offset}, {"sigma", s.fit.sigma}, {"r2", s.fit.r2}}},
            {"offset_profile",
             offsetProfile(headTables(set.runs, head.block, head.head), m_maxOffset)}};
        if (set.runs.size() > 1) {
            j["input_dependence"] = head.set.inputDependence;
            j["input_dependence_rows"] = head.set.compared;
        }
        if (head.importance >= 0) {
            j["importance"] = set.importance[size_t(head.importance)].importance;
            j["importance_normalised"] = set.importance[size_t(head.importance)].normalised;
        }
        heads.push_back(j);
    }
    json out{{"model", m_model},
             {"sentences", set.runs.size()},
             {"max_offset", m_maxOffset},
             {"definitions", "docs/analysis.md"},
             {"heads", heads}};
    if (m_rollout) out["rollout"] = rolloutJson(set.runs);
    if (m_prune) out["prune"] = pruneJson(m, set);
    write(ctx, out);
}

// Every head's mean attention distance (core/head_stats.h, docs/model-spec.md 4.4) over one
// image (--image, --fashion-mnist) or the first --fashion-mnist-count images of --split.
void AnalyzeCommand::runImages(const Context& ctx, Model& m) {
    if (m_textOpt->count() || !m_data.empty() || !m_task.empty())
        throw Error("'" + m_model +
                    "' is an image model: give --image, --fashion-mnist or "
                    "--fashion-mnist-count, not --text, --data or --task");
    if (m_rollout || m_importance || m_prune)
        throw Error("--rollout, --importance and --prune are for text models");
    if (m_image.given() && m_imageCountOpt->count())
        throw Error("give one image (--image, --fashion-mnist) or --fashion-mnist-count, not both");
    const PatchGrid grid = patchGrid(m.config());
    AttentionDistances distances(grid);
    std::string source;
    std::optional<bool> inverted;
    std::vector<CapturedBlock> names;  // the blocks' names, kinds and variants, no weights
    auto add = [&](const std::vector<uint8_t>& pixels, std::optional<int> label) {
        const ImageAnalysis a = m.analyzeImage(pixels, label);
        distances.add(a.blocks);
        if (names.empty())
            for (const CapturedBlock& b : a.blocks)
                names.push_back({b.name, b.kind, b.layer, b.variant, b.heads, {}});
    };
    if (m_image.given()) {
        const ImageInput::Loaded in = m_image.load(m, m_model);
        add(in.pixels, in.label);
        source = in.source;
        inverted = in.inverted;
    } else {
        ImageSetAnalysis set =
            analyzeImageSet(m, m_image.loadMany(m, m_model, m_imageCount, source));
        distances = std::move(set.distances);
        names = std::move(set.blocks);
    }
    const auto perHead = distances.perHead();
    const auto perBlock = distances.perBlock();
    json heads = json::array(), layers = json::array();
    for (size_t b = 0; b < names.size(); ++b) {
        const CapturedBlock& blk = names[b];
        for (size_t h = 0; h < perHead[b].size(); ++h)
            heads.push_back({{"block", blockKindName(blk.kind)},
                             {"layer", blk.layer},
                             {"head", int(h)},
                             {"variant", blk.variant},
                             {"distance_px", perHead[b][h].px},
                             {"rows", perHead[b][h].rows}});
        layers.push_back({{"block", blockKindName(blk.kind)},
                          {"layer", blk.layer},
                          {"variant", blk.variant},
                          {"distance_px", perBlock[b]}});
    }
    json out{{"model", m_model},
             {"images", distances.images()},
             {"source", source},
             {"grid", {{"patches", grid.grid}, {"patch_px", grid.patch}}},
             {"uniform_distance_px", uniformAttentionDistance(grid)},
             {"definitions", "docs/analysis.md"},
             {"heads", heads},
             {"layers", layers}};
    if (inverted) out["inverted"] = *inverted;
    write(ctx, out);
}

void AnalyzeCommand::write(const Context& ctx, const nlohmann::json& out) const {
    const std::string text = jsonText(out, 2) + "\n";
    if (m_out.empty() || m_out == "-") {
        ctx.out << text;
    } else {
        writeFileAtomically(m_out, text);
        ctx.out << "wrote " << m_out << "\n";
    }
}

}  // namespace

std::unique_ptr<Command> makeAnalyzeCommand() {
    return std::make_unique<AnalyzeCommand>();
}

}  // namespace attnviz::cli
