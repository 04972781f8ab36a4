// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every head of one model over a set of sentences, as `attnviz-cli analyze --data` computes
// it (docs/analysis.md): the sentences read from "source" or "source TAB target" lines, each
// head's statistics over the analyses of all of them, and the examples head importance
// (core/head_importance.h) needs. The app's Heads dock runs these, sentence by sentence, on a
// worker thread ("Over the sentence list"). The same for image models over test images
// (analyzeImageSet: "Over test images").
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "head_importance.h"
#include "head_stats.h"
#include "image_set.h"
#include "model.h"
#include "tasks.h"

namespace attnviz {

// One sentence of a set, and its reference target when the line gives one.
struct SetSentence {
    std::string source;
    std::optional<std::string> target;
};

// Lines as `analyze --data` reads them: a trailing '\r' dropped, blank lines skipped;
// "source TAB target" split for a seq2seq model (a decoder-only model's line is its text,
// whole). Without a target, Model::analyze decodes greedily.
std::vector<SetSentence> sentenceSet(const std::vector<std::string>& lines, bool seq2seq);

// Head `head` of captured block `block` over the analyses of one model, one per sentence
// (the same blocks in each): its tables [Nq, Nk] over every run, causal in decoder
// self-attention, through headStats; with two runs or more, inputDependence too.
struct HeadSetStats {
    HeadStats stats;
    double inputDependence = 0;  // meaningful when compared > 0
    int compared = 0;            // rows in groups of two sentences or more (0: none)
};
HeadSetStats headSetStats(const std::vector<Analysis>& runs, size_t block, int head);
// The tables headSetStats reads (they point into `runs`).
std::vector<HeadTable> headTables(const std::vector<Analysis>& runs, size_t block, int head);
std::vector<HeadTable> headTables(const std::vector<const Analysis*>& runs, size_t block, int head);

// The examples of head importance for `model`: tokenized with its tokenizer; a seq2seq model
// needs the reference target (sentences without one are counted, not used), a decoder-only
// model's text is its target. Sentences with an empty target or longer than the model takes
// are counted and left out.
struct ImportanceExamples {
    std::vector<Example> examples;
    int withoutTarget = 0;  // seq2seq sentences without a reference target
    int unusable = 0;       // empty, or too long for the model
};
ImportanceExamples importanceExamples(const Model& model,
                                      const std::vector<SetSentence>& sentences);

// One model over a set of sentences: what `attnviz-cli analyze --data|--task` and the Heads
// dock's "Over the sentence list" show, computed here for both (issue 26). Each sentence is
// analysed (seq2seq without a target: decoded greedily); one that fails (too long, empty) is
// skipped and counted. Every head gets its statistics over all the analysed sentences
// (headSetStats), in capture order; with `importance`, each head's importance (Michel et al.
// 2019) over the sentences that make usable examples.
struct SetRequest {
    bool importance = false;
    std::function<bool()> cancelled;     // true: stop (between sentences and heads)
    std::function<void()> sentenceDone;  // after each sentence, for progress
};
struct SetHead {
    size_t block = 0;  // index of the captured block
    BlockKind kind = BlockKind::EncoderSelf;
    int layer = 0, head = 0;
    std::string variant;
    HeadSetStats set;
    Eigen::Index keys = 0;  // the most keys of any sentence: the fit's bound |μ| <= keys
    int importance = -1;    // its entry in SetAnalysis::importance, -1 when not computed
};
struct SetAnalysis {
    std::vector<Analysis> runs;              // the sentences analysed
    int skipped = 0;                         // sentences that could not be
    std::string firstProblem;                // why the first of them could not
    std::vector<SetHead> heads;              // every head, in capture order (empty when no run)
    ImportanceExamples examples;             // with importance: the usable sentences
    std::vector<HeadImportance> importance;  // with importance and examples: capture order
    std::string importanceError;             // headImportance failed: why
    bool cancelled = false;                  // stopped early: the rest is incomplete
};
SetAnalysis analyzeSet(Model& model, const std::vector<SetSentence>& sentences,
                       const SetRequest& request = {});

// One image model over every image of `images` (issue 28): each head's mean attention
// distance over all of them (AttentionDistances; Dosovitskiy et al. 2021, Fig. 7), what
// `attnviz-cli analyze --fashion-mnist-count N` and the Heads dock's "Over test images" show.
// request.sentenceDone is called after each image; request.importance is not used. Error when
// the model reads no images or the images are of another size.
struct ImageSetAnalysis {
    explicit ImageSetAnalysis(PatchGrid grid) : distances(grid) {}
    AttentionDistances distances;
    std::vector<CapturedBlock>
        blocks;              // each block's name, kind, layer, variant, heads; no weights
    bool cancelled = false;  // stopped early: the means are over images() so far
};
ImageSetAnalysis analyzeImageSet(Model& model, const ImageSet& images,
                                 const SetRequest& request = {});

}  // namespace attnviz
