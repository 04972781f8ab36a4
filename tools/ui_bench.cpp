// SPDX-License-Identifier: GPL-3.0-or-later
// Responsiveness of the app: from a text edit to every panel repainted, for the bundled
// models (12 models x 4 heads) at 12 and 47 tokens, and for 4 untrained models with
// max_len 260 (dot, random, hc-sa, local; 4 x 4 panels) at 256 tokens. Prints JSON.
//   attnviz-ui-bench [--models DIR] [--repeat N]
// Each run edits the source field (as typing does), waits for the analysis on the worker
// thread, then forces a synchronous repaint of every panel; the time is wall clock from
// the edit to the end of the last repaint.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTextStream>
#include <algorithm>
#include <set>

#include "core/presets.h"
#include "ui/comparison_grid.h"
#include "ui/main_window.h"

using namespace attnviz::ui;

namespace {

// A sentence of n tokens from the translate task's English, different for each run.
QString sentence(int n, int run) {
    static const QStringList words =
        QString(
            "i want to go to the station because she says that the old man reads a new book in the "
            "park with my friend today and we walk to the city tomorrow")
            .split(' ');
    QStringList out;
    for (int i = 0; i < n; ++i) out << words[(i + run) % words.size()];
    return out.join(' ');
}

// Untrained models that accept 256-token sentences: the presets at d_model 48, max_len 260.
std::vector<attnviz::ModelColumn> longModels() {
    using namespace attnviz;
    const auto presets = loadPresets(presetDirectory());
    std::set<std::string> unique;
    for (const auto& word : sentence(24, 0).split(' ')) unique.insert(word.toStdString());
    const Vocab v = Vocab::fromWords(std::vector<std::string>(unique.begin(), unique.end()));
    std::vector<ModelColumn> out;
    for (const char* id : {"dot", "random", "hc-sa", "local"}) {
        const nlohmann::json cfg = presetConfig(findPreset(presets, id), {{"max_len", 260}}, false);
        ModelColumn c;
        c.name = std::string(id) + " (untrained, max_len 260)";
        c.model = std::make_shared<Model>(
            Model::initialize(ModelConfig::fromJson(cfg), v, v, Tokenizer(true), 1));
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCommandLineParser cli;
    QCommandLineOption models("models", "Checkpoint folder (default: bundled)", "dir");
    QCommandLineOption repeat("repeat", "Runs per length", "n", "15");
    cli.addOptions({models, repeat});
    cli.addHelpOption();
    cli.process(app);
    std::vector<std::string> errors;
    auto columns = attnviz::loadModelDirectory(
        cli.isSet(models) ? cli.value(models).toStdString() : attnviz::bundledModelDirectory(),
        &errors);
    MainWindow w;
    w.resize(1800, 1100);
    w.setColumns(columns);
    w.show();
    QJsonArray results;
    // withTarget: the target field holds a sentence too (teacher forcing, no greedy decoding:
    // untrained models would decode 260 steps).
    // allPanels: every panel replotted, also those scrolled out of view (the worst case);
    // otherwise what the app does: the panels on screen are drawn, the others when shown.
    auto measure = [&](int n, int models, bool withTarget, bool allPanels) {
        std::vector<double> ms, analysis;
        for (int run = 0; run < cli.value(repeat).toInt() + 2; ++run) {
            QSignalSpy spy(w.runner(), &AnalysisRunner::finished);
            QElapsedTimer t;
            t.start();
            if (withTarget) {
                const QSignalBlocker b(w.targetEdit());
                w.targetEdit()->setText(sentence(n, run + 1));
            }
            w.sourceEdit()->setText(sentence(n, run));
            while (spy.isEmpty() || w.runner()->busy()) spy.wait(10000);
            const double analysed = t.nsecsElapsed() / 1e6;  // results shown in the grid
            QApplication::processEvents();
            ComparisonGrid* g = w.grid();
            if (allPanels) {
                for (int c = 0; c < g->columnCount(); ++c)
                    for (int h = 0; h < g->rowCount(); ++h)
                        if (Panel* p = g->panelAt(c, h)) p->redrawNow();
            }
            w.repaint();     // synchronously, what is on screen
            if (run >= 2) {  // two warm-up runs
                ms.push_back(t.nsecsElapsed() / 1e6);
                analysis.push_back(analysed);
            }
        }
        std::sort(ms.begin(), ms.end());
        std::sort(analysis.begin(), analysis.end());
        results.append(QJsonObject{{"tokens", n},
                                   {"repainted", allPanels ? "every panel" : "panels on screen"},
                                   {"target", withTarget ? "given" : "decoded greedily"},
                                   {"models", models},
                                   {"panels", w.grid()->columnCount() * w.grid()->rowCount()},
                                   {"ms_median", ms[ms.size() / 2]},
                                   {"ms_median_until_results_set", analysis[analysis.size() / 2]},
                                   {"ms_min", ms.front()},
                                   {"ms_max", ms.back()},
                                   {"runs", int(ms.size())}});
    };
    for (bool all : {true, false})
        for (int n : {12, 47}) measure(n, int(columns.size()), false, all);
    w.setColumns(longModels());
    for (bool all : {true, false}) measure(256, 4, true, all);
    QTextStream(stdout) << QJsonDocument(
                               QJsonObject{
                                   {"benchmark", "text edit to every panel repainted"},
                                   {"platform", QGuiApplication::platformName()},
                                   {"window", QString("%1x%2").arg(w.width()).arg(w.height())},
                                   {"results", results}})
                               .toJson();
    return 0;
}
