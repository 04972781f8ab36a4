// SPDX-License-Identifier: GPL-3.0-or-later
#include "render.h"

#include <QFileInfo>
#include <QGuiApplication>
#include <ostream>

#include "core/error.h"
#include "core/safetensors.h"
#include "ui/colormaps.h"
#include "ui/figure.h"

namespace attnviz::cli {
namespace {

// Qt needs an application object; the CLI never needs a display.
void ensureGuiApplication() {
    if (QCoreApplication::instance()) return;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    ui::ensureRuntimeDirectory();
    static int argc = 1;
    static char name[] = "attnviz-cli";
    static char* argv[] = {name, nullptr};
    static QGuiApplication app(argc, argv);
}

}  // namespace

CLI::App* RenderCommand::add(CLI::App& app) {
    m_cmd = app.add_subcommand(
        "render", "Figures (SVG, PDF, PNG) or data (CSV, JSON, NPY) of attention, headless");
    m_cmd->add_option("--model", m_models, "Checkpoint; repeat for several models side by side")
        ->required();
    m_cmd->add_option("--text", m_text, "Source sentence (decoder-only models: the text)")
        ->required();
    m_targetOpt = m_cmd->add_option("--target", m_target,
                                    "Target sentence (default: each model decodes greedily)");
    m_cmd->add_option("--block", m_block, "encoder_self, decoder_self or cross")
        ->capture_default_str();
    m_cmd->add_option("--layer", m_layer, "Layer")->capture_default_str();
    m_cmd->add_option("--heads", m_heads, "all, mean, or a list such as 0,2")
        ->capture_default_str();
    m_cmd
        ->add_option("--out", m_out,
                     "Output: .svg, .pdf, .png (figure) or .csv, .json, .npy (data)")
        ->required();
    m_cmd->add_option(
        "--size", m_size,
        "slide (960x540 pt), column (252x189 pt), page (504x360 pt) or WxH: points for SVG/PDF, "
        "exact pixels for PNG (default page)");
    m_cmd->add_option("--dpi", m_dpi, "PNG resolution for named sizes")->capture_default_str();
    m_cmd->add_option("--colormap", m_colormap, "viridis, magma, cividis or greys")
        ->capture_default_str();
    m_cmd->add_option("--scaling", m_scaling, "linear, power or log")->capture_default_str();
    m_cmd->add_flag("--shared-scale", m_shared,
                    "One colour scale for every panel (with a colour bar)");
    m_cmd->add_flag("--no-colorbar", m_noColorbar, "No colour bar");
    m_cmd->add_option("--title", m_title, "Figure title");
    m_cmd->add_option("--font", m_font, "Font family (default: Noto Sans CJK SC when installed)");
    m_cmd->add_option("--font-size", m_fontSize, "Base font size in points")->capture_default_str();
    m_cmd->add_option(
        "--query-token", m_query,
        "Plot this query's weights over the keys instead (a token, first occurrence, or #index)");
    return m_cmd;
}

void RenderCommand::run(std::ostream& out) {
    if (!*m_cmd) return;
    ensureGuiApplication();
    using namespace attnviz::ui;
    ViewState v;
    if (!blockKindFromName(m_block, &v.kind))
        throw Error("--block must be encoder_self, decoder_self or cross");
    v.layer = m_layer;
    v.colormap = QString::fromStdString(m_colormap);
    if (!colormapNames().contains(v.colormap))
        throw Error("unknown --colormap '" + m_colormap + "' (viridis, magma, cividis, greys)");
    if (m_scaling != "linear" && m_scaling != "power" && m_scaling != "log")
        throw Error("--scaling must be linear, power or log");
    v.scaling = scalingFromName(QString::fromStdString(m_scaling));
    v.shared = m_shared;
    std::vector<ModelColumn> columns;
    for (const auto& path : m_models)
        columns.push_back(loadModelColumn(QString::fromStdString(path)));
    const Results results = AnalysisRunner::analyzeAll(
        columns, QString::fromStdString(m_text),
        m_targetOpt->count() ? QString::fromStdString(m_target) : QString());
    for (const auto& r : results)
        if (!r.error.isEmpty()) throw Error(r.name.toStdString() + ": " + r.error.toStdString());
    const QString path = QString::fromStdString(m_out);
    const QString ext = QFileInfo(path).suffix().toLower();
    const QString heads = QString::fromStdString(m_heads);
    QString error;
    if (ext == "csv" || ext == "npy" || ext == "json") {
        writeFileAtomically(m_out, exportDataBytes(results, columns, v, heads, ext));
        out << "wrote " << m_out << "\n";
        return;
    }
    FigureStyle style = styleOf(v);
    style.title = QString::fromStdString(m_title);
    style.colorbar = !m_noColorbar;
    style.fontFamily = QString::fromStdString(m_font);
    style.fontSize = m_fontSize;
    QSizeF size(504, 360);
    bool named = true;
    if (!m_size.empty() && !parseFigureSize(QString::fromStdString(m_size), &size, &named, &error))
        throw Error(error.toStdString());
    FigurePainter paint;
    if (!m_query.empty()) {
        const QStringList queries = queryTokens(results.front().analysis, v.kind);
        const QString q = QString::fromStdString(m_query);
        v.query = q.startsWith('#') ? q.mid(1).toInt() : queries.indexOf(q.toLower());
        if (v.query < 0 || v.query >= queries.size())
            throw Error("query token '" + m_query +
                        "' is not among the queries: " + queries.join(' ').toStdString());
        // One model: a line per head; several: a line per model.
        paint = profilePainter(results, v, results.size() == 1 ? 0 : -1, style, &error);
    } else {
        paint = gridPainter(results, v, heads, style, &error);
    }
    if (!paint || !writeFigure(path, size, named, m_dpi, paint, &error))
        throw Error(error.toStdString());
    out << "wrote " << m_out << "\n";
}

std::unique_ptr<Command> makeRenderCommand() {
    return std::make_unique<RenderCommand>();
}

}  // namespace attnviz::cli
