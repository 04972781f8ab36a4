// SPDX-License-Identifier: GPL-3.0-or-later
#include "render.h"

#include <QFileInfo>
#include <QStringList>
#include <cmath>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>

#include "core/error.h"
#include "core/file_io.h"
#include "core/head_importance.h"
#include "core/head_stats.h"
#include "core/head_table.h"
#include "core/input_limits.h"
#include "core/probe.h"
#include "core/selection.h"
#include "core/tokenizer.h"
#include "core/word_merge.h"
#include "render/charts.h"
#include "render/colormaps.h"
#include "render/figure_file.h"
#include "render/runtime.h"
#include "render/words.h"

namespace attnviz::cli {

namespace {

// findQuery, or an Error listing the queries.
int queryIndex(const std::vector<std::string>& queries, const std::string& query,
               const Tokenizer* tokenizer) {
    const int q = findQuery(queries, query, tokenizer);
    if (q < 0) {
        std::string all;  // the words as they read ("我 想 去"), not the raw pieces
        for (const auto& t : queryWords(queries, tokenizer)) all += (all.empty() ? "" : " ") + t;
        throw Error("query token '" + excerpt(query) +
                    "' is not among the queries (a token, a word, or #0 … #" +
                    std::to_string(std::max<size_t>(1, queries.size()) - 1) + "): " + excerpt(all));
    }
    return q;
}

}  // namespace

CLI::App* RenderCommand::add(CLI::App& app) {
    m_cmd = app.add_subcommand(
        "render", "Figures (SVG, PDF, PNG) or data (CSV, JSON, NPY) of attention, headless");
    input(m_cmd->add_option("--model", m_models,
                            "Checkpoint; repeat for several models side by side"));
    m_cmd->add_option("--text", m_text, "Source sentence (decoder-only models: the text)");
    input(
        m_cmd->add_option("--probe", m_probe,
                          "Instead of --model and --text: a probe file of attention over training "
                          "(train --probe); its snapshots side by side, a filmstrip"))
        ->check(CLI::ExistingFile);
    m_cmd
        ->add_option("--steps", m_steps,
                     "With --probe: the snapshots to show, e.g. 0,100,500 (default: every one)")
        ->delimiter(',')
        ->check(integerIn(0));
    m_targetOpt = m_cmd->add_option("--target", m_target,
                                    "Target sentence (default: each model decodes greedily)");
    oneOf(m_cmd->add_option("--block", m_block, alternatives(blockKindNames())), blockKindNames)
        ->capture_default_str();
    m_layerOpt = m_cmd->add_option("--layer", m_layer, "Layer (image models: default the last)")
                     ->capture_default_str()
                     ->check(integerIn(0, kMaxLayers - 1));
    m_cmd
        ->add_option("--heads", m_heads,
                     "all, mean, or a list such as 0,2; image models also rollout (through "
                     "--layer)")
        ->capture_default_str()
        ->check(
            [](const std::string& s) {
                return s.find_first_not_of(" ,") == std::string::npos
                           ? std::string("names no head: give all, mean or a list such as 0,2")
                           : std::string();
            },
            "HEADS");
    m_cmd
        ->add_option("--show", m_show,
                     "weights; rollout (attention rollout through every self-attention layer of "
                     "--block, Abnar & Zuidema 2020; --layer and --heads do not apply); difference "
                     "(each model minus the --base model, "
                     "same block, layer and head); fit-residual (each head minus its "
                     "best-fitting Gaussian window); offset-profile (each head's mean weight at "
                     "each offset j - i beside its Gaussian fit, over --text or --sentences); "
                     "docs/analysis.md")
        ->capture_default_str()
        ->check(
            CLI::IsMember({"weights", "rollout", "difference", "fit-residual", "offset-profile"}));
    m_cmd
        ->add_option("--base", m_base,
                     "With --show difference: the model subtracted (1: the first --model)")
        ->capture_default_str()
        ->check(integerIn(1));
    output(m_cmd->add_option("--out", m_out,
                             "Output: .svg, .pdf, .png (figure) or .csv, .json, .npy (data)"))
        ->required();
    m_cmd->add_option(
        "--size", m_size,
        "slide (16:9, 960x540 pt = 13.33x7.5 in), slide-4:3 (720x540 pt = 10x7.5 in), column "
        "(252x189 pt), page (504x360 pt) or WxH: points for SVG/PDF, exact pixels for PNG "
        "(default page)");
    m_cmd->add_option("--dpi", m_dpi, "PNG resolution for named sizes")
        ->capture_default_str()
        ->check(integerIn(36, 2400));
    oneOf(m_cmd->add_option("--colormap", m_colormap, alternatives(colormapNames())), colormapNames)
        ->capture_default_str();
    oneOf(m_cmd->add_option("--scaling", m_scaling, alternatives(render::scalingNames())),
          render::scalingNames)
        ->capture_default_str();
    m_cmd->add_flag("--shared-scale", m_shared,
                    "One colour scale for every panel (with a colour bar)");
    m_cmd->add_flag("--no-colorbar", m_noColorbar, "No colour bar");
    m_cmd->add_flag("--no-query-outline", m_noOutline,
                    "Image models: the --query patch not framed (a figure for print)");
    m_cmd->add_flag("--merge-words", m_mergeWords,
                    "Subword pieces merged into words (sum over key pieces, mean over query "
                    "pieces; Clark et al., 2019)");
    m_cmd->add_flag("--lines", m_lines,
                    "Each head as lines from query tokens (left) to key tokens (right), "
                    "opacity and width by weight, instead of a heatmap");
    m_cmd
        ->add_option("--arrange", m_arrange,
                     "columns: a column per model, heads down, as in the app; rows: a row per "
                     "model; auto: whichever gives the largest panels on the page")
        ->capture_default_str()
        ->check(CLI::IsMember({"columns", "rows", "auto"}));
    m_cmd->add_option("--title", m_title, "Figure title");
    m_cmd
        ->add_option("--caption", m_caption,
                     "A line under the title, e.g. the sentence, then its translation; repeat "
                     "for more lines")
        ->allow_extra_args(false);
    m_cmd->add_option("--font", m_font, "Font family (default: Noto Sans CJK SC when installed)");
    m_cmd
        ->add_option("--font-size", m_fontSize,
                     "Token labels and panel titles in points on the page (PNG: points x dpi / "
                     "72 pixels); a size given is never shrunk: where they are taller than a "
                     "cell every k-th token is labelled; titles larger (default: 7 on a paper's "
                     "page, the default, column and page; else the page height's share that 12 "
                     "is of a slide's 540, at least 7, smaller down to 7 where a label per token "
                     "needs it)")
        ->check(numberIn(1, 200));
    m_cmd
        ->add_option("--lang", m_lang,
                     "Language of the figure's titles, axis titles and legends: en, zh_CN "
                     "(简体中文) or zh_TW (繁體中文); token labels are never translated")
        ->capture_default_str()
        ->check(CLI::IsMember({"en", "zh_CN", "zh_TW"}));
    input(m_cmd->add_option(
              "--sentences", m_sentences,
              "With --show offset-profile: average over these sentences (a text file, "
              "one per line, 'source TAB target' for a fixed target) instead of --text"))
        ->check(CLI::ExistingFile);
    m_cmd->add_option("--max-offset", m_maxOffset, "Offset profiles: offsets -K .. K")
        ->capture_default_str()
        ->check(integerIn(1, 256));
    input(m_cmd->add_option(
              "--prune", m_pruneFile,
              "Instead of attention: the pruning curves of this file (attnviz-cli analyze "
              "--importance --prune --out F.json): loss and BLEU as heads are removed"))
        ->check(CLI::ExistingFile);
    input(m_cmd->add_option(
              "--curves", m_curvesFile,
              "Instead of attention: the line charts of this JSON file, e.g. training curves "
              "(scripts/experiment-converge writes them; the format is in docs/figures/README.md)"))
        ->check(CLI::ExistingFile);
    m_cmd->add_option(
        "--query-token", m_query,
        "Plot this query's weights over the keys instead: #index (from 0, as the data exports; "
        "the figure's title counts from 1), a token, or a word of the text at its first piece "
        "(Chinese, Japanese: a character or a piece), first occurrence");
    addImageOptions();
    imageFiles(m_cmd);
    return m_cmd;
}

render::FigureStyle RenderCommand::style() const {
    render::FigureStyle style;
    style.colormap = QString::fromStdString(m_colormap);
    style.scaling = render::scalingFromName(m_scaling);
    style.shared = m_shared;
    style.title = QString::fromStdString(m_title);
    QStringList caption;
    for (const auto& line : m_caption) caption << QString::fromStdString(line);
    style.caption = caption.join('\n');
    style.colorbar = !m_noColorbar;
    style.outlineQuery = !m_noOutline;
    style.fontFamily = QString::fromStdString(m_font);
    const bool paper = m_size.empty() || m_size == "column" || m_size == "page";
    style.fontSize =
        m_fontSize > 0 ? m_fontSize : render::defaultLabelPoints(pageSize().height(), paper);
    if (m_fontSize == 0) style.fontSizeMin = render::kMinLabelPoints;
    style.language = QString::fromStdString(m_lang);
    style.lines = m_lines;
    style.arrange = m_arrange == "rows"   ? render::FigureStyle::Arrange::Rows
                    : m_arrange == "auto" ? render::FigureStyle::Arrange::Auto
                                          : render::FigureStyle::Arrange::Columns;
    return style;
}

void RenderCommand::write(const render::FigurePainter& paint, const QString& why,
                          std::ostream& out) const {
    QString error = why;
    bool named = true;
    const QSizeF size = pageSize(&named);
    if (!paint ||
        !render::writeFigure(QString::fromStdString(m_out), size, named, m_dpi, paint, &error))
        throw Error(error.toStdString());
    out << "wrote " << m_out << "\n";
}

QSizeF RenderCommand::pageSize(bool* named) const {
    QSizeF size(504, 360);
    bool isNamed = true;
    QString error;
    if (!m_size.empty() &&
        !render::parseFigureSize(QString::fromStdString(m_size), &size, &isNamed, &error))
        throw Error(error.toStdString());
    if (named) *named = isNamed;
    return size;
}

std::vector<std::string> RenderCommand::colormapNames() {
    std::vector<std::string> names;
    for (const QString& n : render::colormapNames()) names.push_back(n.toStdString());
    return names;
}

void RenderCommand::checkColours() const {
    const auto maps = colormapNames();
    if (std::find(maps.begin(), maps.end(), m_colormap) == maps.end())
        throw Error("unknown --colormap '" + excerpt(m_colormap) + "' (" + alternatives(maps) +
                    ")");
    if (!render::isScalingName(m_scaling))
        throw Error("--scaling must be " + alternatives(render::scalingNames()));
}

// The tables asked for, from the options; Error naming the option that cannot be.
SelectionRequest RenderCommand::request() const {
    SelectionRequest request;
    if (!blockKindFromName(m_block, &request.kind))
        throw Error("--block must be " + alternatives(blockKindNames()));
    request.layer = m_layer;
    request.heads = m_heads;
    // Signed tables always share one scale: per-panel maxima would paint a residual of 1e-8
    // as strongly as one of 0.5.
    request.sharedScale = m_shared || m_show == "difference" || m_show == "fit-residual";
    request.mergeWords = m_mergeWords;
    tableKindFromName(m_show, &request.show);  // checked by the option
    request.differenceBase = m_base - 1;
    request.wording = render::wording(QString::fromStdString(m_lang));
    if (m_probe.empty() && (m_models.empty() || m_text.empty()))
        throw Error("render needs --model and --text, or --probe (a probe file)");
    if (!m_probe.empty() && !m_models.empty())
        throw Error("render takes --model or --probe, not both");
    if (!m_probe.empty() && !m_steps.empty() && request.show == TableKind::Difference)
        throw Error(
            "--show difference with --probe subtracts step snapshots: give --steps with "
            "the base first or leave --steps out");
    const size_t count = m_probe.empty() ? m_models.size() : 2;
    if (request.show == TableKind::Difference && (count < 2 || m_base > int(count)))
        throw Error(
            "--show difference needs at least two --model and --base between 1 and the "
            "number of models (got " +
            std::to_string(m_models.size()) + " models, --base " + std::to_string(m_base) + ")");
    checkColours();
    // NaN passes any range check and an infinite size makes text layout loop for good.
    if (m_fontSize != 0 && !(m_fontSize >= 1 && m_fontSize <= 200))
        throw Error("--font-size must be a number of points from 1 to 200");
    return request;
}

void RenderCommand::run(std::ostream& out) {
    if (!*m_cmd) return;
    render::ensureGuiApplication();
    if (m_distanceByLayer) return runDistanceChart(out);
    if (m_image.given() || imageModels()) return runImages(out);
    refuseImageOptions();
    if (!m_pruneFile.empty() || !m_curvesFile.empty() || m_show == "offset-profile") {
        runCharts(out);
        return;
    }
    const SelectionRequest request = this->request();
    checkOutputPath(m_out);
    const QString path = QString::fromStdString(m_out);
    const std::string ext = QFileInfo(path).suffix().toLower().toStdString();
    std::vector<ModelColumn> columns;
    std::shared_ptr<const Results> results;
    if (!m_probe.empty()) {
        // A filmstrip: a column per snapshot ("step 100"), the probe as the title.
        if (ext == "csv" || ext == "npy" || ext == "json")
            throw Error(
                "with --probe the output is a figure (.svg, .pdf or .png); the probe "
                "file itself holds the data");
        const ProbeRecord record = readProbeFile(m_probe);
        results = std::make_shared<const Results>(probeResults(record, m_steps, request.wording));
        if (results->empty()) throw Error(m_probe + " holds no snapshot yet");
        if (m_title.empty())
            //: A filmstrip's title: %1 the model, %2 the probe sentence
            m_title = render::Words(QString::fromStdString(m_lang))
                          .translate("Figure", "%1 during training · \"%2\"")
                          .arg(QString::fromStdString(record.model),
                               QString::fromStdString(record.source))
                          .toStdString();
    } else {
        for (const auto& p : m_models) columns.push_back(column(p));
        results = std::make_shared<const Results>(
            analyzeAll(columns, m_text, m_targetOpt->count() ? m_target : std::string()));
    }
    for (const auto& r : *results)
        if (!r.error.empty()) throw Error(r.name + ": " + r.error);
    if (ext == "csv" || ext == "npy" || ext == "json") {
        writeFileAtomically(m_out, exportDataBytes(results, columns, request, ext));
        out << "wrote " << m_out << "\n";
        return;
    }
    const render::FigureStyle style = this->style();
    QString error;
    render::FigurePainter paint;
    if (!m_query.empty()) {
        const Analysis& first = results->front().analysis;
        const int q = queryIndex(
            request.kind == BlockKind::EncoderSelf ? first.sourceTokens : first.targetTokens,
            m_query, columns.empty() ? nullptr : &columns.front().model->tokenizer());
        // One model: a line per head; several: a line per model.
        paint =
            render::profilePainter(selectProfile(*results, request.kind, request.layer, q,
                                                 results->size() == 1 ? 0 : -1, request.wording),
                                   style, &error);
    } else {
        paint = render::gridPainter(selectTables(results, request), style, &error);
    }
    write(paint, error, out);
}

// The pruning curves of an `analyze --importance --prune --out` file, every value typed (the
// file and the key in each message); *model: the model it names ("a model" if none).
static PruneCurves readPruneFile(const std::string& path, std::string* model) {
    const nlohmann::json j =
        parseJson(readTextFile(path, 64 << 20, "'" + path + "'"), "'" + path + "'");
    const std::string file = "'" + path + "'";
    if (!j.is_object() || !j.contains("prune") || !j["prune"].is_object() ||
        !j["prune"].contains("by_importance"))
        throw Error(path +
                    " has no pruning curves (make it with attnviz-cli analyze "
                    "--importance --prune --out F.json)");
    auto wrong = [&](const std::string& key, const char* type, const nlohmann::json& v) {
        return Error(file + ": '" + key + "' must be " + type + ", got " + excerpt(v));
    };
    auto integer = [&](const nlohmann::json& o, const std::string& where, const char* key) {
        if (!o.contains(key)) return 0;
        const auto& v = o[key];
        if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > (1 << 30))
            throw wrong(where + key, "an integer of at least 0", v);
        return int(v.get<int64_t>());
    };
    auto number = [&](const nlohmann::json& v, const std::string& key) {
        if (v.is_null())
            return std::numeric_limits<double>::quiet_NaN();  // not finite when written
        if (!v.is_number() || !std::isfinite(v.get<double>())) throw wrong(key, "a number", v);
        return v.get<double>();
    };
    const nlohmann::json& prune = j["prune"];
    PruneCurves curves;
    curves.sentences = integer(prune, "prune.", "sentences");
    for (const char* order : {"by_importance", "random"}) {
        if (!prune.contains(order)) continue;
        const std::string where = std::string("prune.") + order;
        if (!prune[order].is_array()) throw wrong(where, "an array", prune[order]);
        auto& curve = order == std::string("random") ? curves.random : curves.byImportance;
        for (size_t i = 0; i < prune[order].size(); ++i) {
            const auto& pt = prune[order][i];
            const std::string at = where + "[" + std::to_string(i) + "]";
            if (!pt.is_object()) throw wrong(at, "an object", pt);
            PrunePoint p;
            p.removed = integer(pt, at + ".", "removed");
            p.loss = pt.contains("loss") ? number(pt["loss"], at + ".loss")
                                         : std::numeric_limits<double>::quiet_NaN();
            if (pt.contains("bleu") && !pt["bleu"].is_null())
                p.bleu = number(pt["bleu"], at + ".bleu");
            curve.push_back(p);
        }
    }
    if (j.contains("model") && !j["model"].is_string())
        throw wrong("model", "a string", j["model"]);
    *model = j.value("model", std::string("a model"));
    return curves;
}

