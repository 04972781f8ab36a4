// SPDX-License-Identifier: GPL-3.0-or-later
// Screenshots of the real app for docs/screenshots (run under Xvfb by scripts/screenshots):
// the default workspace (the real English -> Spanish set); "to" clicked with its query
// profile; the toy set with words it does not know marked; a subword sentence with its pieces
// merged into words; training in progress.
//   attnviz-screenshots OUTDIR [WxH]
// With --layouts, every layout (compare, mean, focus) and the lines view for a 12-token and a
// 40-token sentence, at the window size given (default: the screen's available area), named
// LAYOUT-TOKENS.png, so that readability can be judged at 1366x768 and 1920x1080:
//   attnviz-screenshots --layouts OUTDIR [WxH]
// With --classroom, at the screen's size: the default workspace, dot vs HC-SA with the second
// "to" clicked (its profile beside the grid on a small screen), the same in presentation mode,
// and File › Export figure's 16:9 slide of those two columns at 12-pt labels with the caption,
// 1920 × 1080 pixels, and the HC-SA paper's four models on a slide the same way
// (default.png, dot-vs-hc-sa.png, present.png, slide.png, slide-4-models.png):
//   attnviz-screenshots --classroom OUTDIR
// With --language CODE (zh_CN, zh_TW), the interface switched live from English to that
// language, for checking translated texts for clipping: the workspace, the Heads dock, the
// Query profile, Variant, Offset profiles and Training docks, the export dialog and the View
// menu with its Language submenu:
//   attnviz-screenshots --language zh_CN OUTDIR [WxH]
// With --images, the image set (issue 28) at the window size given: a test image with the
// overlay of what the classifier reads, a clicked patch, the rollout, the ten probabilities,
// the Heads dock with the distance-by-layer chart, the shared colour scale, every head exported
// (File › Export figure, image-export.png) and a drawing of a shoe (dark on light) as a person's
// own image beside its 28 × 28 view:
//   attnviz-screenshots --images [--language zh_CN|zh_TW] OUTDIR [WxH]
// With --heads-set, the Heads dock over a sentence list (docs/figures/analysis/
// en-es-test-30.tsv) while it runs (its progress line: the sentence of how many, the time
// left) and when done with its messages unfolded (heads-set-running.png, heads-set-done.png):
//   attnviz-screenshots --heads-set [--language zh_CN|zh_TW] OUTDIR [WxH]
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPainterPath>
#include <QPointer>
#include <QProgressBar>
#include <QScreen>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTest>
#include <QTextStream>
#include <QToolButton>
#include <cstdio>
#include <string>

#include "ui/background.h"
#include "ui/comparison_grid.h"
#include "ui/export_dialog.h"
#include "ui/film_dock.h"
#include "ui/heads_dock.h"
#include "ui/image_chooser.h"
#include "ui/image_grid.h"
#include "ui/image_model.h"
#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/offset_profiles.h"
#include "ui/presentation.h"
#include "ui/training_dock.h"

using namespace attnviz::ui;

