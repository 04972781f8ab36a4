// SPDX-License-Identifier: GPL-3.0-or-later
// Responsiveness of the app: from a text edit to every panel repainted, for the bundled
// models (12 models x 4 heads) at 12 and 47 tokens, for the English → Spanish models (12
// models, subwords) at 110 tokens, and for 4 untrained models with
// max_len 260 (dot, random, hc-sa, local; 4 x 4 panels) at 256 tokens; with the analysis
// docks hidden behind other tabs (the default) and with the Heads and Offset profiles docks
// open (floating beside the window). Prints JSON.
//   attnviz-ui-bench [--models DIR] [--repeat N] [--cases LIST]
// LIST names the cases to run, comma-separated (default: all): 12, 47, 47-docks, 47-docks-len,
// 47-len, 110, 256, 256-docks (12 and 47 are run with every panel and with the panels on
// screen), image, image-docks, image-query. 47-docks-len is 47-docks with a word added or
// removed at each edit (47 and 46 words in turn): the length changes, so no head's fit can be
// taken over from the sentence before and every panel gets a table of a new shape (in the other
// cases each run's sentence has the same length as the last). 47-len is the same with the docks
// hidden and the panels on screen: what a length change costs the grid alone. Each case's
// sentences are its own (the list's words taken with a stride of its own: 1, 3, 5, …): the app
// remembers the statistics of the maps it has seen (core/result_stats.h), and a sentence a case
// before had analysed would find them there. Within a case, no sentence comes twice; the maps
// that depend on the length alone (hard-coded and random) are found again two edits later.
// Image mode (issue 28), each bundled set of image models in turn (vision, photos: 11 models x 4
// heads each; the results name the set): "image" chooses another
// test image (every model runs on it) and waits for the panels on screen, "image-docks" the same
// with the Heads dock seen (its table and distance chart), "image-query" clicks another query
// patch (no model runs; the panels redraw their overlays).
// Each run edits the source field (as typing does) and waits, sleeping in the event loop, for
// the first maps: every column's first stage (encoder self-attention, no decoding) or whole
// result shown in the grid, then repaints the window synchronously (ms_median_first_maps:
// edit to that repaint's end). It then waits for the whole analysis of every model and for
// every open dock's computation, and forces a synchronous repaint of every panel; ms_median
// is wall clock from the edit to the end of the last repaint, and the CPU time is the whole
// process's over the same span (every thread: what the edit cost).
#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTextStream>
#include <QTimer>
#include <algorithm>
#include <ctime>
#include <set>

#include "core/workspace.h"
#include "ui/background.h"
#include "ui/comparison_grid.h"
#include "ui/heads_dock.h"
#include "ui/image_chooser.h"
#include "ui/image_model.h"
#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/offset_profiles.h"
#include "ui/workspace_model.h"

using namespace attnviz::ui;

