// SPDX-License-Identifier: GPL-3.0-or-later
#include "core_texts.h"

#include <QCoreApplication>

namespace attnviz::ui {

namespace {

// lupdate reads these; they must equal the engine's texts (core/workspace.cpp modelSets,
// resources/presets/*.json, core/tasks.cpp, core/attention/*.cpp), as the test checks.
[[maybe_unused]] const char* const kTexts[] = {
    // model sets
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "English → Spanish (real text, subwords)"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "Toy translation (152 words, exact alignments)"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "English language models (real text)"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "Toy language models"),
    // presets
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "dot-product (Vaswani et al., 2017)"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "dense synthesizer"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "random synthesizer"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "fixed random synthesizer"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "factorized dense synthesizer"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "factorized random synthesizer"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "random + dot synthesizer"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "dense + dot synthesizer"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "HC-SA: Gaussian self-attention, learned cross-attention"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "all hard-coded: Gaussian self- and cross-attention"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "HC-SA + one learned cross-attention head"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "learned local window (w = 2)"),
    // tasks
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "copy"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "reverse"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "sort"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "translate"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "lm"),
    // variant summaries
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "Dot-product attention (Vaswani et al., 2017): query-key similarity."),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "Dense synthesizer (Tay et al., 2021): each token predicts its own row of "
                      "weights over positions, without looking at the keys."),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "Random synthesizer (Tay et al., 2021): one table of weights per head, the "
                      "same for every sentence; trainable or fixed."),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "Factorized dense synthesizer (Tay et al., 2021): two short predictions of "
                      "lengths a and b whose outer product gives a row of length L = a*b."),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "Factorized random synthesizer (Tay et al., 2021): a rank-k table per head, "
                      "the same for every sentence."),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "Mixture of synthesizers (Tay et al., 2021), e.g. random + dot: a learned "
                      "convex combination of the components' logits."),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "Hard-coded Gaussian attention (You, Sun & Iyyer, 2020): fixed windows "
                      "centred at an offset from each query position; nothing is learned."),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "Learned local window: each head learns how much to attend to each "
                      "relative position −w…w and ignores everything further away; no "
                      "query-key comparison."),
    // the live-editable options' help (the Variant tab's editors)
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "centre o_h of head h's window relative to the query (heads cycle through "
                      "the list); default [-1, 1], in decoder self-attention [-1, 0]"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts", "standard deviation of every window, in positions"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "renormalise each row over its unmasked keys (the paper does not)"),
    QT_TRANSLATE_NOOP("attnviz::ui::CoreTexts",
                      "cross-attention only: window centre r*i + o_h, r ~ source/target length"),
};

}  // namespace

QString coreText(const std::string& english) {
    return QCoreApplication::translate("attnviz::ui::CoreTexts", english.c_str());
}

}  // namespace attnviz::ui
