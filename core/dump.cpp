// SPDX-License-Identifier: GPL-3.0-or-later
#include "dump.h"

namespace attnviz {

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
    FloatJson blocks = FloatJson::array();
    for (const auto& b : a.blocks) {
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
    j["blocks"] = std::move(blocks);
    return j;
}

}  // namespace attnviz