namespace {

double processCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Opens (true) or closes the Heads and Offset profiles docks, as a person would: Offset
// profiles dragged to the right of the window and Heads chosen among the bottom tabs, so that
// both are seen at once; or both back among the bottom tabs, behind the Variant tab.
void openAnalysisDocks(MainWindow& w, bool open) {
    auto* heads = w.findChild<QDockWidget*>("heads");
    auto* offsets = w.findChild<QDockWidget*>("offsets");
    auto* variant = w.findChild<QDockWidget*>("variant");
    if (open) {
        w.addDockWidget(Qt::RightDockWidgetArea, offsets);  // leaves the bottom tabs
        offsets->show();
        heads->raise();
    } else {
        w.tabifyDockWidget(heads, offsets);
        variant->raise();
    }
    QApplication::processEvents();
}

// A sentence of n tokens from the translate task's English, different for each run: the
// words from the run-th on, every stride-th (an odd stride: every word of the 32 in turn).
QString sentence(int n, int run, int stride = 1) {
    static const QStringList words =
        QString(
            "i want to go to the station because she says that the old man reads a new book in the "
            "park with my friend today and we walk to the city tomorrow")
            .split(' ');
    QStringList out;
    for (int i = 0; i < n; ++i) out << words[(i * stride + run) % words.size()];
    return out.join(' ');
}

// Runs the event loop, sleeping between events, until done() holds after one of `w`'s
// analysis signals (or 120 s pass).
template <class Done>
void waitForAnalysis(MainWindow& w, Done done) {
    if (done()) return;
    QEventLoop loop;
    auto check = [&] {
        if (done()) loop.quit();
    };
    const auto a = QObject::connect(w.workspace(), &WorkspaceModel::progressed, &loop, check);
    const auto b = QObject::connect(w.workspace(), &WorkspaceModel::resultsChanged, &loop, check);
    const auto c = QObject::connect(w.runner(), &AnalysisRunner::finished, &loop, check);
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    loop.exec();
    for (const auto& k : {a, b, c}) QObject::disconnect(k);
}

// Every column's first maps (or whole result, or error) of the current sentence are shown.
bool firstMapsShown(MainWindow& w) {
    const WorkspaceModel* m = w.workspace();
    for (int c = 0; c < int(m->columns().size()); ++c)
        if (m->columnState(c) == WorkspaceModel::ColumnState::Stale) return false;
    return true;
}

// A sentence of exactly n tokens for the model's tokenizer, different for each run: the
// translate task's English words, each taken while it fits (one-token words always do).
QString sentenceOfTokens(const attnviz::Model& model, int n, int run) {
    static const QStringList words = sentence(24, 0).split(' ');
    QStringList out;
    for (int i = 0, tokens = 0; tokens < n && i < 100 * n; ++i) {
        const QString w = words[(i + run) % words.size()];
        const int more =
            int(model.tokenizer().tokenize((out + QStringList{w}).join(' ').toStdString()).size());
        if (more > n) continue;
        out << w;
        tokens = more;
    }
    return out.join(' ');
}

// Untrained models that accept 256-token sentences: the presets at d_model 48, max_len 260.
std::vector<attnviz::ModelColumn> longModels() {
    std::set<std::string> unique;
    for (const auto& word : sentence(24, 0).split(' ')) unique.insert(word.toStdString());
    return attnviz::untrainedPresetColumns({"dot", "random", "hc-sa", "local"}, 260,
                                           {unique.begin(), unique.end()});
}

struct Timing {
    std::vector<double> ms, cpu;
    void add(double wall, double cpuMs) { ms.push_back(wall), cpu.push_back(cpuMs); }
    QJsonObject json() {
        std::sort(ms.begin(), ms.end());
        std::sort(cpu.begin(), cpu.end());
        return {{"ms_median", ms[ms.size() / 2]},
                {"cpu_ms_median", cpu[cpu.size() / 2]},
                {"ms_min", ms.front()},
                {"ms_max", ms.back()},
                {"runs", int(ms.size())}};
    }
};

// The image cases (see the head of this file) for one bundled set of image models: the set
// chosen in the Models box, then per run another test image (or query patch); two warm-up
// runs. False when the set or its test images cannot be had (the message on stderr).
template <class Want>
bool measureImages(MainWindow& w, const attnviz::ModelSet* set, int repeat, Want want,
                   QJsonArray& results) {
    if (!w.chooseModelSet(QString::fromStdString(set->id), false)) {
        QTextStream(stderr) << "attnviz-ui-bench: the image set '"
                            << QString::fromStdString(set->id) << "' cannot be chosen\n";
        return false;
    }
    ImageView* v = w.imageView();
    QString error;
    if (!v->chooser()->waitForTestImages(&error)) {
        QTextStream(stderr) << "attnviz-ui-bench: no test images: " << error << "\n";
        return false;
    }
    ImageModel* m = v->model();
    auto settle = [&] {  // the running analysis (if any) finished and shown
        while (m->busy()) {
            QSignalSpy spy(m, &ImageModel::resultsChanged);
            spy.wait(10000);
        }
        QApplication::processEvents();
    };
    settle();
    const int models = int(m->columns().size());
    if (models == 0) {  // a case that ran with nothing loaded measures nothing: refuse it
        QTextStream(stderr) << "attnviz-ui-bench: the image set '"
                            << QString::fromStdString(set->id)
                            << "' loaded 0 models: no image case is reported\n";
        return false;
    }
    auto entry = [&](const char* name, Timing& t, bool docks) {
        QJsonObject o = t.json();
        o.insert("case", name);
        o.insert("models", models);
        o.insert("set", QString::fromStdString(set->id));
        o.insert("docks", docks ? "Heads" : "hidden");
        o.insert("repainted", "panels on screen");
        results.append(o);
    };
    for (bool docks : {false, true}) {
        if (!want(docks ? "image-docks" : "image")) continue;
        openAnalysisDocks(w, docks);
        if (docks) w.findChild<QDockWidget*>("offsets")->hide();  // text only
        Timing t;
        for (int run = 0; run < repeat + 2; ++run) {
            QSignalSpy spy(m, &ImageModel::resultsChanged);
            QElapsedTimer clock;
            clock.start();
            const double cpu0 = processCpuMs();
            v->chooser()->chooseTestImage(10 + run);
            while (spy.isEmpty()) spy.wait(10000);
            QApplication::processEvents();  // the Heads dock's table and chart, when seen
            w.repaint();
            if (run >= 2) t.add(clock.nsecsElapsed() / 1e6, processCpuMs() - cpu0);
        }
        entry(docks ? "image-docks" : "image", t, docks);
    }
    if (want("image-query")) {
        openAnalysisDocks(w, false);
        settle();
        Timing t;
        for (int run = 0; run < repeat + 2; ++run) {
            QElapsedTimer clock;
            clock.start();
            const double cpu0 = processCpuMs();
            m->setQuery(attnviz::ImageQuery::patch(run % 7, (run * 3) % 7));  // as a click does
            w.repaint();
            if (run >= 2) t.add(clock.nsecsElapsed() / 1e6, processCpuMs() - cpu0);
        }
        entry("image-query", t, false);
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const attnviz::ui::BackgroundJobsFinish backgroundJobsFinish;  // before the app goes
    QCommandLineParser cli;
    QCommandLineOption models("models", "Checkpoint folder (default: bundled)", "dir");
    QCommandLineOption repeat("repeat", "Runs per length", "n", "15");
    QCommandLineOption cases(
        "cases",
        "Cases to run: 12, 47, 47-docks, 47-docks-len, 47-len, 110, 256, 256-docks, image, "
        "image-docks, image-query",
        "list",
        "12,47,47-docks,47-docks-len,47-len,110,256,256-docks,image,image-docks,image-query");
    cli.addOptions({models, repeat, cases});
    cli.addHelpOption();
    cli.process(app);
    const QStringList known{"12",  "47",        "47-docks", "47-docks-len", "47-len",     "110",
                            "256", "256-docks", "image",    "image-docks",  "image-query"};
    const QStringList chosen = cli.value(cases).split(',', Qt::SkipEmptyParts);
    for (const QString& c : chosen)
        if (!known.contains(c)) {
            QTextStream(stderr) << "attnviz-ui-bench: unknown case '" << c
                                << "' (cases: " << known.join(", ") << ")\n";
            return 2;
        }
    // --models is the bundled folder for everything the cases read (the presets of the 256
    // case, the English → Spanish set of 110), not only the columns: a bench copied out of the
    // build tree aborted on a missing preset folder.
    if (cli.isSet(models)) qputenv("ATTNVIZ_MODELS", QFile::encodeName(cli.value(models)));
    const auto want = [&](const QString& c) { return chosen.contains(c); };
    std::vector<std::string> errors;
    auto columns = attnviz::loadModelDirectory(
        cli.isSet(models) ? cli.value(models).toStdString() : attnviz::bundledModelDirectory(),
        &errors);
    const bool textCases = std::any_of(chosen.begin(), chosen.end(), [](const QString& c) {
        return !c.startsWith("image") && c != "110" && !c.startsWith("256");
    });
    if (textCases && columns.empty()) {  // nothing loaded: no case may report a time
        QTextStream(stderr) << "attnviz-ui-bench: no models could be loaded from "
                            << (cli.isSet(models)
                                    ? cli.value(models)
                                    : QString::fromStdString(attnviz::bundledModelDirectory()))
                            << (errors.empty() ? QString()
                                               : ": " + QString::fromStdString(errors.front()))
                            << "\n";
        return 2;
    }
    MainWindow w;
    w.resize(1800, 1100);
    w.setColumns(columns);
    w.show();
    QJsonArray results;
    // withTarget: the target field holds a sentence too (teacher forcing, no greedy decoding:
    // untrained models would decode 260 steps).
    // allPanels: every panel replotted, also those scrolled out of view (the worst case);
    // otherwise what the app does: the panels on screen are drawn, the others when shown.
    bool broken = false;  // a case with open docks in which they computed nothing
    // subwords: the sentences are made for the first model's tokenizer (sentenceOfTokens).
    // lengthChanges: runs alternate between n and n − 1 words.
    int measured = 0;  // cases measured so far: each case's sentences are its own (its stride)
    auto measure = [&](int n, int models, bool withTarget, bool allPanels, bool docks,
                       bool subwords = false, bool lengthChanges = false) {
        openAnalysisDocks(w, docks);
        std::vector<double> ms, analysis, cpu, first;
        const int stride = 2 * (measured++ % 16) + 1;
        const auto text = [&](int run) {
            return subwords ? sentenceOfTokens(*w.workspace()->columns().front().model, n, run)
                            : sentence(lengthChanges ? n - run % 2 : n, run, stride);
        };
        for (int run = 0; run < cli.value(repeat).toInt() + 2; ++run) {
            QSignalSpy spy(w.runner(), &AnalysisRunner::finished);
            const QString source = text(run), target = withTarget ? text(run + 1) : QString();
            QElapsedTimer t;
            t.start();
            const double cpu0 = processCpuMs();
            if (withTarget) {
                const QSignalBlocker b(w.targetEdit());
                w.targetEdit()->setText(target);
            }
            w.sourceEdit()->setText(source);
            waitForAnalysis(w, [&] { return firstMapsShown(w); });
            w.repaint();  // synchronously, what is on screen
            const double firstMaps = t.nsecsElapsed() / 1e6;
            while (spy.isEmpty() || w.runner()->busy()) spy.wait(10000);
            const double analysed = t.nsecsElapsed() / 1e6;  // results shown in the grid
            QApplication::processEvents();
            // Every open dock's computation for this sentence (hidden ones do none).
            // Sleeping between events, as the app's event loop does (a finished computation
            // posts one; the timer is a safety net): processEvents with a time limit returns at
            // once when nothing is pending, and that polling took a core from the fits.
            QTimer wake;
            wake.start(20);
            while (w.heads()->busy() || w.offsetProfiles()->busy())
                QApplication::processEvents(QEventLoop::WaitForMoreEvents);
            ComparisonGrid* g = w.grid();
            if (allPanels) {
                for (int c = 0; c < g->columnCount(); ++c)
                    for (int h = 0; h < g->rowCount(); ++h)
                        if (Panel* p = g->panelAt(c, h)) p->redrawNow();
            }
            w.repaint();  // synchronously, what is on screen
            // ATTNVIZ_BENCH_TRACE: what each edit fitted, took over and remembered.
            if (qEnvironmentVariableIsSet("ATTNVIZ_BENCH_TRACE")) {
                const auto& st = w.workspace()->stats();
                QTextStream(stderr)
                    << "run " << run << ": fitted " << st->computedHere() << ", shared "
                    << st->sharedBlocks() << " (remembered " << st->rememberedBlocksUsed()
                    << "), memory " << st->rememberedBytes() / 1024 << " KiB\n";
            }
            if (run >= 2) {  // two warm-up runs
                ms.push_back(t.nsecsElapsed() / 1e6);
                cpu.push_back(processCpuMs() - cpu0);
                analysis.push_back(analysed);
                first.push_back(firstMaps);
            }
        }
        std::sort(ms.begin(), ms.end());
        std::sort(analysis.begin(), analysis.end());
        std::sort(cpu.begin(), cpu.end());
        std::sort(first.begin(), first.end());
        // Fitted for the last edit; the heads of input-independent maps (hard-coded Gaussian,
        // random synthesizers) of the same length were fitted before and are shared.
        const int fitted = w.workspace()->stats()->computedHere();
        const int withStats = w.workspace()->stats()->computedCount();
        const int certified = w.workspace()->stats()->certifiedHere();
        if (docks && fitted == 0) {  // every run's sentence is new: dot-product heads refit  // the
                                     // docks were not seen: this case measured nothing
            QTextStream(stderr) << "attnviz-ui-bench: the open docks fitted no head at " << n
                                << " tokens\n";
            broken = true;
        }
        results.append(QJsonObject{{"tokens", n},
                                   {"repainted", allPanels ? "every panel" : "panels on screen"},
                                   {"docks", docks ? "Heads, Offset profiles" : "hidden"},
                                   {"length", lengthChanges ? "changes at each edit" : "kept"},
                                   {"target", withTarget ? "given" : "decoded greedily"},
                                   {"models", models},
                                   {"panels", w.grid()->columnCount() * w.grid()->rowCount()},
                                   {"ms_median", ms[ms.size() / 2]},
                                   // Edit to every column's encoder maps (or whole) on screen.
                                   {"ms_median_first_maps", first[first.size() / 2]},
                                   {"ms_median_until_results_set", analysis[analysis.size() / 2]},
                                   {"cpu_ms_median", cpu[cpu.size() / 2]},
                                   // Heads fitted for the last edit (each once, shared),
                                   // and those with statistics (fitted or taken over).
                                   {"heads_fitted", fitted},
                                   // Of those, polished from their fit on the sentence before
                                   // (a hard-coded window at another length), not searched.
                                   {"heads_certified_by_hint", certified},
                                   {"heads_with_statistics", withStats},
                                   {"ms_min", ms.front()},
                                   {"ms_max", ms.back()},
                                   {"runs", int(ms.size())}});
    };
    for (bool all : {true, false})
        for (int n : {12, 47})
            if (want(QString::number(n))) measure(n, int(columns.size()), false, all, false);
    if (want("47-docks")) measure(47, int(columns.size()), false, false, true);
    if (want("47-docks-len")) measure(47, int(columns.size()), false, false, true, false, true);
    if (want("47-len")) measure(47, int(columns.size()), false, false, false, false, true);
    if (want("110")) {  // the English → Spanish models accept 127 source tokens
        std::vector<std::string> setErrors;
        // The set lies beside the bundled models (--models names the top set's folder only):
        // a build run from elsewhere may find none.
        const auto* set = attnviz::findModelSet("en-es");
        const auto real =
            set ? attnviz::loadModelDirectory(attnviz::modelSetDirectory(*set), &setErrors)
                : std::vector<attnviz::ModelColumn>{};
        if (real.empty()) {
            QTextStream(stderr) << "attnviz-ui-bench: no English → Spanish models for case 110\n";
            return 2;
        }
        w.setColumns(real);
        for (bool all : {true, false}) measure(110, int(real.size()), false, all, false, true);
    }
    if (want("256") || want("256-docks")) w.setColumns(longModels());
    if (want("256"))
        for (bool all : {true, false}) measure(256, 4, true, all, false);
    if (want("256-docks")) measure(256, 4, true, false, true);
    if (want("image") || want("image-docks") || want("image-query")) {
        // Every bundled set of image models (core/workspace.h: their checkpoints say so):
        // Fashion-MNIST's 28 x 28 and the clothing photos' 64 x 64 colour ViTs.
        int sets = 0;
        for (const attnviz::ModelSet& s : attnviz::modelSets()) {
            if (!s.images || attnviz::modelSetSize(s) == 0) continue;
            if (!measureImages(w, &s, cli.value(repeat).toInt(), want, results)) return 2;
            ++sets;
        }
        if (sets == 0) {
            QTextStream(stderr) << "attnviz-ui-bench: no bundled set of image models in "
                                << QString::fromStdString(attnviz::bundledModelDirectory())
                                << " for the image cases (attnviz-cli sets lists the sets)\n";
            return 2;
        }
    }
    QTextStream(stdout) << QJsonDocument(
                               QJsonObject{
                                   {"benchmark", "text edit to every panel repainted"},
                                   {"platform", QGuiApplication::platformName()},
                                   {"window", QString("%1x%2").arg(w.width()).arg(w.height())},
                                   {"results", results}})
                               .toJson();
    return broken ? 1 : 0;
}