// Line charts from a JSON file (docs/figures/README.md, "Curves"), every value typed, the key
// named in each message:
//   {"title": T, "x_label": X, "y_label": Y, "columns": N, "y_min": V, "integer_x": B,
//    "charts": [{"title": T, "series": [{"name": S, "x": [..], "y": [..], "look": K,
//                                        "line": B, "markers": B, "reference": B}, ..]}, ..]}
// Only "charts" and each series' "x" and "y" (of one length) are required; null in "y" is a
// gap. At most 64 charts of 64 series of 100,000 points.
static render::ChartGrid readCurvesFile(const std::string& path) {
    const nlohmann::json j =
        parseJson(readTextFile(path, 64 << 20, "'" + path + "'"), "'" + path + "'");
    const std::string file = "'" + path + "'";
    auto wrong = [&](const std::string& key, const char* type, const nlohmann::json& v) {
        return Error(file + ": '" + key + "' must be " + type + ", got " + excerpt(v));
    };
    auto text = [&](const nlohmann::json& o, const std::string& where, const char* key) {
        if (!o.contains(key)) return std::string();
        if (!o[key].is_string()) throw wrong(where + key, "a string", o[key]);
        return excerpt(o[key].get<std::string>());
    };
    auto flag = [&](const nlohmann::json& o, const std::string& where, const char* key, bool def) {
        if (!o.contains(key)) return def;
        if (!o[key].is_boolean()) throw wrong(where + key, "true or false", o[key]);
        return o[key].get<bool>();
    };
    auto integer = [&](const nlohmann::json& o, const std::string& where, const char* key, int lo,
                       int hi) {
        if (!o.contains(key)) return 0;
        const auto& v = o[key];
        if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > hi)
            throw wrong(
                where + key,
                ("an integer from " + std::to_string(lo) + " to " + std::to_string(hi)).c_str(), v);
        return int(v.get<int64_t>());
    };
    auto numbers = [&](const nlohmann::json& v, const std::string& key, bool gaps) {
        if (!v.is_array() || v.size() > 100000)
            throw wrong(key, "an array of at most 100,000 numbers", v);
        std::vector<double> out;
        for (size_t i = 0; i < v.size(); ++i) {
            if (gaps && v[i].is_null()) {
                out.push_back(std::numeric_limits<double>::quiet_NaN());
                continue;
            }
            if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
                throw wrong(key + "[" + std::to_string(i) + "]", "a finite number", v[i]);
            out.push_back(v[i].get<double>());
        }
        return out;
    };
    if (!j.is_object() || !j.contains("charts"))
        throw Error(path +
                    " holds no charts (a JSON object with \"charts\": "
                    "docs/figures/README.md)");
    render::ChartGrid g;
    g.title = text(j, "", "title");
    g.xLabel = text(j, "", "x_label");
    g.yLabel = text(j, "", "y_label");
    g.columns = integer(j, "", "columns", 0, 16);
    g.integerX = flag(j, "", "integer_x", false);
    g.sharedY = flag(j, "", "shared_y", true);
    if (j.contains("y_min"))
        g.yMin = numbers(nlohmann::json::array({j["y_min"]}), "y_min", false)[0];
    const auto& charts = j["charts"];
    if (!charts.is_array() || charts.empty() || charts.size() > 64)
        throw wrong("charts", "an array of 1 to 64 charts", charts);
    for (size_t c = 0; c < charts.size(); ++c) {
        const std::string at = "charts[" + std::to_string(c) + "]";
        const auto& cj = charts[c];
        if (!cj.is_object() || !cj.contains("series") || !cj["series"].is_array() ||
            cj["series"].size() > 64)
            throw wrong(at, "an object with \"series\", an array of at most 64", cj);
        render::Chart chart;
        chart.title = text(cj, at + ".", "title");
        for (size_t k = 0; k < cj["series"].size(); ++k) {
            const std::string sat = at + ".series[" + std::to_string(k) + "]";
            const auto& sj = cj["series"][k];
            if (!sj.is_object() || !sj.contains("x") || !sj.contains("y"))
                throw wrong(sat, "an object with \"x\" and \"y\"", sj);
            render::ChartSeries se;
            se.name = text(sj, sat + ".", "name");
            se.x = numbers(sj["x"], sat + ".x", false);
            se.y = numbers(sj["y"], sat + ".y", true);
            if (se.x.size() != se.y.size())
                throw Error(file + ": '" + sat + "' has " + std::to_string(se.x.size()) +
                            " x values and " + std::to_string(se.y.size()) + " y values");
            se.look = integer(sj, sat + ".", "look", 0, 1023);
            se.line = flag(sj, sat + ".", "line", true);
            se.markers = flag(sj, sat + ".", "markers", !se.line);
            se.reference = flag(sj, sat + ".", "reference", false);
            chart.series.push_back(std::move(se));
        }
        g.charts.push_back(std::move(chart));
    }
    return g;
}

