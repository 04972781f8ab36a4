// SPDX-License-Identifier: GPL-3.0-or-later
// Responsiveness of the app: from a text edit to every panel repainted, for the bundled
// models (11 models x 4 heads), at a short and a long sentence. Prints JSON.
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
    for (int n : {12, 47}) {
        std::vector<double> ms, analysis;
        for (int run = 0; run < cli.value(repeat).toInt() + 2; ++run) {
            QSignalSpy spy(w.runner(), &AnalysisRunner::finished);
            QElapsedTimer t;
            t.start();
            w.sourceEdit()->setText(sentence(n, run));
            while (spy.isEmpty() || w.runner()->busy()) spy.wait(10000);
            const double analysed = t.nsecsElapsed() / 1e6;  // results shown in the grid
            QApplication::processEvents();
            ComparisonGrid* g = w.grid();
            for (int c = 0; c < g->columnCount(); ++c)
                for (int h = 0; h < g->rowCount(); ++h)
                    g->panel(c, h)->replot(QCustomPlot::rpImmediateRefresh);
            g->repaint();
            if (run >= 2) {  // two warm-up runs
                ms.push_back(t.nsecsElapsed() / 1e6);
                analysis.push_back(analysed);
            }
        }
        std::sort(ms.begin(), ms.end());
        std::sort(analysis.begin(), analysis.end());
        results.append(QJsonObject{{"tokens", n},
                                   {"models", int(columns.size())},
                                   {"panels", w.grid()->columnCount() * w.grid()->rowCount()},
                                   {"ms_median", ms[ms.size() / 2]},
                                   {"ms_median_until_results_set", analysis[analysis.size() / 2]},
                                   {"ms_min", ms.front()},
                                   {"ms_max", ms.back()},
                                   {"runs", int(ms.size())}});
    }
    QTextStream(stdout) << QJsonDocument(
                               QJsonObject{
                                   {"benchmark", "text edit to every panel repainted"},
                                   {"platform", QGuiApplication::platformName()},
                                   {"window", QString("%1x%2").arg(w.width()).arg(w.height())},
                                   {"results", results}})
                               .toJson();
    return 0;
}