namespace {

void settle(MainWindow& w) {
    QSignalSpy spy(w.runner(), &AnalysisRunner::finished);
    while (w.runner()->busy()) spy.wait(10000);
    QTest::qWait(300);
}

bool shoot(QWidget& w, const QString& path) {
    const bool ok = w.grab().save(path);
    QTextStream(stdout) << (ok ? "wrote " : "FAILED ") << path << "\n";
    return ok;
}

void raiseDock(MainWindow& w, const char* name) {
    for (auto* d : w.findChildren<QDockWidget*>())
        if (d->objectName() == name) d->raise();
}

// The Heads dock (sorted by how Gaussian each head is, if asked) and the Offset profiles
// dock, each raised and shot once its numbers are in.
bool shootAnalysisDocks(MainWindow& w, const QString& out, bool sortByFit) {
    raiseDock(w, "heads");
    while (w.heads()->busy() || w.heads()->headCount() == 0) QTest::qWait(50);
    if (sortByFit) w.heads()->table()->sortByColumn(HeadsDock::R2, Qt::DescendingOrder);
    QTest::qWait(200);
    bool ok = shoot(w, out + "/heads.png");
    raiseDock(w, "offsets");
    while (w.offsetProfiles()->busy() || w.offsetProfiles()->charts().charts.empty())
        QTest::qWait(50);
    QTest::qWait(200);
    return shoot(w, out + "/offset-profiles.png") && ok;
}

// Every layout and the lines view, for a 12-token and a 40-token sentence (pieces of the
// en-es set's vocabulary).
int shootLayouts(MainWindow& w, const QString& out) {
    const std::pair<const char*, const char*> sentences[] = {
        {"12", "The children want to go to the house of their father."},
        {"40",
         "When the children came to the city in the morning, the teacher told them that the road "
         "to the sea was closed because of the great storm, so they walked back home together."}};
    bool ok = true;
    for (const auto& [tokens, sentence] : sentences) {
        w.setSentence(sentence);
        ViewState v = w.view();
        v.kind = attnviz::BlockKind::EncoderSelf;
        v.layer = 0;
        v.lines = false;
        v.meanHeads = false;
        v.allLayersOf = -1;
        w.setView(v);
        settle(w);
        ok = shoot(w, out + "/compare-" + tokens + ".png") && ok;
        v.meanHeads = true;
        w.setView(v);
        settle(w);
        ok = shoot(w, out + "/mean-" + tokens + ".png") && ok;
        v.meanHeads = false;
        v.allLayersOf = 0;  // the dot-product model's heads, every layer
        w.setView(v);
        settle(w);
        ok = shoot(w, out + "/focus-" + tokens + ".png") && ok;
        // Cross-attention of the last layer as lines, one mean panel per model.
        v.allLayersOf = -1;
        v.meanHeads = true;
        v.kind = attnviz::BlockKind::Cross;
        v.layer = 2;
        v.lines = true;
        w.setView(v);
        settle(w);
        ok = shoot(w, out + "/lines-" + tokens + ".png") && ok;
    }
    return ok ? 0 : 1;
}

// The interface switched live to `code`, then each view people read most.
int shootLanguage(MainWindow& w, const QString& out, const QString& code) {
    w.chooseModelSet("en-es", false);
    w.setSentence("I want to go to the station");
    w.show();
    settle(w);
    w.setLanguage(code);
    settle(w);
    // Docks tall enough to read their tables and charts.
    QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
    w.resizeDocks(docks, QList<int>(docks.size(), w.height() * 2 / 5), Qt::Vertical);
    bool ok = shoot(w, out + "/workspace.png");
    // "to" clicked in the HC-SA column: its query profile, then its Variant tab.
    w.selectQuery(8, 2);
    raiseDock(w, "profile");
    QTest::qWait(300);
    ok = shoot(w, out + "/query-profile.png") && ok;
    raiseDock(w, "variant");
    QTest::qWait(300);
    ok = shoot(w, out + "/variant.png") && ok;
    w.selectQuery(-1, -1);
    ok = shootAnalysisDocks(w, out, false) && ok;
    raiseDock(w, "training");
    QTest::qWait(200);
    ok = shoot(w, out + "/training.png") && ok;
    // The View menu (the second) opened, with its Language submenu: the screen around them.
    QAction* viewAction = w.menuBar()->actions().value(1);
    if (QMenu* view = viewAction ? viewAction->menu() : nullptr) {
        view->popup(w.mapToGlobal(w.menuBar()->actionGeometry(viewAction).bottomLeft()));
        QTest::qWait(300);
        QAction* languageAction = view->actions().last();  // View › Language is the last
        if (QMenu* language = languageAction->menu()) {
            view->setActiveAction(languageAction);
            language->popup(view->mapToGlobal(view->actionGeometry(languageAction).topRight()));
            QTest::qWait(300);
            const QRect both = view->geometry().united(language->geometry()).adjusted(-4, -4, 4, 4);
            const bool saved = QGuiApplication::primaryScreen()
                                   ->grabWindow(0, both.x(), both.y(), both.width(), both.height())
                                   .save(out + "/view-menu.png");
            QTextStream(stdout) << (saved ? "wrote " : "FAILED ") << out << "/view-menu.png\n";
            ok = saved && ok;
            language->hide();
        }
        view->hide();
    }
    std::unique_ptr<ExportDialog> d(w.createExportDialog());
    d->show();
    QTest::qWait(500);
    ok = shoot(*d, out + "/export-dialog.png") && ok;
    return ok ? 0 : 1;
}

// The classroom (issue 29), at the screen's size: the default workspace; the lecture's
// comparison (Columns › Compare › dot vs HC-SA) with "to" clicked; the same in presentation
// mode, "to" reached with the arrow keys' steps.
int shootClassroom(MainWindow& w, const QString& out) {
    w.chooseModelSet("en-es", false);
    w.setSentence("I want to go to the station");
    w.show();
    settle(w);
    bool ok = shoot(w, out + "/default.png");
    w.applyComparison("dot-hc-sa");
    settle(w);
    w.selectQuery(1, 4);  // the second "to"
    QTest::qWait(300);
    ok = shoot(w, out + "/dot-vs-hc-sa.png") && ok;
    {
        std::unique_ptr<ExportDialog> d(w.createExportDialog());
        d->setSizePreset("slide");
        d->setDpi(144);  // 1920 × 1080 pixels: the 960 × 540 pt slide
        d->setPixels(QSize(1920, 1080));
        d->setLabelPoints(12);
        d->setCaption(true);
        QString error;
        const bool wrote = d->exportTo(out + "/slide.png", &error);
        QTextStream(stdout) << (wrote ? "wrote " : "FAILED ") << out << "/slide.png " << error
                            << "\n";
        ok = wrote && ok;
    }
    // The HC-SA paper's four on the same slide (issue 29: about two-thirds blank before its
    // cells could grow taller than wide).
    w.applyComparison("hc-sa-paper");
    settle(w);
    w.selectQuery(0, 4);
    QTest::qWait(300);
    {
        std::unique_ptr<ExportDialog> d(w.createExportDialog());
        d->setSizePreset("slide");
        d->setDpi(144);  // as the slide of two: 1920 × 1080 pixels, the 960 × 540 pt slide
        d->setPixels(QSize(1920, 1080));
        d->setLabelPoints(12);
        d->setCaption(true);
        QString error;
        const bool wrote = d->exportTo(out + "/slide-4-models.png", &error);
        QTextStream(stdout) << (wrote ? "wrote " : "FAILED ") << out << "/slide-4-models.png "
                            << error << "\n";
        ok = wrote && ok;
    }
    w.applyComparison("dot-hc-sa");
    settle(w);
    w.selectQuery(-1, -1);
    w.presentation()->setActive(true);
    QTest::qWait(300);
    for (int i = 0; i < 3; ++i) w.presentation()->stepQuery(+1);
    settle(w);
    ok = shoot(w, out + "/present.png") && ok;
    w.presentation()->setActive(false);
    return ok ? 0 : 1;
}

// A shoe drawn dark on a light, slightly uneven background: a person's own image.
QString drawShoe(const QString& dir) {
    QImage img(640, 420, QImage::Format_RGB32);
    img.fill(QColor(236, 232, 226));
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    QPainterPath shoe;
    shoe.moveTo(60, 330);
    shoe.lineTo(70, 150);
    shoe.cubicTo(120, 140, 200, 150, 240, 210);
    shoe.cubicTo(330, 250, 480, 250, 570, 290);
    shoe.cubicTo(600, 305, 600, 345, 570, 350);
    shoe.lineTo(60, 350);
    shoe.closeSubpath();
    p.fillPath(shoe, QColor(40, 38, 45));
    p.fillRect(QRectF(60, 340, 515, 18), QColor(90, 85, 80));
    p.end();
    const QString path = dir + "/shoe-drawing.png";
    img.save(path);
    return path;
}

void settleImages(MainWindow& w) {
    while (w.imageView()->model()->busy()) QTest::qWait(20);
    QTest::qWait(300);
}

int shootImages(MainWindow& w, const QString& out) {
    w.chooseModelSet("vision", false);
    w.show();
    w.imageView()->chooser()->waitForTestImages();
    w.imageView()->chooser()->chooseTestImage(0);
    settleImages(w);
    bool ok = shoot(w, out + "/image-pooled.png");
    w.imageView()->model()->setQuery(attnviz::ImageQuery::patch(3, 3));
    QTest::qWait(300);
    ok = shoot(w, out + "/image-patch.png") && ok;
    raiseDock(w, "heads");  // each head's mean attention distance in pixels, and its chart
    QTest::qWait(300);
    ok = shoot(w, out + "/image-heads.png") && ok;
    if (w.heads()->computeOverTestImages()) {  // the distances over 1,000 test images
        while (!w.heads()->showsSet() && w.heads()->setBusy()) QTest::qWait(200);
        QTest::qWait(300);
        ok = shoot(w, out + "/image-heads-test-images.png") && ok;
    }
    w.imageView()->sharedBox()->setChecked(true);  // one colour scale, its bar beside the grid
    QTest::qWait(300);
    ok = shoot(w, out + "/image-shared.png") && ok;
    w.imageView()->sharedBox()->setChecked(false);
    w.imageView()->headsBox()->setCurrentIndex(2);
    emit w.imageView()->headsBox()->activated(2);
    w.imageView()->model()->setQuery(attnviz::ImageQuery{});
    QTest::qWait(300);
    ok = shoot(w, out + "/image-rollout.png") && ok;
    if (QWidget* table = w.imageView()->grid()->showProbabilities(0)) {  // a popup: its own grab
        QTest::qWait(300);
        ok = shoot(*table->window(), out + "/image-probabilities.png") && ok;
        // The whole screen with the list open, then after Esc (issue 47: it once could not be
        // closed): what a person sees.
        auto screen = [&](const QString& name) {
            const bool saved = QGuiApplication::primaryScreen()->grabWindow(0).save(out + name);
            QTextStream(stdout) << (saved ? "wrote " : "FAILED ") << out + name << "\n";
            return saved;
        };
        ok = screen("/image-probabilities-open.png") && ok;
        QPointer<QWidget> popup = table->window();
        QTest::keyClick(popup->windowHandle(), Qt::Key_Escape);
        QTest::qWait(300);
        ok = screen("/image-probabilities-closed.png") && ok;
        if (popup) popup->close();
    }
    w.imageView()->headsBox()->setCurrentIndex(0);
    emit w.imageView()->headsBox()->activated(0);
    QString error;  // File › Export figure of the panels shown: render's image figure
    ok = w.exportFigure(out + "/image-export.png", &error) && ok;
    w.imageView()->chooser()->openImageFile(drawShoe(out));
    settleImages(w);
    ok = shoot(w, out + "/image-own.png") && ok;
    // A real photograph, colour, light on dark at its border: Eileen Collins by NASA (public
    // domain; scikit-image's "astronaut", 320 px), not an item of clothing — what a model
    // trained on Fashion-MNIST makes of a photo it was never meant for.
    if (!w.imageView()->chooser()->openImageFile(out + "/photo-astronaut.jpg")) return 1;
    settleImages(w);
    ok = shoot(w, out + "/image-photo.png") && ok;
    // A person's photo of a garment (issue 49): a coat on a dark blanket, cut out by default,
    // the steps beside the strip (tests/data/photos/coat-01.jpg, CC0, copied by the script).
    if (!w.imageView()->chooser()->openImageFile(out + "/photo-coat.jpg")) return 1;
    settleImages(w);
    ok = shoot(w, out + "/image-garment.png") && ok;
    // The set trained on real photos (issue 49): its own test photos in colour, the Heads dock,
    // and a person's photo read as it is (no cut-out: the models were trained on whole photos):
    // a coat of the dataset's test split (tests/data/photos/coat-05.jpg), which these models
    // never trained on; coat-01 above is in their training split.
    w.chooseModelSet("photos", false);
    w.imageView()->chooser()->waitForTestImages();
    w.imageView()->chooser()->chooseTestImage(0);
    settleImages(w);
    ok = shoot(w, out + "/image-photos-set.png") && ok;
    if (w.heads()->computeOverTestImages()) {  // the distance chart over its 406 test photos
        while (!w.heads()->showsSet() && w.heads()->setBusy()) QTest::qWait(200);
        QTest::qWait(300);
        ok = shoot(w, out + "/image-photos-heads-test-images.png") && ok;
    }
    if (!w.imageView()->chooser()->openImageFile(out + "/photo-coat-unseen.jpg")) return 1;
    settleImages(w);
    return shoot(w, out + "/image-photos-coat.png") && ok ? 0 : 1;
}

}  // namespace