// Offset profiles (each head of the chosen block and layer of every model, beside its
// Gaussian fit, over one or many sentences) or pruning curves, as small multiples.
void RenderCommand::runCharts(std::ostream& out) {
    const QString ext = QFileInfo(QString::fromStdString(m_out)).suffix().toLower();
    if (ext != "svg" && ext != "pdf" && ext != "png")
        throw Error("these charts are figures: --out must end in .svg, .pdf or .png");
    render::ChartGrid g;
    if (!m_curvesFile.empty()) {
        if (!m_models.empty() || !m_text.empty() || !m_pruneFile.empty() || m_show != "weights")
            throw Error(
                "--curves draws the charts its file holds: --model, --text, --prune and --show "
                "do not apply");
        checkOutputPath(m_out);
        g = readCurvesFile(m_curvesFile);
    } else if (!m_pruneFile.empty()) {
        if (!m_models.empty() || !m_text.empty() || m_show != "weights")
            throw Error(
                "--prune draws the curves its file holds: --model, --text and --show do "
                "not apply (the file names its model)");
        checkOutputPath(m_out);
        std::string model;
        const PruneCurves curves = readPruneFile(m_pruneFile, &model);
        // The model by its file name, not its path: a title for slides.
        g = render::pruningCharts(
            curves, QFileInfo(QString::fromStdString(model)).completeBaseName().toStdString(),
            render::Words(QString::fromStdString(m_lang)));
    } else {
        if (m_models.empty() || (m_text.empty() && m_sentences.empty()))
            throw Error("--show offset-profile needs --model and --text or --sentences");
        std::vector<std::pair<std::string, std::optional<std::string>>> sentences;
        if (!m_sentences.empty()) {
            std::istringstream in(readTextFile(m_sentences, 64 << 20, "'" + m_sentences + "'"));
            for (std::string line; std::getline(in, line);) {
                if (!line.empty() && line.back() == '\r') line.pop_back();
                if (line.find_first_not_of(" \t") == std::string::npos) continue;
                const size_t tab = line.find('\t');
                if (tab == std::string::npos)
                    sentences.push_back({line, std::nullopt});
                else
                    sentences.push_back({line.substr(0, tab), line.substr(tab + 1)});
            }
            if (sentences.empty()) throw Error(m_sentences + " holds no sentence");
        } else {
            sentences.push_back(
                {m_text, m_targetOpt->count() ? std::optional(m_target) : std::nullopt});
        }
        checkOutputPath(m_out);
        BlockKind kind;
        if (!blockKindFromName(m_block, &kind))
            throw Error("--block must be encoder_self, decoder_self or cross");
        std::vector<std::vector<Analysis>> runs;  // [model][sentence]
        for (const auto& path : m_models) {
            Model& m = *column(path).model;
            runs.emplace_back();
            for (const auto& [src, tgt] : sentences) {
                try {
                    runs.back().push_back(tgt ? m.analyze(src, std::string_view(*tgt))
                                              : m.analyze(src));
                } catch (const Error& e) {
                    if (sentences.size() == 1) throw Error(path + ": " + e.what());
                }
            }
        }
        std::vector<render::ModelRuns> models;
        for (size_t k = 0; k < m_models.size(); ++k) {
            models.push_back({column(m_models[k]).name, {}});
            for (const Analysis& a : runs[k]) models.back().runs.push_back(&a);
        }
        std::string problem;
        g = render::offsetProfileCharts(models, kind, m_layer, m_maxOffset, &problem,
                                        render::Words(QString::fromStdString(m_lang)));
        if (!problem.empty()) throw Error(problem);
    }
    QString error;
    write(render::chartPainter(g, style(), &error), error, out);
}

std::unique_ptr<Command> makeRenderCommand() {
    return std::make_unique<RenderCommand>();
}

}  // namespace attnviz::cli
