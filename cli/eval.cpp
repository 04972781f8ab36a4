// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli eval: held-out metrics of a checkpoint on a built-in task or a data file.
#include <algorithm>
#include <ostream>

#include "command.h"
#include "core/data.h"
#include "core/error.h"
#include "core/evaluate.h"
#include "core/file_io.h"
#include "core/image_set.h"
#include "core/input_limits.h"
#include "core/tasks.h"
#include "core/training_job.h"
#include "core/word_alignment.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

// --split of an image task: fashion-mnist's test file or the validation images held out of its
// training file; the clothing photos' test or validation file.
const std::vector<std::string> kSplits{"test", "validation"};

class EvalCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_model, m_task, m_data, m_align, m_hypotheses, m_split = "test";
    std::string m_predictions;  // images: each image's prediction and label, one per line
    CLI::Option* m_countOption = nullptr;
    void runImages(const Context& ctx, Model& model);
    int m_count = 200, m_batch = 64;
    uint64_t m_seed = 1;
    bool m_noDecode = false;
};

CLI::App* EvalCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand("eval", "Held-out metrics of a checkpoint as JSON");
    input(c->add_option("--model", m_model, "Checkpoint (.safetensors)"))->required();
    auto* task = oneOf(c->add_option("--task", m_task, "Built-in task"), allTaskNames);
    auto* data =
        input(c->add_option("--data", m_data, "TSV or text file"))->check(CLI::ExistingFile);
    task->excludes(data);
    input(
        c->add_option("--align", m_align,
                      "With a TSV --data: its word alignments, line by line (\"s-t\" sure, "
                      "\"s?t\" possible, as make-corpus writes them): AER of every cross-attention "
                      "head over words"))
        ->check(CLI::ExistingFile)
        ->needs(data);
    m_countOption = c->add_option("--count", m_count,
                                  "Task: examples (fashion-mnist: the first N images of the "
                                  "split; default all)")
                        ->capture_default_str()
                        ->check(integerIn(1, kMaxExampleCount));
    oneOf(c->add_option("--split", m_split,
                        "fashion-mnist: test (the 10,000 test images) or validation (the last "
                        "5,000 training images, held out from training)"),
          [] { return kSplits; })
        ->capture_default_str();
    c->add_option("--seed", m_seed, "Task: seed of the held-out examples (as train --seed)")
        ->capture_default_str()
        ->check(nonNegative());
    c->add_option("--batch-size", m_batch, "Sequences per batch")
        ->capture_default_str()
        ->check(integerIn(1, kMaxBatchSize));
    auto* noDecode =
        c->add_flag("--no-decode", m_noDecode, "Skip greedy decoding (no BLEU, no exact match)");
    output(c->add_option(
               "--hypotheses", m_hypotheses,
               "Write each example's greedy output and reference, as the words BLEU counts, to "
               "this file: one line per example, hypothesis TAB reference, words separated by "
               "spaces (for per-sentence statistics, e.g. a paired bootstrap)"))
        ->excludes(noDecode);
    output(c->add_option("--predictions", m_predictions,
                         "Images: write each image's predicted class and its label to this "
                         "file, one line per image in the split's order, predicted TAB label "
                         "(class indices; for paired tests such as McNemar's)"));
    return c;
}

