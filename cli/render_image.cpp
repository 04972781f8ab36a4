// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli render for image models (issue 28): the attention of one query drawn over the
// image each model saw (render/image_figure.h), its matrices as data, and the chart of mean
// attention distance by layer (render/charts.h).
#include <QFileInfo>
#include <cmath>
#include <ostream>

#include "core/dump.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/head_stats.h"
#include "core/image_set.h"
#include "core/input_limits.h"
#include "core/workspace.h"
#include "render.h"
#include "render/charts.h"
#include "render/colormaps.h"
#include "render/image_figure.h"
#include "render/words.h"

namespace attnviz::cli {
namespace {

std::string extensionOf(const std::string& path) {
    return QFileInfo(QString::fromStdString(path)).suffix().toLower().toStdString();
}

}  // namespace

void RenderCommand::addImageOptions() {
    m_image.addOptions(m_cmd);
    m_queryOpt = m_cmd->add_option(
        "--query", m_imageQuery,
        "Image models: whose attention the overlay shows: pooled (what the classifier reads: "
        "the class token, or with mean pooling the mean of the patch rows), cls, or a patch "
        "ROW,COLUMN from 0 (the figure's footnote counts from 1: 0,0 is row 1, column 1)");
    m_opacityOpt = m_cmd
                       ->add_option("--opacity", m_opacity,
                                    "Image models: opacity of the overlay over the image, 0 … 1")
                       ->capture_default_str()
                       ->check(numberIn(0, 1));
    m_cmd->add_flag("--distance-by-layer", m_distanceByLayer,
                    "Image models: the chart of mean attention distance (pixels) by layer, a dot "
                    "per head, over --fashion-mnist-count images or one --image / --fashion-mnist "
                    "(Dosovitskiy et al. 2021, Fig. 7)");
    m_countOpt = m_cmd
                     ->add_option("--fashion-mnist-count", m_imageCount,
                                  "With --distance-by-layer: the first N images of --split of "
                                  "the model's image set (Fashion-MNIST, the clothing photos)")
                     ->capture_default_str()
                     ->check(integerIn(1, 60000));
}

bool RenderCommand::imageModels() {
    return m_probe.empty() && !m_models.empty() && column(m_models[0]).model->config().isVision();
}

const ModelColumn& RenderCommand::column(const std::string& path) {
    auto it = m_loaded.find(path);
    if (it == m_loaded.end()) it = m_loaded.emplace(path, loadModelColumn(path)).first;
    return it->second;
}

void RenderCommand::refuseTextOptions() const {
    if (!m_text.empty() || m_targetOpt->count())
        throw Error("image models take --image or --fashion-mnist, not --text or --target");
    if (!m_probe.empty() || !m_sentences.empty() || !m_pruneFile.empty() || !m_query.empty())
        throw Error(
            "--probe, --sentences, --prune and --query-token are for text models (image models: "
            "--query pooled|cls|R,C)");
    if (m_show != "weights")
        throw Error("--show is for text models; image models show rollout with --heads rollout");
    if (m_block != "encoder_self") throw Error("image models have encoder_self blocks only");
    if (m_mergeWords || m_lines) throw Error("--merge-words and --lines are for text models");
    if (m_arrange != "columns")
        throw Error(
            "--arrange is for text figures: image figures put models in columns, their heads "
            "down or wrapped to give the largest images");
}

void RenderCommand::refuseImageOptions() const {
    if (m_queryOpt->count() || m_opacityOpt->count() || m_countOpt->count())
        throw Error(
            "--query, --opacity and --fashion-mnist-count are for image models; this one reads "
            "text (for a text query: --query-token)");
    if (m_heads == "rollout")
        throw Error("--heads rollout is for image models; for text use --show rollout");
}

void RenderCommand::runImages(std::ostream& out) {
    refuseTextOptions();
    if (m_models.empty()) throw Error("render --image needs --model");
    if (!(m_opacity >= 0 && m_opacity <= 1)) throw Error("--opacity must be a number from 0 to 1");
    if (m_layerOpt->count() && m_layer < 0) throw Error("--layer must be 0 or more");
    checkColours();
    if (m_fontSize != 0 && !(m_fontSize >= 1 && m_fontSize <= 200))
        throw Error("--font-size must be a number of points from 1 to 200");
    checkOutputPath(m_out);
    m_image.check({});
    const std::string ext = extensionOf(m_out);
    render::ImageSelectionRequest q;
    q.layer = m_layerOpt->count() ? m_layer : -1;
    q.heads = m_heads;
    q.query = parseImageQuery(m_imageQuery);  // checked against each model by the selection
    q.wording = render::wording(QString::fromStdString(m_lang));
    std::vector<render::ImageModelResult> models;
    std::vector<render::ImageColumn> columns;
    FloatJson dumps = FloatJson::array();
    for (const std::string& path : m_models) {
        const ModelColumn& col = column(path);
        Model& m = *col.model;
        if (!m.config().isVision())
            throw Error("'" + path + "' reads text: --image and --fashion-mnist need image models");
        const ImageInput::Loaded in = m_image.load(m, path);
        models.push_back(
            {col.name, patchGrid(m.config()), m.classNames(), m.analyzeImage(in.pixels, in.label)});
        try {
            columns.push_back(render::selectImageColumn(models.back(), q));
        } catch (const Error& e) {
            throw Error("'" + path + "': " + e.what());
        }
        if (ext == "json") {  // what `attention` dumps, an array for several models
            dumps.push_back(imageAttentionDump(path, m, models.back().analysis, in.source));
            if (in.inverted) dumps.back()["image"]["inverted"] = *in.inverted;
        }
    }
    if (ext == "json" || ext == "csv" || ext == "npy") {
        const std::string bytes = ext == "json"
                                      ? jsonText(dumps.size() == 1 ? dumps[0] : dumps) + "\n"
                                      : render::imageDataBytes(columns, ext);
        writeFileAtomically(m_out, bytes);
        out << "wrote " << m_out << "\n";
        return;
    }
    render::ImageFigure f{columns, style(), m_opacity};
    QString error;
    write(render::imageFigurePainter(f, &error), error, out);
}

void RenderCommand::runDistanceChart(std::ostream& out) {
    if (m_models.empty()) throw Error("--distance-by-layer needs --model (image models)");
    refuseTextOptions();
    if (m_image.given() && m_countOpt->count())
        throw Error("give one image (--image, --fashion-mnist) or --fashion-mnist-count, not both");
    const std::string ext = extensionOf(m_out);
    if (ext != "svg" && ext != "pdf" && ext != "png")
        throw Error("the distance chart is a figure: --out must end in .svg, .pdf or .png");
    checkOutputPath(m_out);
    m_image.check({});
    std::vector<render::ModelDistances> models;
    double uniform = 0;
    int images = 0;
    for (const std::string& path : m_models) {
        const ModelColumn& col = column(path);
        Model& m = *col.model;
        if (!m.config().isVision())
            throw Error("'" + path + "' reads text: --distance-by-layer needs image models");
        AttentionDistances d(patchGrid(m.config()));
        if (m_image.given()) {
            const ImageInput::Loaded in = m_image.load(m, path);
            d.add(m.analyzeImage(in.pixels).blocks);
        } else {
            std::string source;
            const ImageSet set = m_image.loadMany(m, path, m_imageCount, source);
            for (size_t i = 0; i < set.size(); ++i)
                d.add(m.analyzeImage(set.imagePixels(i)).blocks);
        }
        if (uniform > 0 &&
            std::abs(uniform - uniformAttentionDistance(patchGrid(m.config()))) > 1e-9)
            throw Error("'" + path +
                        "' has another patch grid than the first model: one chart "
                        "needs one grid");
        uniform = uniformAttentionDistance(patchGrid(m.config()));
        images = d.images();
        models.push_back({col.name, d.perHead()});
    }
    const auto g = render::distanceByLayerChart(models, uniform, images,
                                                render::Words(QString::fromStdString(m_lang)));
    QString error;
    write(render::chartPainter(g, style(), &error), error, out);
}

}  // namespace attnviz::cli
