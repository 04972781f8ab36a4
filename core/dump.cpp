// SPDX-License-Identifier: GPL-3.0-or-later
#include "dump.h"

namespace attnviz {

namespace {

FloatJson blocksJson(const std::vector<CapturedBlock>& captured) {
    FloatJson blocks = FloatJson::array();
    for (const auto& b : captured) {
        FloatJson w = FloatJson::array();
        for (const auto& m : b.weights) {
            FloatJson rows = FloatJson::array();
            for (Eigen::Index i = 0; i < m.rows(); ++i) {
                FloatJson row = FloatJson::array();
                for (Eigen::Index k = 0; k < m.cols(); ++k) row.push_back(m(i, k));
                rows.push_back(std::move(row));
            }
            w.push_back(std::move(rows));
        }
        blocks.push_back({{"name", b.name},
                          {"kind", blockKindName(b.kind)},
                          {"layer", b.layer},
                          {"variant", b.variant},
                          {"heads", b.heads},
                          {"weights", std::move(w)}});
    }
    return blocks;
}

}  // namespace

FloatJson imageAttentionDump(const std::string& modelName, const Model& model,
                             const ImageAnalysis& a, const std::string& source) {
    FloatJson j;
    j["model"] = modelName;
    j["config"] = FloatJson::parse(model.config().toJson().dump());
    j["image"] = {{"size", model.config().imageSize},
                  {"channels", model.config().channels},
                  {"pixels", a.pixels},
                  {"source", source}};
    if (a.label) j["image"]["label"] = *a.label;
    j["classes"] = model.classNames();
    FloatJson logits = FloatJson::array(), probs = FloatJson::array();
    for (double x : a.logits) logits.push_back(static_cast<float>(x));
    for (double x : a.probabilities) probs.push_back(static_cast<float>(x));
    j["logits"] = std::move(logits);
    j["probabilities"] = std::move(probs);
    j["prediction"] = {{"index", a.predicted}, {"class", model.classNames()[size_t(a.predicted)]}};
    if (a.loss) j["loss"] = static_cast<float>(*a.loss);
    j["blocks"] = blocksJson(a.blocks);
    return j;
}

FloatJson attentionDump(const std::string& modelName, const ModelConfig& config,
                        const Analysis& a) {
    FloatJson j;
    j["model"] = modelName;
    j["config"] = FloatJson::parse(config.toJson().dump());
    if (config.hasEncoder())
        j["source"] = {{"text", a.sourceText}, {"tokens", a.sourceTokens}, {"ids", a.sourceIds}};
    if (a.hasTarget) {
        j["target"] = {{"text", a.targetText},
                       {"tokens", a.targetTokens},
                       {"ids", a.targetIds},
                       {"decoded", a.decoded}};
    }
    if (a.loss) j["loss"] = static_cast<float>(*a.loss);
    j["blocks"] = blocksJson(a.blocks);
    return j;
}

}  // namespace attnviz
