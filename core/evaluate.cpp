// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluate.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "trainer.h"

namespace attnviz {
namespace {

// Links (t, j) from the argmax over real source keys (not <eos>) of rows 0..n-1, where row
// t of the decoder predicts target token t. w [Nq, Nk] trimmed to the real lengths.
Links argmaxLinks(const Mat& w, int targetTokens, int sourceTokens) {
    Links l;
    for (int t = 0; t < targetTokens && t < w.rows(); ++t) {
        Eigen::Index j = 0;
        w.row(t).head(sourceTokens).maxCoeff(&j);
        l.emplace_back(t, static_cast<int>(j));
    }
    return l;
}

// What BLEU counts: the model's tokens, except that subword pieces are first joined into text
// and split into words by the word tokenizer's rules with case kept, so that BLEU is over
// words for every tokenizer (BLEU over pieces would reward getting fragments right).
Tokens bleuTokens(const Tokenizer& tok, const Tokens& tokens) {
    if (tok.kind() != Tokenizer::Kind::SentencePiece) return tokens;
    return Tokenizer(false).tokenize(tok.detokenize(tokens));
}

}  // namespace

std::optional<HeadAer> Evaluation::bestAer() const {
    std::optional<HeadAer> best;
    for (const auto& a : aer)
        if (!best || a.aer < best->aer) best = a;
    return best;
}

nlohmann::json Evaluation::toJson() const {
    nlohmann::json j{{"sentences", sentences}, {"tokens", tokens}};
    // Over no sentence the loss and the accuracy are undefined, not 0 (a 10-line file holds
    // nothing out: reading "loss 0.000, accuracy 0.0%" as results misled people, issue 29).
    if (sentences == 0) return j;
    j["loss"] = loss;
    j["token_accuracy"] = tokenAccuracy;
    if (exactMatch) j["exact_match"] = *exactMatch;
    if (bleu) {
        j["bleu"] = 100.0 * bleu->score;
        j["bleu_detail"] = {
            {"precisions",
             {bleu->precisions[0], bleu->precisions[1], bleu->precisions[2], bleu->precisions[3]}},
            {"brevity_penalty", bleu->brevityPenalty},
            {"hyp_length", bleu->hypLength},
            {"ref_length", bleu->refLength}};
    }
    if (!aer.empty()) {
        auto& a = j["aer"] = nlohmann::json::array();
        for (const auto& h : aer) {
            a.push_back({{"layer", h.layer},
                         {"head", h.head < 0 ? nlohmann::json("mean") : nlohmann::json(h.head)},
                         {"aer", h.aer}});
        }
        const auto b = bestAer();
        j["best_aer"] = {{"layer", b->layer},
                         {"head", b->head < 0 ? nlohmann::json("mean") : nlohmann::json(b->head)},
                         {"aer", b->aer}};
    }
    return j;
}

Batch exampleBatch(const Model& model, const std::vector<Example>& examples, size_t start,
                   size_t end) {
    std::vector<std::vector<int>> src, tgt;
    for (size_t i = start; i < end; ++i) {
        if (model.config().hasEncoder()) src.push_back(model.srcVocab().ids(examples[i].src));
        tgt.push_back(model.tgtVocab().ids(examples[i].tgt));
    }
    return Batch::make(src, tgt);
}

std::vector<double> Classification::classAccuracy() const {
    std::vector<double> a;
    for (size_t c = 0; c < confusion.size(); ++c) {
        long n = 0;
        for (int x : confusion[c]) n += x;
        a.push_back(n ? double(confusion[c][c]) / double(n) : 0.0);
    }
    return a;
}

nlohmann::json Classification::toJson(const std::vector<std::string>& classes) const {
    return {{"images", images},
            {"loss", loss},
            {"accuracy", accuracy()},
            {"classes", classes},
            {"class_accuracy", classAccuracy()},
            {"confusion", confusion}};
}

Classification classifyImages(Model& model, const std::vector<Example>& examples, int batchSize) {
    Classification c;
    const int C = model.config().classes;
    c.confusion.assign(size_t(C), std::vector<int>(size_t(C), 0));
    const size_t bs = static_cast<size_t>(std::max(1, batchSize));
    double lossSum = 0;
    for (size_t start = 0; start < examples.size(); start += bs) {
        const size_t end = std::min(examples.size(), start + bs);
        const ForwardResult r = model.forward(imageBatch(model, examples, start, end), false);
        lossSum += r.lossSum;
        for (size_t i = start; i < end; ++i) {
            const auto row = r.logits.row(Eigen::Index(i - start));
            int best = 0;
            for (int k = 1; k < C; ++k)
                if (row(k) > row(best)) best = k;
            ++c.confusion[size_t(examples[i].label)][size_t(best)];
            c.predicted.push_back(best);
            c.correct += best == examples[i].label ? 1 : 0;
        }
    }
    c.images = static_cast<int>(examples.size());
    c.loss = c.images ? lossSum / c.images : 0.0;
    return c;
}

Evaluation evaluate(Model& model, const std::vector<Example>& examples, const EvalOptions& opt) {
    Evaluation ev;
    if (model.config().isVision()) {
        const Classification c = classifyImages(model, examples, opt.batchSize);
        ev.sentences = ev.tokens = c.images;
        ev.loss = c.loss;
        ev.tokenAccuracy = c.accuracy();
        return ev;
    }
    const bool s2s = model.config().hasEncoder();
    const bool aligned = s2s && std::any_of(examples.begin(), examples.end(),
                                            [](const Example& e) { return !e.align.empty(); });
    std::map<std::pair<int, int>, std::vector<Links>> predicted;  // (layer, head) -> links
    std::vector<Links> gold;
    double lossSum = 0;
    long correct = 0;
    std::vector<Tokens> hyps, refs;
    long exact = 0;
    const size_t bs = static_cast<size_t>(std::max(1, opt.batchSize));
    for (size_t start = 0; start < examples.size(); start += bs) {
        const size_t end = std::min(examples.size(), start + bs);
        const Batch b = exampleBatch(model, examples, start, end);
        const ForwardResult r = model.forward(b, aligned);
        lossSum += r.lossSum;
        ev.tokens += r.tokens;
        correct += r.correct;
        if (aligned) {
            for (size_t i = start; i < end; ++i) gold.push_back(examples[i].align);
            for (const auto& blk : r.blocks) {
                if (blk.kind != BlockKind::Cross) continue;
                for (int bi = 0; bi < b.B; ++bi) {
                    const int nt = b.tgtLen[size_t(bi)] - 1, ns = b.srcLen[size_t(bi)] - 1;
                    Mat mean = Mat::Zero(nt + 1, ns + 1);
                    for (int h = 0; h < blk.heads; ++h) {
                        const Mat& w = blk.weights[size_t(bi * blk.heads + h)];
                        predicted[{blk.layer, h}].push_back(argmaxLinks(w, nt, ns));
                        mean += w;
                    }
                    predicted[{blk.layer, -1}].push_back(argmaxLinks(mean, nt, ns));
                }
            }
        }
        if (s2s && opt.decode) {
            std::vector<std::vector<int>> src;
            for (size_t i = start; i < end; ++i)
                src.push_back(model.srcVocab().ids(examples[i].src));
            const auto out = model.greedyDecode(src);
            for (size_t i = start; i < end; ++i) {
                Tokens h;
                for (int id : out[i - start]) h.push_back(model.tgtVocab().token(id));
                exact += h == examples[i].tgt ? 1 : 0;
                hyps.push_back(bleuTokens(model.tokenizer(), h));
                refs.push_back(bleuTokens(model.tokenizer(), examples[i].tgt));
            }
        }
    }
    ev.sentences = static_cast<int>(examples.size());
    ev.loss = ev.tokens ? lossSum / ev.tokens : 0.0;
    ev.tokenAccuracy = ev.tokens ? static_cast<double>(correct) / ev.tokens : 0.0;
    if (s2s && opt.decode && !examples.empty()) {
        ev.exactMatch = static_cast<double>(exact) / static_cast<double>(examples.size());
        ev.bleu = corpusBleu(hyps, refs);
        ev.hypotheses = std::move(hyps);
        ev.references = std::move(refs);
    }
    for (const auto& [key, links] : predicted)
        ev.aer.push_back({key.first, key.second, alignmentErrorRate(links, gold), {}, {}});
    return ev;
}

}  // namespace attnviz