// The Heads dock over the sentence list: running, then done with its messages unfolded.
int shootHeadsSet(MainWindow& w, const QString& out, QSize size) {
    w.chooseModelSet("en-es", false);
    w.setSentence("I want to go to the station");
    w.show();
    settle(w);
    if (!w.openSentenceFile("docs/figures/analysis/en-es-test-30.tsv")) return 1;
    raiseDock(w, "heads");
    for (auto* d : w.findChildren<QDockWidget*>())  // tall enough for its table on a laptop
        if (d->objectName() == "heads") w.resizeDocks({d}, {size.height() / 3}, Qt::Vertical);
    QTest::qWait(300);
    QString why;
    if (!w.heads()->computeOverSet(&why)) {
        QTextStream(stderr) << "attnviz-screenshots: " << why << "\n";
        return 1;
    }
    QTest::qWait(2500);  // a rate to estimate the time left from
    bool ok = shoot(w, out + "/heads-set-running.png");
    while (w.heads()->setBusy()) QTest::qWait(100);
    QTest::qWait(300);
    if (w.heads()->notesToggle()->isVisible()) w.heads()->notesToggle()->setChecked(true);
    QTest::qWait(200);
    ok = shoot(w, out + "/heads-set-done.png") && ok;
    return ok ? 0 : 1;
}

