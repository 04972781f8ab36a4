// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// attnviz-cli render: figures (SVG, PDF, PNG) and data (CSV, JSON, .npy) of attention,
// headless, with the figure library (render/figure.h): no widgets.
#include <CLI/CLI.hpp>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "command.h"
#include "core/workspace.h"
#include "image_input.h"
#include "render/figure.h"

namespace attnviz::cli {

class RenderCommand : public Command {
public:
    CLI::App* add(CLI::App& app) override;
    void run(const Context& ctx) override { run(ctx.out); }
    void run(std::ostream& out);

private:
    render::FigureStyle style() const;
    // --colormap's names (render/colormaps.h); checkColours: Error unless --colormap and
    // --scaling name one of theirs.
    static std::vector<std::string> colormapNames();
    void checkColours() const;
    // Writes the figure of `paint` to --out (its size, format and resolution).
    void write(const render::FigurePainter& paint, const QString& error, std::ostream& out) const;
    QSizeF pageSize(bool* named = nullptr) const;  // --size, or 504 x 360 (a paper's page)
    void runCharts(std::ostream& out);             // --show offset-profile, --prune
    SelectionRequest request() const;              // the tables to draw, checked
    // Image models (render_image.cpp): overlays of --image or --fashion-mnist, or with
    // --distance-by-layer the chart of mean attention distances.
    bool imageModels();  // whether the first --model is an image model
    // The checkpoint at `path`, read once per run whichever path of the command asks.
    const ModelColumn& column(const std::string& path);
    void addImageOptions();
    void refuseTextOptions() const;
    void refuseImageOptions() const;
    void runImages(std::ostream& out);
    void runDistanceChart(std::ostream& out);
    CLI::App* m_cmd = nullptr;
    std::vector<std::string> m_models;
    std::map<std::string, ModelColumn> m_loaded;  // column()
    std::vector<std::string> m_caption;           // lines under the title
    std::string m_text, m_target, m_block = "encoder_self", m_heads = "all", m_out, m_size,
                                  m_colormap = "viridis", m_scaling = "linear", m_title, m_query,
                                  m_font;
    int m_layer = 0, m_dpi = 150;
    double m_fontSize = 0;  // 0: the page's (render::defaultLabelPoints)
    std::string m_lang = "en";
    bool m_shared = false, m_noColorbar = false, m_noOutline = false, m_mergeWords = false,
         m_lines = false;
    std::string m_arrange = "columns";  // render::FigureStyle::Arrange
    std::string m_show = "weights";     // attnviz::TableKind by name
    int m_base = 1;                     // --show difference: 1-based model subtracted
    std::string m_probe;                // a probe file: the filmstrip of attention over training
    std::vector<int> m_steps;           // its snapshots to show (empty: every one)
    std::string m_sentences;            // offset profiles over these sentences (one per line)
    int m_maxOffset = 8;                // offset profiles: -K .. K
    std::string m_pruneFile;            // analyze --prune's JSON: its pruning curves
    std::string m_curvesFile;           // a JSON of line charts (readCurvesFile)
    CLI::Option* m_targetOpt = nullptr;
    // Image models.
    ImageInput m_image;                   // --image, --fashion-mnist, --split, --invert
    std::string m_imageQuery = "pooled";  // --query: pooled, cls or R,C
    double m_opacity = 0.6;
    bool m_distanceByLayer = false;
    int m_imageCount = 1000;  // --fashion-mnist-count: the distance chart's images
    CLI::Option *m_layerOpt = nullptr, *m_queryOpt = nullptr, *m_opacityOpt = nullptr,
                *m_countOpt = nullptr;
};

}  // namespace attnviz::cli