void EvalCommand::run(const Context& ctx) {
    if (m_task.empty() == m_data.empty()) throw Error("eval needs --task or --data");
    if (!m_hypotheses.empty()) checkOutputPath(m_hypotheses, "--hypotheses");
    if (!m_predictions.empty()) checkOutputPath(m_predictions, "--predictions");
    Model model = Model::load(m_model);
    if (isImageTask(m_task) || model.config().isVision()) {
        if (!m_hypotheses.empty()) throw Error("--hypotheses needs a translation model");
        return runImages(ctx, model);
    }
    if (!m_predictions.empty())
        throw Error("--predictions needs an image model (text models: --hypotheses)");
    if (!m_hypotheses.empty() && !model.config().hasEncoder())
        throw Error("--hypotheses needs a seq2seq model (a decoder-only model decodes nothing)");
    std::vector<Example> examples;
    json j{{"model", m_model}};
    if (!m_task.empty()) {
        const auto task = makeTask(m_task);
        if (task->seq2seq() != model.config().hasEncoder()) {
            throw Error("task '" + excerpt(m_task) + "' needs a " +
                        (task->seq2seq() ? "seq2seq" : "decoder-only") + " model, but '" + m_model +
                        "' is " + (task->seq2seq() ? "decoder-only" : "seq2seq"));
        }
        const double need = model.config().trainingBytes(std::min(m_batch, m_count), 1) / 4;
        if (need > double(kMaxRequestBytes))
            throw Error("evaluating with --batch-size " + std::to_string(m_batch) + " needs " +
                        gigabytes(need) + "; the limit is " + gigabytes(double(kMaxRequestBytes)) +
                        ": lower --batch-size");
        examples = taskHeldOut(*task, m_seed, m_count);
        j["task"] = m_task;
    } else {
        const int limit = std::min(model.config().maxLen, Model::kMaxTokens) - 1;
        const LoadedData d =
            loadData(m_data, model.config().hasEncoder(), model.tokenizer(), limit);
        if (!d.skipped.empty())
            ctx.err << "attnviz-cli: note: " << m_data << ": " << describeSkipped(d) << "\n";
        examples = d.examples;
        j["data"] = m_data;
    }
    const Evaluation ev = evaluate(model, examples, EvalOptions{m_batch, !m_noDecode});
    j["metrics"] = ev.toJson();
    if (!m_hypotheses.empty()) {
        std::string text;
        auto words = [&text](const Tokens& t) {
            for (size_t i = 0; i < t.size(); ++i) text += (i ? " " : "") + t[i];
        };
        for (size_t i = 0; i < ev.hypotheses.size(); ++i) {
            words(ev.hypotheses[i]);
            text += '\t';
            words(ev.references[i]);
            text += '\n';
        }
        writeFileAtomically(m_hypotheses, text);
    }
    if (!m_align.empty()) {
        const WordAlignmentResult w =
            wordAlignmentErrors(model, loadWordAlignedPairs(m_data, m_align), m_batch);
        json heads = json::array();
        const HeadAer* best = nullptr;
        for (const auto& h : w.heads) {
            heads.push_back({{"layer", h.layer},
                             {"head", h.head},
                             {"aer", h.aer},
                             {"sure_aer", h.sureAer.value_or(0)},
                             {"sure_recall", h.sureRecall.value_or(0)}});
            if (!best || h.aer < best->aer) best = &h;
        }
        json& a = j["metrics"]["word_aer"] = {
            {"scored", w.scored}, {"skipped", w.skipped}, {"heads", heads}};
        if (best)
            a["best"] = {{"layer", best->layer},
                         {"head", best->head},
                         {"aer", best->aer},
                         {"sure_aer", best->sureAer.value_or(0)},
                         {"sure_recall", best->sureRecall.value_or(0)}};
    }
    ctx.out << jsonText(j, 2) << "\n";
}

// An image task (fashion-mnist, clothing-photos): accuracy, per-class accuracy and the
// confusion matrix on a split.
void EvalCommand::runImages(const Context& ctx, Model& model) {
    const ImageTask* task = findImageTask(m_task);
    if (!task)
        throw Error("'" + m_model + "' is an image model (arch \"vit\"): evaluate it with --task " +
                    imageTaskNames());
    if (std::find(kSplits.begin(), kSplits.end(), m_split) == kSplits.end())
        throw Error("--split must be " + alternatives(kSplits) + ", got '" + excerpt(m_split) +
                    "'");
    task->checkModel(model.config(), "'" + m_model + "'");
    ImageSet set = task->load(m_split);
    if (m_countOption->count() && size_t(m_count) < set.size()) set = set.slice(0, size_t(m_count));
    const std::vector<Example> examples = imageExamples(set);
    const Classification c = classifyImages(model, examples, m_batch);
    if (!m_predictions.empty()) {
        std::string text;
        for (size_t i = 0; i < examples.size(); ++i)
            text +=
                std::to_string(c.predicted[i]) + "\t" + std::to_string(examples[i].label) + "\n";
        writeFileAtomically(m_predictions, text);
    }
    json j{{"model", m_model}, {"task", m_task}, {"split", m_split}};
    j["metrics"] = c.toJson(model.classNames());
    ctx.out << jsonText(j, 2) << "\n";
}

}  // namespace

std::unique_ptr<Command> makeEvalCommand() {
    return std::make_unique<EvalCommand>();
}

}  // namespace attnviz::cli