int main(int argc, char** argv) {
    // Before QApplication, which needs a display: --help, and an unknown option, which would
    // otherwise be taken for the output folder.
    const char* usage =
        "usage: attnviz-screenshots [--layouts | --classroom | --images | --heads-set | --language "
        "zh_CN|zh_TW] "
        "[OUTDIR] "
        "[WxH]\n"
        "Screenshots of the app (default OUTDIR docs/screenshots); run under a display,\n"
        "e.g. xvfb-run. See scripts/screenshots.\n";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(usage, stdout);
            return 0;
        }
        if (a.rfind("--", 0) == 0 && a != "--layouts" && a != "--classroom" && a != "--language" &&
            a != "--images" && a != "--heads-set") {  // Qt: -platform
            std::fprintf(stderr, "attnviz-screenshots: unknown option '%s'\n%s", a.c_str(), usage);
            return 2;
        }
        if (a == "--language") ++i;  // its value
    }
    QApplication app(argc, argv);
    const attnviz::ui::BackgroundJobsFinish backgroundJobsFinish;  // before the app goes
    QApplication::setApplicationName("attnviz-screenshots");
    QStringList args = QApplication::arguments().mid(1);
    const bool classroom = args.removeAll("--classroom") > 0;
    const bool images = args.removeAll("--images") > 0;
    const bool headsSet = args.removeAll("--heads-set") > 0;
    const bool layouts = args.removeAll("--layouts") > 0 || classroom;
    QString language;
    if (const int i = int(args.indexOf("--language")); i >= 0 && i + 1 < args.size()) {
        language = args[i + 1];
        args.remove(i, 2);
    }
    const QString out = !args.isEmpty() ? args[0] : "docs/screenshots";
    // Optional window size: attnviz-screenshots OUTDIR 1366x768
    QSize size =
        layouts ? QApplication::primaryScreen()->availableGeometry().size() : QSize(1680, 1050);
    if (args.size() > 1) {
        const QStringList wh = args[1].split('x');
        if (wh.size() == 2) size = QSize(wh[0].toInt(), wh[1].toInt());
    }
    QDir().mkpath(out);
    MainWindow w;
    w.resize(size);
    if (images) {  // in English, or in the language given
        if (!language.isEmpty()) w.setLanguage(language);
        return shootImages(w, out);
    }
    if (headsSet) {  // in English, or in the language given
        if (!language.isEmpty()) w.setLanguage(language);
        return shootHeadsSet(w, out, size);
    }
    if (!language.isEmpty()) return shootLanguage(w, out, language);
    if (classroom) return shootClassroom(w, out);
    if (layouts) {
        w.chooseModelSet("en-es", false);
        w.show();
        return shootLayouts(w, out);
    }
    w.chooseModelSet("en-es", false);
    w.setSentence("I want to go to the station");
    w.show();
    settle(w);
    bool ok = shoot(w, out + "/workspace.png");

    // "to" (query 2) clicked in the HC-SA column: outlined everywhere, profile per model.
    w.selectQuery(8, 2);
    QTest::qWait(300);
    ok = shoot(w, out + "/query-profile.png") && ok;
    w.selectQuery(-1, -1);

    // Cross-attention of a sentence with rare words, pieces merged into words.
    w.setSentence("The astronauts repaired the satellite yesterday");
    ViewState v = w.view();
    v.kind = attnviz::BlockKind::Cross;
    v.layer = 2;
    v.mergeWords = true;
    w.setView(v);
    settle(w);
    ok = shoot(w, out + "/word-merged.png") && ok;

    // Cross-attention as lines between the tokens; then query 3 selected, so only its lines
    // are drawn in every panel.
    v.lines = true;
    v.mergeWords = false;
    w.setView(v);
    w.setSentence("I want to go to the station");
    settle(w);
    ok = shoot(w, out + "/lines.png") && ok;
    v.query = 3;
    w.setView(v);
    QTest::qWait(300);
    ok = shoot(w, out + "/lines-query.png") && ok;
    v.query = -1;
    v.lines = false;

    // The toy set on a sentence it half knows: unknown words marked and counted; each panel
    // with its own colour scale.
    w.chooseModelSet("toy", false);
    v.kind = attnviz::BlockKind::EncoderSelf;
    v.layer = 0;
    v.mergeWords = false;
    v.shared = false;
    w.setView(v);
    w.setSentence("The quick brown fox jumps over the lazy dog");
    settle(w);
    ok = shoot(w, out + "/toy-unknown-words.png") && ok;
    w.chooseModelSet("en-es", false);
    v.shared = true;
    w.setView(v);
    w.setSentence("I want to go to the station");
    settle(w);

    // Issue 15's views: every head's statistics in the Heads dock (sorted by how Gaussian
    // each head is), then each model minus the first column (dot), rollout through the
    // encoder's layers, and each head minus its best-fitting Gaussian.
    ok = shootAnalysisDocks(w, out, true) && ok;
    for (auto [kind, name] : {std::pair{attnviz::TableKind::Difference, "difference"},
                              std::pair{attnviz::TableKind::Rollout, "rollout"},
                              std::pair{attnviz::TableKind::FitResidual, "fit-residual"}}) {
        v.show = kind;
        w.setView(v);
        settle(w);
        ok = shoot(w, out + "/" + name + ".png") && ok;
    }
    v.show = attnviz::TableKind::Weights;
    w.setView(v);
    settle(w);

    // Training in progress: the dock raised, a run started, captured half way.
    for (auto* d : w.findChildren<QDockWidget*>())
        if (d->objectName() == "training") d->raise();
    attnviz::JobSpec spec;
    spec.configJson = TrainingDock::configFor("dot", "small", false);
    spec.task = "translate";
    spec.train.steps = 600;
    spec.train.lr = 3e-3;
    spec.train.warmup = 60;
    spec.heldOutCount = 50;
    // Attention over training: the probe recorded every 50 steps, played in its dock.
    spec.probeEvery = 50;
    spec.probeSource = "the small cat sees the big dog";
    spec.name = "dot · translate";
    QString error;
    if (!w.training()->start(spec, "dot · translate", &error)) {
        QTextStream(stdout) << "FAILED " << error << "\n";
        return 1;
    }
    while (w.training()->progressBar()->value() < 300) QTest::qWait(50);
    ok = shoot(w, out + "/training.png") && ok;
    QSignalSpy done(w.training(), &TrainingDock::runFinished);
    done.wait(120000);
    // The run's cross-attention in the Over-training dock, scrubbed back to step 250.
    for (auto* d : w.findChildren<QDockWidget*>())
        if (d->objectName() == "film") d->raise();
    v = w.view();
    v.kind = attnviz::BlockKind::Cross;
    v.layer = 1;
    w.setView(v);
    w.film()->slider()->setValue(5);
    QTest::qWait(300);
    ok = shoot(w, out + "/over-training.png") && ok;
    return ok ? 0 : 1;
}
