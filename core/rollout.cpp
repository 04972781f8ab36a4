// SPDX-License-Identifier: GPL-3.0-or-later
#include "rollout.h"

#include <cctype>
#include <charconv>

#include "attention/block.h"
#include "error.h"
#include "input_limits.h"

namespace attnviz {
namespace {

std::string shapeOf(const Mat& m) {
    return std::to_string(m.rows()) + "×" + std::to_string(m.cols());
}

// A whole decimal number in `s` (digits only, at most 9), or -1.
int wholeNumber(std::string_view s) {
    if (s.empty() || s.size() > 9) return -1;
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size() && std::isdigit(uint8_t(s[0])) ? v : -1;
}

std::string trimmed(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

}  // namespace

Mat meanOfHeads(const CapturedBlock& block) {
    if (block.weights.empty()) throw Error(block.name + " holds no attention head");
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(block.weights[0].rows(), block.weights[0].cols());
    for (const Mat& w : block.weights) {
        if (w.rows() != sum.rows() || w.cols() != sum.cols())
            throw Error(block.name + ": heads of " + shapeOf(block.weights[0]) + " and " +
                        shapeOf(w));
        sum += w.cast<double>();
    }
    return (sum / double(block.weights.size())).cast<Scalar>();
}

Mat rolloutToLayer(const std::vector<CapturedBlock>& blocks, int layer) {
    if (layer < 0 || size_t(layer) >= blocks.size())
        throw Error("layer " + std::to_string(layer) + " is not in the model (layers 0 … " +
                    std::to_string(int(blocks.size()) - 1) + ")");
    std::vector<Mat> means;
    for (int l = 0; l <= layer; ++l) means.push_back(meanOfHeads(blocks[size_t(l)]));
    try {
        return attentionRollout(means);
    } catch (const std::invalid_argument& e) {
        throw Error(std::string("rollout: ") + e.what());
    }
}

ImageQuery parseImageQuery(const std::string& text) {
    const std::string t = trimmed(text);
    ImageQuery q;
    if (t == "pooled") return q;
    if (t == "cls") {
        q.kind = ImageQuery::Kind::ClassToken;
        return q;
    }
    const size_t comma = t.find(',');
    const int r = comma == std::string::npos ? -1 : wholeNumber(trimmed(t.substr(0, comma)));
    const int c = comma == std::string::npos ? -1 : wholeNumber(trimmed(t.substr(comma + 1)));
    if (r < 0 || c < 0)
        throw Error("--query '" + excerpt(text) +
                    "': give pooled, cls or a patch as ROW,COLUMN (each from 0)");
    return ImageQuery::patch(r, c);
}

void checkImageQuery(const ImageQuery& q, const PatchGrid& grid) {
    if (q.kind == ImageQuery::Kind::ClassToken && !grid.classToken)
        throw Error(
            "--query cls: this model has no class token (pool \"mean\"); give pooled or a "
            "patch R,C");
    if (q.kind == ImageQuery::Kind::Patch &&
        (q.row < 0 || q.col < 0 || q.row >= grid.grid || q.col >= grid.grid))
        throw Error("--query " + imageQueryName(q) + ": the patch is outside the " +
                    std::to_string(grid.grid) + "×" + std::to_string(grid.grid) +
                    " grid (row and column 0 … " + std::to_string(grid.grid - 1) + ")");
}

ImageQuery parseImageQuery(const std::string& text, const PatchGrid& grid) {
    const ImageQuery q = parseImageQuery(text);
    checkImageQuery(q, grid);
    return q;
}

std::string imageQueryName(const ImageQuery& q) {
    switch (q.kind) {
        case ImageQuery::Kind::Pooled:
            return "pooled";
        case ImageQuery::Kind::ClassToken:
            return "cls";
        case ImageQuery::Kind::Patch:
            break;
    }
    return std::to_string(q.row) + "," + std::to_string(q.col);
}

QueryWeights queryWeights(const Mat& weights, const PatchGrid& grid, const ImageQuery& q) {
    const int n = grid.positions(), first = grid.classToken ? 1 : 0;
    if (weights.rows() != n || weights.cols() != n)
        throw Error("weights of " + shapeOf(weights) + " for a grid of " + std::to_string(n) +
                    " positions");
    Eigen::RowVectorXd row;  // [N]
    QueryWeights out;
    if (q.kind == ImageQuery::Kind::Patch) {
        if (q.row < 0 || q.col < 0 || q.row >= grid.grid || q.col >= grid.grid)
            throw Error("patch " + imageQueryName(q) + " is outside the grid");
        out.query = first + q.row * grid.grid + q.col;
    } else if (q.kind == ImageQuery::Kind::ClassToken || grid.classToken) {
        if (!grid.classToken) throw Error("this model has no class token (pool \"mean\")");
        out.query = 0;
    }
    row = out.query >= 0 ? Eigen::RowVectorXd(weights.row(out.query).cast<double>())
                         : Eigen::RowVectorXd(weights.cast<double>().colwise().mean());
    if (grid.classToken) out.classToken = row(0);
    out.patches.assign(row.data() + first, row.data() + n);
    return out;
}

std::vector<std::string> positionLabels(const PatchGrid& grid) {
    std::vector<std::string> labels;
    if (grid.classToken) labels.push_back("cls");
    for (int r = 0; r < grid.grid; ++r)
        for (int c = 0; c < grid.grid; ++c)
            labels.push_back("r" + std::to_string(r) + "c" + std::to_string(c));
    return labels;
}

}  // namespace attnviz
