// SPDX-License-Identifier: GPL-3.0-or-later
// The real widgets under the offscreen platform, driven as a person would: typing, clicking
// a query token, hovering, a sentence list with the arrow keys, a too-long sentence, a
// corrupt checkpoint, a short training run, live Gaussian settings, column moves, synced
// zoom, and a saved workspace that reopens identically.
#include "ui/main_window.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/model.h"
#include "render/figure_file.h"
#include "tests/ui/wait.h"
#include "ui/background.h"
#include "ui/color_bar.h"
#include "ui/comparison_grid.h"
#include "ui/export_dialog.h"
#include "ui/heads_dock.h"
#include "ui/lines_panel.h"
#include "ui/model_picker.h"
#include "ui/offset_profiles.h"
#include "ui/profile_plot.h"
#include "ui/sentence_list.h"
#include "ui/training_dock.h"
#include "ui/variant_panel.h"
#include "ui/view_controls.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

const QString kModels = ATTNVIZ_MODELS_DIR;

ModelColumn column(const std::string& configName, const QString& name) {
    const ModelConfig cfg =
        ModelConfig::fromFile(std::string(ATTNVIZ_TEST_DATA) + "/configs/" + configName + ".json");
    Vocab v = Vocab::fromWords(builtinEnglishWords());
    ModelColumn c;
    c.name = name.toStdString();
    c.model = std::make_shared<Model>(Model::initialize(cfg, v, v, Tokenizer(true), 1));
    return c;
}

ModelColumn bundled(const QString& file) {
    return loadModelColumn((kModels + "/" + file).toStdString());
}

// Waits until the runner has delivered results for the newest request.
void waitForResults(MainWindow& w) {
    QSignalSpy spy(w.runner(), &AnalysisRunner::finished);
    ASSERT_TRUE(spy.wait(20000));
    while (w.runner()->busy()) ASSERT_TRUE(spy.wait(20000));
}

// Clicks the label of query row `row` on panel p (left of the map).
void clickQueryLabel(HeatmapPanel* p, int row) {
    QTest::qWait(50);  // new panels are shown and laid out by queued events
    p->redrawNow();
    QCustomPlot* plot = p->plot();
    const QPoint at(plot->axisRect()->left() - 12, int(plot->yAxis->coordToPixel(row)));
    ASSERT_GE(p->rowAt(at), 0) << "panel not laid out: " << p->width() << "x" << p->height();
    QTest::mouseClick(plot, Qt::LeftButton, {}, at);
}

}  // namespace

TEST(MainWindow, TypingUpdatesEveryPanelOffTheUiThread) {
    MainWindow w;
    w.setColumns({column("dot", "dot"), column("gaussian", "gauss"), column("dense", "dense")});
    w.show();
    waitForResults(w);
    QTest::keyClicks(w.sourceEdit(), "I want to go to the station");
    waitForResults(w);
    ASSERT_EQ(w.grid()->columnCount(), 3);
    for (int c = 0; c < 3; ++c)
        for (int h = 0; h < 4; ++h) {
            ASSERT_NE(w.grid()->panel(c, h), nullptr);
            EXPECT_EQ(w.grid()->panel(c, h)->matrix().rows(), 8)
                << c << "," << h;  // 7 words + <eos>
        }
    // Gaussian encoder head 0 (offset -1): the query "go" looks at "to".
    const Mat& g = w.grid()->panel(1, 0)->matrix();
    Eigen::Index j;
    g.row(3).maxCoeff(&j);
    EXPECT_EQ(j, 2);
}

TEST(MainWindow, TooltipNamesModelBlockLayerHeadTokensAndWeight) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.setSentence("I want to go to the station");
    waitForResults(w);
    HeatmapPanel* p = w.grid()->panel(1, 0);
    const QString text = p->cellText(3, 2);
    EXPECT_TRUE(text.startsWith("hc-sa · enc self L1 · head 1")) << text.toStdString();
    // Numbered from 1 for people: layer and head as the tokens; "go" is the 4th token, the
    // first "to" the 3rd.
    EXPECT_NE(text.indexOf("query 4 \"go\" → key 3 \"to\""), -1) << text.toStdString();
    EXPECT_NE(text.indexOf(QString("weight %1").arg(double(p->matrix()(3, 2)), 0, 'f', 4)), -1);
    EXPECT_NE(text.indexOf("0.39"), -1);            // N(0; 0, 1) = 0.3989: "go" centred on "to"
    EXPECT_EQ(p->title(), "enc self L1 · head 1");  // the model is named in its header
}

// Heads and layers are numbered from 1 wherever a person reads them, as the tokens are: the
// panel titles, the view bar's Layer box (typing 2 shows the second layer, index 1), the
// query profile's title and its lines; the view and the data keep the 0-based index.
TEST(MainWindow, HeadsAndLayersAreNumberedFromOneForPeople) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.setSentence("I want to go to the station");
    w.show();
    waitForResults(w);
    QSpinBox* layer = nullptr;  // the view bar's spin box without a unit
    for (QSpinBox* box : w.findChild<ViewControls*>()->findChildren<QSpinBox*>())
        if (box->suffix().isEmpty()) layer = box;
    ASSERT_NE(layer, nullptr);
    EXPECT_EQ(w.view().layer, 0);
    EXPECT_EQ(layer->text(), "1");
    EXPECT_EQ(layer->minimum(), 0);  // the index
    layer->selectAll();
    QTest::keyClicks(layer, "2");
    QTest::keyClick(layer, Qt::Key_Enter);
    EXPECT_EQ(w.view().layer, 1);
    EXPECT_EQ(layer->text(), "2");
    QTest::qWait(50);  // the results hold every layer: nothing to analyse again
    EXPECT_EQ(w.grid()->panel(1, 3)->title(), "enc self L2 · head 4");
    const Selection s = w.workspace()->selection();
    EXPECT_EQ(s.columns.at(1).tables.at(3).head, "3");  // the data's index
    EXPECT_EQ(s.columns.at(1).tables.at(3).layer, 1);
    w.selectQuery(1, 3);
    const Profile f = w.workspace()->profile(1);
    EXPECT_NE(f.title.find("enc self L2"), std::string::npos) << f.title;
    ASSERT_FALSE(f.lines.empty());
    EXPECT_EQ(f.lines.front().first, "head 1");
}

TEST(MainWindow, ClickingATokenHighlightsItsRowEverywhereAndPlotsItsProfile) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("03-random.safetensors"),
                  bundled("09-hc-sa.safetensors")});
    w.resize(1400, 900);
    w.show();
    w.setSentence("I want to go to the station");
    waitForResults(w);
    clickQueryLabel(w.grid()->panel(2, 1), 3);  // "go" in the HC-SA column, head 1
    for (int c = 0; c < 3; ++c)
        for (int h = 0; h < w.grid()->rowCount(); ++h)
            EXPECT_EQ(w.grid()->panel(c, h)->query(), 3) << c << "," << h;
    EXPECT_EQ(w.view().query, 3);
    EXPECT_EQ(w.profile()->lineCount(), 3);  // one line per model
    // Numbered from 1 for people: "go" is the 4th token.
    EXPECT_NE(w.profile()->caption().indexOf("Query 4 \"go\" ·"), -1)
        << w.profile()->caption().toStdString();
    // The HC-SA line: its two heads centred on i-1 and i+1, so "go" peaks at "to" and "to".
    const auto* hc = w.profile()->graph(2)->data().data();
    EXPECT_NEAR(hc->at(2)->value, hc->at(4)->value, 1e-6);
    // Keyboard: the next query, and the profile follows; the next column becomes current.
    QTest::keyClick(&w, Qt::Key_Down, Qt::AltModifier);
    EXPECT_EQ(w.grid()->panel(0, 0)->query(), 4);
    // The second "to" of the sentence: said which, numbered from 1 as everywhere in the app.
    EXPECT_NE(w.profile()->caption().indexOf("Query 5 \"to\" (2nd) ·"), -1)
        << w.profile()->caption().toStdString();
    EXPECT_NE(w.grid()->panel(0, 0)->cellText(4, 2).indexOf("query 5 \"to\" → key 3 \"to\""), -1)
        << w.grid()->panel(0, 0)->cellText(4, 2).toStdString();
    // And what a click does, which nothing else on screen says.
    EXPECT_TRUE(w.grid()->panel(0, 0)->cellText(4, 2).endsWith(HeatmapPanel::clickHint()));
    QTest::keyClick(&w, Qt::Key_Right, Qt::ControlModifier | Qt::AltModifier);  // hc-sa (2) to dot
    EXPECT_TRUE(w.variantPanel()->text().startsWith("<b>dot</b>"))
        << w.variantPanel()->text().toStdString();
    // A new sentence keeps the selection and refills the profile.
    QTest::keyClicks(w.sourceEdit(), " today");
    waitForResults(w);
    EXPECT_EQ(w.grid()->panel(1, 3)->query(), 4);
    EXPECT_EQ(w.profile()->lineCount(), 3);
}

TEST(MainWindow, SentenceFileLoadsAndArrowKeysStepThroughIt) {
    const std::string path = ::testing::TempDir() + "sentences.tsv";
    std::ofstream(path)
        << "I want to go to the station\nthe cat sees a dog\tde kato vida un hundo\n"
           "\nshe reads a book\n";
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors")});
    w.show();
    QString error;
    ASSERT_TRUE(w.sentences()->loadFile(QString::fromStdString(path), &error))
        << error.toStdString();
    ASSERT_EQ(w.sentences()->list()->count(), 3);  // the blank line is skipped
    w.sentences()->list()->setFocus();
    w.sentences()->setCurrentIndex(0);
    EXPECT_EQ(w.sourceEdit()->text(), "I want to go to the station");
    QTest::keyClick(w.sentences()->list(), Qt::Key_Down);
    EXPECT_EQ(w.sourceEdit()->text(), "the cat sees a dog");
    EXPECT_EQ(w.targetEdit()->text(), "de kato vida un hundo");
    QTest::keyClick(w.sentences()->list(), Qt::Key_Down);
    EXPECT_EQ(w.sourceEdit()->text(), "she reads a book");
    EXPECT_TRUE(w.targetEdit()->text().isEmpty());
    waitForResults(w);
    EXPECT_EQ(w.grid()->panel(0, 0)->matrix().rows(), 5);  // she reads a book <eos>
    // Not text: a clear error, the list unchanged.
    EXPECT_FALSE(w.sentences()->loadFile("/nonexistent/list.txt", &error));
    EXPECT_NE(error.indexOf("/nonexistent/list.txt"), -1);
    EXPECT_EQ(w.sentences()->list()->count(), 3);
}

TEST(MainWindow, TooLongSentenceShowsAMessageAndOthersKeepWorking) {
    MainWindow w;
    w.setColumns({column("dot", "dot"), column("dense", "dense")});  // dense: max_len 24
    QString text;
    for (int i = 0; i < 30; ++i) text += "word ";
    w.setSentence(text);
    waitForResults(w);
    EXPECT_EQ(w.grid()->panel(0, 0)->matrix().rows(), 31);
    EXPECT_EQ(w.grid()->panel(1, 0)->matrix().rows(), 0);
    EXPECT_NE(w.statusBar()->currentMessage().indexOf("accepts at most 23"), -1)
        << w.statusBar()->currentMessage().toStdString();
    // Every failing model is listed where it can be read at leisure: a lasting status-bar
    // note whose tooltip names each model and its reason.
    EXPECT_FALSE(w.failuresLabel()->isHidden());
    EXPECT_NE(w.failuresLabel()->text().indexOf("1 of 2 models could not run"), -1);
    EXPECT_NE(w.failuresLabel()->toolTip().indexOf("dense: "), -1);
    EXPECT_NE(w.failuresLabel()->toolTip().indexOf("accepts at most 23"), -1);
    // The panel shows the whole reason, wrapped to its width, without stale token labels.
    HeatmapPanel* failed = w.grid()->panel(1, 0);
    EXPECT_NE(failed->message().indexOf("accepts at most 23"), -1);
    EXPECT_EQ(QString(failed->shownMessage()).replace('\n', ' '), failed->message());
}

TEST(MainWindow, CorruptCheckpointIsAClearErrorAndNothingElseChanges) {
    const std::string path = ::testing::TempDir() + "corrupt.safetensors";
    std::ofstream(path, std::ios::binary) << "\x10\0\0\0\0\0\0\0{\"a\": 1}";
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors")});
    w.setSentence("I want to go");
    waitForResults(w);
    EXPECT_FALSE(w.openCheckpointFile(QString::fromStdString(path)));
    EXPECT_NE(w.statusBar()->currentMessage().indexOf(QString::fromStdString(path)), -1)
        << w.statusBar()->currentMessage().toStdString();
    EXPECT_EQ(w.columns().size(), 1u);
    EXPECT_EQ(w.grid()->panel(0, 0)->matrix().rows(), 5);  // i want to go <eos>
    std::vector<std::string> errors;
    loadModelDirectory(::testing::TempDir(), &errors);  // skips it, says why
    std::string all;
    for (const auto& e : errors) all += e + "\n";
    EXPECT_NE(all.find("corrupt.safetensors"), std::string::npos);
}

TEST(MainWindow, AShortTrainingRunAddsAColumnAndALossCurve) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors")});
    w.setSentence("a b c d");
    waitForResults(w);
    JobSpec spec;
    spec.configJson = TrainingDock::configFor("dot", "tiny", false);
    spec.task = "copy";
    spec.train.steps = 40;
    spec.heldOutCount = 20;
    QSignalSpy done(w.training(), &TrainingDock::runFinished);
    QString error;
    ASSERT_TRUE(w.training()->start(spec, "dot · copy", &error)) << error.toStdString();
    EXPECT_TRUE(w.training()->running());
    ASSERT_TRUE(done.wait(60000));
    EXPECT_FALSE(w.training()->running());
    ASSERT_EQ(w.columns().size(), 2u);
    EXPECT_EQ(w.columns()[1].name, "dot · copy");
    ASSERT_EQ(w.training()->lossPlot()->graphCount(), 1);
    EXPECT_GE(w.training()->lossPlot()->graph(0)->dataCount(), 8);  // a point every 5 steps
    EXPECT_EQ(w.training()->progressBar()->value(), 40);
    waitForResults(w);
    EXPECT_EQ(w.grid()->columnCount(), 2);
    EXPECT_EQ(w.grid()->panel(1, 0)->matrix().rows(), 5);  // the new model analyses the sentence
    // The loss curves export as vector graphics.
    std::unique_ptr<ExportDialog> d(w.createExportDialog());
    d->setWhat(ExportDialog::Loss);
    const QString svg = QString::fromStdString(::testing::TempDir()) + "loss.svg";
    ASSERT_TRUE(d->exportTo(svg, &error)) << error.toStdString();
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    EXPECT_NE(text.indexOf("training loss"), -1);  // the axis label, as text
    EXPECT_NE(text.indexOf("dot · copy"), -1);     // the legend
    EXPECT_EQ(text.indexOf("<image"), -1);
    // A bad set-up is a message, not a crash.
    spec.task = "parse";
    EXPECT_FALSE(w.training()->start(spec, "x", &error));
    EXPECT_NE(error.indexOf("unknown task"), -1);
}

TEST(MainWindow, GaussianSettingsChangeThePanelsAtOnce) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.resize(1400, 900);
    w.show();
    w.setSentence("I want to go to the station");
    waitForResults(w);
    clickQueryLabel(w.grid()->panel(1, 0), 3);
    auto* sigma = qobject_cast<QDoubleSpinBox*>(w.variantPanel()->editor("sigma"));
    auto* offsets = qobject_cast<QLineEdit*>(w.variantPanel()->editor("offsets"));
    ASSERT_TRUE(sigma && offsets);  // the editors of the Gaussian's option table
    ASSERT_TRUE(sigma->isVisible());
    EXPECT_NEAR(w.grid()->panel(1, 0)->matrix()(3, 2), 0.3989, 1e-4);
    sigma->setValue(2.0);
    waitForResults(w);
    EXPECT_NEAR(w.grid()->panel(1, 0)->matrix()(3, 2), 0.1995, 1e-4);  // 1 / (2 sqrt(2 pi))
    offsets->setText("0, 2");
    emit offsets->editingFinished();
    waitForResults(w);
    Eigen::Index j;
    w.grid()->panel(1, 1)->matrix().row(3).maxCoeff(&j);
    EXPECT_EQ(j, 5);  // head 1 now centred on i + 2
    EXPECT_NE(w.variantPanel()->text().indexOf("parameters"), -1);
    // Edited settings are marked on screen and in figures, and kept by the workspace
    // (issue 13): reopened, the column has them and is still marked.
    EXPECT_NE(w.grid()->header(1)->text().indexOf("hc-sa (modified)"), -1)
        << w.grid()->header(1)->text().toStdString();
    EXPECT_EQ(w.grid()->header(0)->text().indexOf("modified"), -1);
    EXPECT_NE(w.grid()->panel(1, 0)->cellText(0, 0).indexOf("hc-sa (modified)"), -1);
    const std::string path = ::testing::TempDir() + "edited.attnviz.json";
    QString error;
    ASSERT_TRUE(w.saveSession(QString::fromStdString(path), &error)) << error.toStdString();
    MainWindow w2;
    ASSERT_TRUE(w2.openSession(QString::fromStdString(path), &error)) << error.toStdString();
    waitForResults(w2);
    const auto& b = w2.columns()[1].model->config().block(BlockKind::EncoderSelf);
    EXPECT_EQ(b.options["sigma"], 2.0);
    EXPECT_TRUE(isModified(w2.columns()[1]));
    EXPECT_FALSE(isModified(w2.columns()[0]));
    EXPECT_NEAR(w2.grid()->panel(1, 0)->matrix()(3, 2), w.grid()->panel(1, 0)->matrix()(3, 2),
                1e-7);
}

TEST(MainWindow, ColumnsMoveAndGoAndZoomIsShared) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("02-dense.safetensors"),
                  bundled("09-hc-sa.safetensors")});
    w.setSentence("I want to go");
    waitForResults(w);
    w.moveColumn(2, -2);
    waitForResults(w);
    EXPECT_EQ(w.columns()[0].name, "hc-sa");
    w.removeColumn(1);
    waitForResults(w);
    ASSERT_EQ(w.grid()->columnCount(), 2);
    EXPECT_EQ(w.columns()[1].name, "dense");
    HeatmapPanel* a = w.grid()->panel(0, 0);
    a->plot()->xAxis->setRange(0.5, 2.5);  // as a wheel zoom does
    EXPECT_DOUBLE_EQ(w.grid()->panel(1, 3)->plot()->xAxis->range().lower, 0.5);
    EXPECT_DOUBLE_EQ(w.grid()->panel(1, 3)->plot()->xAxis->range().upper, 2.5);
}

// The wheel (issues 27, 29): a plain wheel over a panel scrolls the grid and leaves the map
// as it is; Shift+wheel zooms the map, never past it; a spin box in a dock takes the wheel
// only when focused (scrolling past σ does not change the model). The window's shortcuts
// work while the Source field has the focus (Ctrl+Shift+Right moves the clicked column).
TEST(MainWindow, WheelScrollsShiftWheelZoomsAndShortcutsWinOverTheField) {
    MainWindow w;
    w.resize(1000, 700);
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.show();
    w.setSentence("I want to go to the station");
    waitForResults(w);
    HeatmapPanel* p = w.grid()->panel(1, 0);
    auto wheel = [](QWidget* target, Qt::KeyboardModifiers mods, int dy) {
        const QPointF at(target->width() / 2.0, target->height() / 2.0);
        QWheelEvent e(at, target->mapToGlobal(at), QPoint(), QPoint(0, dy), Qt::NoButton, mods,
                      Qt::NoScrollPhase, false);
        QApplication::sendEvent(target, &e);
    };
    const QCPRange before = p->plot()->xAxis->range();
    wheel(p->plot(), Qt::NoModifier, 240);
    EXPECT_EQ(p->plot()->xAxis->range(), before);  // not zoomed
    // Ignored, it goes on to the panel, the grid and the scroll area, which scrolls: Qt passes
    // a wheel on to the parents only for a real one (not this test's), unless the widget
    // stops it, as QCustomPlot did for every mouse event (a newcomer's wheel over a map did
    // nothing; checked by hand under Xvfb with xdotool).
    EXPECT_FALSE(p->plot()->testAttribute(Qt::WA_NoMousePropagation));
    auto* area = qobject_cast<QScrollArea*>(w.grid()->parentWidget()->parentWidget());
    ASSERT_TRUE(area);
    ASSERT_GT(area->verticalScrollBar()->maximum(), 0);  // four heads: more than the view
    const int top = area->verticalScrollBar()->value();
    wheel(area->viewport(), Qt::NoModifier, -240);  // where the plot's wheel ends
    EXPECT_GT(area->verticalScrollBar()->value(), top);
    wheel(p->plot(), Qt::ShiftModifier, 240);  // in
    EXPECT_LT(p->plot()->xAxis->range().size(), before.size() * 0.9);
    EXPECT_NEAR(w.grid()->panel(0, 2)->plot()->xAxis->range().size(),
                p->plot()->xAxis->range().size(), 1e-9);                     // every panel at once
    for (int i = 0; i < 10; ++i) wheel(p->plot(), Qt::ShiftModifier, -240);  // far out
    EXPECT_NEAR(p->plot()->xAxis->range().lower, before.lower, 1e-9);        // clamped to the map
    EXPECT_NEAR(p->plot()->xAxis->range().upper, before.upper, 1e-9);
    p->plot()->xAxis->setRange(-20, -10);  // a drag far to the left
    EXPECT_NEAR(p->plot()->xAxis->range().lower, -0.5, 1e-9);
    // σ in the Variant tab: an unfocused spin box ignores the wheel.
    clickQueryLabel(p, 3);
    auto* sigma = qobject_cast<QDoubleSpinBox*>(w.variantPanel()->editor("sigma"));
    ASSERT_TRUE(sigma);
    const double sigma0 = sigma->value();
    w.sourceEdit()->setFocus();
    wheel(sigma, Qt::NoModifier, 120);
    EXPECT_EQ(sigma->value(), sigma0);
    sigma->setFocus();
    wheel(sigma, Qt::NoModifier, 120);
    EXPECT_NE(sigma->value(), sigma0);  // focused: the wheel is its own
    waitForResults(w);
    // Ctrl+Shift+Left with the caret in the Source field moves hc-sa (the clicked column).
    w.sourceEdit()->setFocus();
    QTest::keyClick(w.sourceEdit(), Qt::Key_Left, Qt::ControlModifier | Qt::ShiftModifier);
    waitForResults(w);
    EXPECT_EQ(w.columns()[0].name, "hc-sa");
    EXPECT_EQ(w.sourceEdit()->text(), "I want to go to the station");
}

// The lecture's comparison in one step (issue 29): Columns › Compare picks the preset's
// models of the workspace's set in the preset's order, a model already shown keeps its
// edited settings, and Choose models… shows, hides and reorders the set's models.
TEST(MainWindow, ComparisonPresetsAndTheModelPicker) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    ASSERT_EQ(w.columns().size(), 12u);
    w.setSentence("I want to go to the station");
    waitForResults(w);
    // σ of hc-sa edited, then the two-model comparison.
    auto hc = std::find_if(w.columns().begin(), w.columns().end(),
                           [](const ModelColumn& c) { return c.name == "hc-sa"; });
    ASSERT_NE(hc, w.columns().end());
    const auto hcModel = hc->model;
    w.applyComparison("dot-hc-sa");
    waitForResults(w);
    ASSERT_EQ(w.columns().size(), 2u);
    EXPECT_EQ(w.columns()[0].name, "dot");
    EXPECT_EQ(w.columns()[1].name, "hc-sa");
    EXPECT_EQ(w.columns()[1].model, hcModel);  // the shown model itself, not a fresh copy
    EXPECT_EQ(w.grid()->columnCount(), 2);
    EXPECT_EQ(w.modelSet(), "toy");
    EXPECT_EQ(w.session().columns.size(), 2);  // saved with the workspace
    // The Models box says that two of the set's twelve are shown (it said "12 models").
    EXPECT_TRUE(w.modelSetBox()->currentText().endsWith("2 of 12 models shown"))
        << w.modelSetBox()->currentText().toStdString();
    w.applyComparison("hc-sa-paper");
    waitForResults(w);
    ASSERT_EQ(w.columns().size(), 4u);
    EXPECT_EQ(w.columns()[3].name, "hc-sa-1head");
    // The picker: hide dot, show dense first.
    w.setPickModels([](ModelPicker& picker) {
        QListWidget* list = picker.list();
        EXPECT_EQ(list->item(0)->text(), "dot");  // the shown ones first, ticked
        EXPECT_EQ(list->item(0)->checkState(), Qt::Checked);
        EXPECT_EQ(list->item(4)->checkState(), Qt::Unchecked);
        list->item(0)->setCheckState(Qt::Unchecked);
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->text() == "dense") {
                list->item(i)->setCheckState(Qt::Checked);
                list->insertItem(0, list->takeItem(i));
            }
        return true;
    });
    w.chooseModels();
    waitForResults(w);
    ASSERT_EQ(w.columns().size(), 4u);
    EXPECT_EQ(w.columns()[0].name, "dense");
    EXPECT_EQ(w.columns()[1].name, "hc-sa");
    // Cancelled: nothing changes.
    w.setPickModels([](ModelPicker&) { return false; });
    w.chooseModels();
    EXPECT_EQ(w.columns().size(), 4u);
}

// Issue 27, items 15 and 16: a source of 100,000 characters is kept whole by the field (Qt
// cut it at 32,767 silently), and saving a workspace with a model trained here and never
// saved says that it would be left out, and asks.
TEST(MainWindow, LongSourcesStayWholeAndUnsavedModelsAreNotLeftOutSilently) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors")});
    const QString longText = QString("to ").repeated(33334).left(100000);
    w.workspace()->setSentence(longText, {});
    EXPECT_EQ(w.sourceEdit()->text().size(), 100000);
    w.sourceEdit()->setText(longText + "x");  // typed: the model gets every character
    EXPECT_EQ(w.workspace()->source().size(), 100001);
    waitForResults(w);
    QStringList asked;
    w.setConfirm([&](const QString&, const QString& text) {
        asked << text;
        return false;
    });
    EXPECT_TRUE(w.confirmUnsavedLeftOut());  // nothing unsaved: no question
    EXPECT_TRUE(asked.isEmpty());
    w.addColumn(column("gaussian", "trained here"));  // no file: as if trained in the app
    EXPECT_FALSE(w.confirmUnsavedLeftOut());
    ASSERT_EQ(asked.size(), 1);
    EXPECT_NE(asked[0].indexOf("1 model(s)"), -1) << asked[0].toStdString();
    EXPECT_NE(asked[0].indexOf("left out"), -1);
}

TEST(MainWindow, NoColumnsLeftWhileAnalysingLeavesAnEmptyGrid) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.setSentence("I want to go to the station");  // analysing now
    w.setColumns({});
    waitForResults(w);
    EXPECT_EQ(w.grid()->columnCount(), 0);  // the stale analysis of two models was dropped
    EXPECT_TRUE(w.workspace()->results()->empty());
}

TEST(MainWindow, EveryLayerOfOneModel) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("11-hc-sa-1head.safetensors")});
    w.setSentence("I want to go", "mo volo te irer");
    waitForResults(w);
    ViewState v = w.view();
    v.kind = BlockKind::Cross;
    v.allLayersOf = 1;  // HC-SA with one cross head in the top layer only
    w.setView(v);
    ASSERT_EQ(w.grid()->columnCount(), 1);  // only layer 1 has cross-attention
    EXPECT_EQ(w.grid()->rowCount(), 1);     // with one head
    EXPECT_EQ(w.grid()->panel(0, 0)->title(), "cross L2 · head 1");  // from 1, for people
    v.kind = BlockKind::DecoderSelf;
    w.setView(v);
    EXPECT_EQ(w.grid()->columnCount(), 2);
    EXPECT_EQ(w.grid()->panel(1, 3)->title(), "dec self L2 · head 4");
}

TEST(MainWindow, ASavedWorkspaceReopensIdentically) {
    MainWindow w;
    w.setColumns({bundled("09-hc-sa.safetensors"), bundled("01-dot.safetensors")});
    w.sentences()->setLines(
        {"I want to go to the station", "the cat sees a dog\tde kato vida un hundo"});
    w.setSentence("she says that the train arrives", "si dira ke de treno ankoma");
    ViewState v;
    v.kind = BlockKind::Cross;
    v.layer = 1;
    v.meanHeads = true;
    v.colormap = "magma";
    v.scaling = Scaling::Log;
    v.shared = false;
    v.query = 2;
    w.setView(v);
    waitForResults(w);
    const std::string path = ::testing::TempDir() + "work.attnviz.json";
    QString error;
    ASSERT_TRUE(w.saveSession(QString::fromStdString(path), &error)) << error.toStdString();
    MainWindow w2;
    ASSERT_TRUE(w2.openSession(QString::fromStdString(path), &error)) << error.toStdString();
    waitForResults(w2);
    EXPECT_TRUE(w2.session() == w.session());
    ASSERT_EQ(w2.grid()->columnCount(), 2);
    ASSERT_EQ(w2.grid()->rowCount(), 1);  // mean of heads
    for (int c = 0; c < 2; ++c) {
        EXPECT_EQ(w2.grid()->panel(c, 0)->matrix(), w.grid()->panel(c, 0)->matrix());
        EXPECT_EQ(w2.grid()->panel(c, 0)->query(), 2);
        EXPECT_EQ(w2.grid()->panel(c, 0)->title(), w.grid()->panel(c, 0)->title());
    }
    EXPECT_EQ(w2.sentences()->lines(), w.sentences()->lines());
    // Not a session: an error naming the file.
    std::ofstream(::testing::TempDir() + "bad.json") << "[1, 2]";
    EXPECT_FALSE(w2.openSession(QString::fromStdString(::testing::TempDir() + "bad.json"), &error));
    EXPECT_NE(error.indexOf("bad.json"), -1);
}

// The workspace model owns the sentence, the sentence list and the model set: the fields,
// the Sentences dock and the Models box show what it holds, whoever changed it; a saved
// workspace is made from it alone and applied to it with one analysis.
TEST(MainWindow, TheWorkspaceModelOwnsTheSentenceTheListAndTheSet) {
    MainWindow w;
    WorkspaceModel* m = w.workspace();
    w.setColumns({bundled("01-dot.safetensors")});
    m->setSentence("the cat sees a dog", "de kato vida un hundo");
    EXPECT_EQ(w.sourceEdit()->text(), "the cat sees a dog");
    EXPECT_EQ(w.targetEdit()->text(), "de kato vida un hundo");
    w.sourceEdit()->setText("she reads a book");  // typing changes the model's sentence
    EXPECT_EQ(m->source(), "she reads a book");
    m->setSentences({"a b", "c d\te f"}, 1);
    EXPECT_EQ(w.sentences()->lines(), (QStringList{"a b", "c d\te f"}));
    EXPECT_EQ(w.sentences()->currentIndex(), 1);
    EXPECT_EQ(m->sentenceIndex(), 1);  // showing the list did not choose another entry
    EXPECT_EQ(w.sourceEdit()->text(), "she reads a book");
    waitForResults(w);
    Session s = m->session();
    EXPECT_EQ(s.source, "she reads a book");
    EXPECT_EQ(s.sentences, (QStringList{"a b", "c d\te f"}));
    EXPECT_EQ(s.sentenceIndex, 1);
    ASSERT_EQ(s.columns.size(), 1);
    // Applied to another window: every widget shows it, after one analysis request.
    MainWindow w2;
    QSignalSpy requests(w2.workspace(), &WorkspaceModel::analysisRequested);
    s.modelSet = "toy";
    s.source = "I want to go to the station";
    QStringList errors;
    w2.applySession(s, &errors);
    EXPECT_TRUE(errors.isEmpty());
    EXPECT_EQ(requests.count(), 1);
    EXPECT_EQ(w2.sourceEdit()->text(), "I want to go to the station");
    EXPECT_EQ(w2.sentences()->lines(), s.sentences);
    EXPECT_EQ(w2.sentences()->currentIndex(), 1);
    EXPECT_EQ(w2.workspace()->sentenceIndex(), 1);
    EXPECT_EQ(w2.modelSet(), "toy");
    EXPECT_EQ(w2.modelSetBox()->currentData().toString(), "toy");
    waitForResults(w2);
    EXPECT_EQ(w2.grid()->columnCount(), 1);
    EXPECT_TRUE(w2.session() == s);
    // The same sentence again: nothing to analyse.
    w2.setSentence(s.source, s.target);
    EXPECT_EQ(requests.count(), 1);
}

// The export dialog writes what the workspace shows: every kind of figure, by extension.
TEST(MainWindow, ExportDialogWritesGridPanelProfileAndLossAsVectors) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.setSentence("I want to go");  // 5 positions with <eos>
    waitForResults(w);
    std::unique_ptr<ExportDialog> d(w.createExportDialog());
    const QString dir = QString::fromStdString(::testing::TempDir());
    auto rects = [](const QString& path) {
        QFile f(path);
        f.open(QIODevice::ReadOnly);
        return QString::fromUtf8(f.readAll()).count("<rect");
    };
    QString error;
    d->setWhat(ExportDialog::Grid);
    ASSERT_TRUE(d->exportTo(dir + "grid.svg", &error)) << error.toStdString();
    EXPECT_EQ(rects(dir + "grid.svg"), 2 * 4 * 5 * 5);
    EXPECT_FALSE(d->preview().isNull());
    w.selectQuery(1, 3);
    d->setWhat(ExportDialog::Panel);
    ASSERT_TRUE(d->exportTo(dir + "panel.pdf", &error)) << error.toStdString();
    ASSERT_TRUE(d->exportTo(dir + "panel.svg", &error)) << error.toStdString();
    EXPECT_EQ(rects(dir + "panel.svg"), 5 * 5);
    d->setWhat(ExportDialog::Profile);
    d->setPixels(QSize(300, 200));
    ASSERT_TRUE(d->exportTo(dir + "profile.png", &error)) << error.toStdString();
    EXPECT_EQ(QImage(dir + "profile.png").size(), QSize(300, 200));
    d->setWhat(ExportDialog::Loss);
    QFile::remove(dir + "no-loss.svg");
    EXPECT_FALSE(d->exportTo(dir + "no-loss.svg", &error));  // nothing trained yet
    EXPECT_NE(error.indexOf("Training"), -1);
    EXPECT_FALSE(QFile::exists(dir + "no-loss.svg"));
    // Data: CSV rows for every cell in view.
    ASSERT_TRUE(w.exportData(dir + "view.csv", &error)) << error.toStdString();
    QFile csv(dir + "view.csv");
    csv.open(QIODevice::ReadOnly);
    EXPECT_EQ(QString::fromUtf8(csv.readAll()).count('\n'), 1 + 2 * 4 * 5 * 5);
    EXPECT_FALSE(w.exportData("/proc/nope/view.csv", &error));
    EXPECT_NE(error.indexOf("/proc/nope/view.csv"), -1);
}

// Screen and file are one drawing of one selection: every cell of every panel on screen (the
// real grid's QCustomPlot panels) has the colour of the same cell in a PNG written by
// render/, for each scaling, with a shared and with per-panel colour scales.
TEST(MainWindow, ScreenAndFigureColourEveryCellAlike) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.resize(1400, 1000);
    w.show();
    w.setSentence("I want to go to the station");  // 8 positions with <eos>
    waitForResults(w);
    const QString png = QString::fromStdString(::testing::TempDir()) + "agree.png";
    for (Scaling scaling : {Scaling::Linear, Scaling::Power, Scaling::Log})
        for (bool shared : {true, false}) {
            ViewState v = w.view();
            v.scaling = scaling;
            v.shared = shared;
            v.colormap = shared ? "viridis" : "magma";
            w.setView(v);
            QTest::qWait(50);  // panels laid out
            const render::Figure fig{w.workspace()->selection(), v.figureStyle()};
            const QSizeF page(1800, 1200);  // pixels = points at 72 dpi
            QString error;
            ASSERT_TRUE(render::writeFigure(
                png, page, false, 72,
                [&](QPainter& p, const QRectF& r) { render::paintFigure(p, fig, r); }, &error))
                << error.toStdString();
            const QImage file(png);
            const render::FigureLayout L = render::layoutFigure(fig, QRectF(QPointF(), page));
            ASSERT_EQ(L.panels.size(), 2u * 4u);
            int cells = 0;
            std::set<QRgb> colours;
            for (const render::PanelPlace& pl : L.panels) {
                HeatmapPanel* panel = w.grid()->panel(pl.column, pl.row);
                ASSERT_NE(panel, nullptr);
                panel->redrawNow();
                const QImage screen = panel->grab().toImage();
                const Mat& m = panel->matrix();
                ASSERT_EQ(m.rows(), 8);
                ASSERT_GE(pl.cell, 4);
                for (int i = 0; i < m.rows(); ++i)
                    for (int j = 0; j < m.cols(); ++j) {
                        const QPoint s(int(panel->plot()->xAxis->coordToPixel(j)),
                                       int(panel->plot()->yAxis->coordToPixel(i)));
                        const QPoint f(int(pl.origin.x() + (j + 0.5) * pl.cell),
                                       int(pl.origin.y() + (i + 0.5) * pl.cellH));
                        const QRgb a = screen.pixel(s) & 0xffffff, b = file.pixel(f) & 0xffffff;
                        ASSERT_EQ(a, b) << render::scalingName(scaling) << (shared ? " shared" : "")
                                        << ": column " << pl.column << " head " << pl.row
                                        << " cell (" << i << ", " << j << ") weight " << m(i, j)
                                        << std::hex << ": screen " << a << ", file " << b;
                        colours.insert(a);
                        ++cells;
                    }
            }
            EXPECT_EQ(cells, 2 * 4 * 8 * 8);
            EXPECT_GT(colours.size(), 20u);  // not one flat colour
        }
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // QSettings and the last workspace away from the user's own (test mode: ~/.qttest), and
    // away from the other tests': ctest runs each test in a process of its own, two at a time,
    // and with one settings file a test's "last workspace" was now and then another's.
    char home[] = "/tmp/attnviz-ui-test-XXXXXX";
    if (!mkdtemp(home)) return 2;
    qputenv("HOME", home);
    QStandardPaths::setTestModeEnabled(true);
    int rc = 0;
    {
        QApplication app(argc, argv);
        const attnviz::ui::BackgroundJobsFinish backgroundJobsFinish;  // before the app goes
        QApplication::setOrganizationName("attnviz-tests");
        ::testing::InitGoogleTest(&argc, argv);
        rc = RUN_ALL_TESTS();
    }
    std::error_code ec;
    std::filesystem::remove_all(home, ec);
    return rc;
}

// Words a word-level model does not know are said, not hidden: counted in the column
// header, marked ⁇ in the labels and explained in the tooltip (issue 12).
TEST(MainWindow, UnknownWordsAreMarkedAndCounted) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors")});
    w.setSentence("The quick brown fox jumps over the lazy dog");
    waitForResults(w);
    const QString header = w.grid()->header(0)->text();
    EXPECT_NE(header.indexOf("of 9 words unknown"), -1) << header.toStdString();
    EXPECT_NE(w.grid()->header(0)->toolTip().indexOf("unknown to this model"), -1);
    bool marked = false;
    for (int i = 0; i < 9; ++i) {
        const QString t = w.grid()->panel(0, 0)->cellText(i, 0);
        if (t.contains(QStringLiteral("\u2047"))) marked = t.contains("does not know");
    }
    EXPECT_TRUE(marked);
    // The decoded output is whole in the header's tooltip.
    EXPECT_NE(w.grid()->header(0)->toolTip().indexOf("Output"), -1);
}

// The Training tab on a data file with a SentencePiece tokenizer: the new model knows every
// word of any sentence (byte fallback), and its pieces merge into words (issue 12).
TEST(MainWindow, TrainingOnDataWithSubwordsNeverShowsUnknownWords) {
    const std::string tsv = ::testing::TempDir() + "attnviz_ui_pairs.tsv";
    {
        std::ofstream f(tsv);
        const char* en[] = {"the", "station", "train", "I", "want", "to", "go", "river"};
        const char* es[] = {"la", "estación", "tren", "yo", "quiero", "a", "ir", "río"};
        for (int i = 0; i < 300; ++i) {
            for (int k = 0; k < 5; ++k) f << (k ? " " : "") << en[(i + 3 * k) % 8];
            f << '\t';
            for (int k = 0; k < 5; ++k) f << (k ? " " : "") << es[(i + 3 * k) % 8];
            f << '\n';
        }
    }
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors")});
    JobSpec spec;
    spec.configJson = TrainingDock::configFor("dot", "tiny", false);
    spec.data = tsv;
    spec.tokenizer = "sentencepiece";
    spec.vocabSize = 400;
    spec.train.steps = 5;
    QSignalSpy done(w.training(), &TrainingDock::runFinished);
    QString error;
    ASSERT_TRUE(w.training()->start(spec, "dot · subwords", &error)) << error.toStdString();
    ASSERT_TRUE(done.wait(60000));
    ASSERT_EQ(w.columns().size(), 2u);
    w.setSentence("I want to go to the Zürich station 我想");
    waitForResults(w);
    const auto& results = *w.workspace()->results();
    ASSERT_EQ(results.size(), 2u);
    EXPECT_GT(results[0].analysis.unknownSource, 0);  // the word-level toy model
    EXPECT_EQ(results[1].analysis.unknownSource, 0);  // subwords: nothing unknown
    EXPECT_GT(results[1].analysis.sourceTokens.size(), 10u);
}

// The model-set control replaces the columns by a bundled set's models and the workspace
// remembers the set (issue 12). The toy and toy-lm sets are always in the repository.
TEST(MainWindow, ModelSetsSwitchInOneControlAndAreSavedInTheWorkspace) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    EXPECT_EQ(w.modelSet(), "toy");
    EXPECT_GE(w.columns().size(), 11u);
    EXPECT_EQ(w.columns().front().name, "dot");
    EXPECT_EQ(w.modelSetBox()->currentData().toString(), "toy");
    // Through the combo box, as a person does it.
    const int lm = w.modelSetBox()->findData("toy-lm");
    ASSERT_GE(lm, 0);
    w.modelSetBox()->setCurrentIndex(lm);
    emit w.modelSetBox()->activated(lm);
    EXPECT_EQ(w.modelSet(), "toy-lm");
    EXPECT_EQ(w.columns().size(), 4u);
    EXPECT_FALSE(w.columns().front().model->config().hasEncoder());
    // Language models have no encoder: the view moves to decoder self-attention instead
    // of opening on empty panels.
    EXPECT_EQ(w.view().kind, attnviz::BlockKind::DecoderSelf);
    // Saved and reopened: the set comes back with its columns.
    const std::string path = ::testing::TempDir() + "sets.attnviz.json";
    QString error;
    ASSERT_TRUE(w.saveSession(QString::fromStdString(path), &error)) << error.toStdString();
    MainWindow w2;
    ASSERT_TRUE(w2.openSession(QString::fromStdString(path), &error)) << error.toStdString();
    EXPECT_EQ(w2.modelSet(), "toy-lm");
    EXPECT_EQ(w2.columns().size(), 4u);
    // An unknown set changes nothing.
    EXPECT_FALSE(w2.chooseModelSet("nope", false));
    EXPECT_EQ(w2.modelSet(), "toy-lm");
    EXPECT_EQ(w2.columns().size(), 4u);
}

// The Models box says how many models each set has, and a set without any (a folder not
// there, or a set still being trained and not yet committed) cannot be chosen.
TEST(MainWindow, TheModelsBoxCountsEachSetsModelsAndDisablesEmptyOnes) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString models = QString::fromStdString(attnviz::bundledModelDirectory());
    for (const char* f : {"01-dot.safetensors", "09-hc-sa.safetensors", "set.json"})
        ASSERT_TRUE(QFile::copy(models + "/" + f, dir.filePath(f)));
    // A set declared by its set.json whose models are not there (yet): offered, not choosable.
    ASSERT_TRUE(QDir(dir.path()).mkdir("en-es"));
    ASSERT_TRUE(QFile::copy(models + "/en-es/set.json", dir.filePath("en-es/set.json")));
    // The configurations as bundled: what is read from them once (the training presets)
    // stays the same for the tests after this one.
    ASSERT_TRUE(QFile::link(models + "/configs", dir.filePath("configs")));
    const QByteArray before = qgetenv("ATTNVIZ_MODELS");
    qputenv("ATTNVIZ_MODELS", dir.path().toUtf8());
    {
        MainWindow w;
        QComboBox* box = w.modelSetBox();
        auto* items = qobject_cast<QStandardItemModel*>(box->model());
        ASSERT_NE(items, nullptr);
        // The sets are the folders: the toy set's (the top one) and the declared en-es.
        ASSERT_EQ(attnviz::modelSets().size(), 2u);
        EXPECT_EQ(box->count(), 2);
        for (const auto& set : attnviz::modelSets()) {
            const int i = box->findData(QString::fromStdString(set.id));
            ASSERT_GE(i, 0) << set.id;
            const bool toy = set.id == "toy";
            EXPECT_TRUE(box->itemText(i).endsWith(toy ? " · 2 models" : " · 0 models"))
                << box->itemText(i).toStdString();
            EXPECT_EQ(items->item(i)->isEnabled(), toy) << set.id;
        }
    }
    qputenv("ATTNVIZ_MODELS", before);
    MainWindow w;  // the bundled sets: the real one has its twelve
    const int real = w.modelSetBox()->findData("en-es");
    EXPECT_TRUE(w.modelSetBox()->itemText(real).endsWith(" · 12 models"))
        << w.modelSetBox()->itemText(real).toStdString();
}

// A newcomer looks for "which models" beside the Models box (issue 29's timed run): the
// Compare button there opens the presets of Columns › Compare; and crossing the menus no
// longer wipes the status bar's message (each entry sent an empty status tip).
TEST(MainWindow, CompareBesideTheModelsBoxAndTheStatusMessageStays) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("en-es", false));
    QToolButton* compare = w.compareButton();
    ASSERT_NE(compare, nullptr);
    ASSERT_NE(compare->menu(), nullptr);
    EXPECT_EQ(compare->menu()->menuAction()->text(), "Co&mpare");  // the same menu
    const QList<QAction*> presets = compare->menu()->actions();
    ASSERT_EQ(presets.size(), int(attnviz::comparisonPresets().size()));
    presets.front()->trigger();  // dot vs HC-SA
    ASSERT_EQ(w.columns().size(), 2u);
    EXPECT_EQ(attnviz::presetKey(w.columns()[0]), "dot");
    EXPECT_EQ(attnviz::presetKey(w.columns()[1]), "hc-sa");
    // The menu marks the comparison shown (issue 47: nothing said which was active), and none
    // once the columns are another choice.
    auto marked = [&] {
        emit compare->menu()->aboutToShow();
        QStringList on;
        for (QAction* a : presets)
            if (a->isChecked()) on << a->data().toString();
        return on;
    };
    EXPECT_EQ(marked(), QStringList{"dot-hc-sa"});
    w.moveColumn(0, +1);  // hc-sa, dot: no longer the comparison's order
    EXPECT_EQ(marked(), QStringList());
    presets.back()->trigger();  // every model of the set
    EXPECT_EQ(marked(), QStringList{"all"});
    presets.front()->trigger();
    w.statusBar()->showMessage("2 models");
    QStatusTipEvent empty{QString()};
    QApplication::sendEvent(&w, &empty);
    EXPECT_EQ(w.statusBar()->currentMessage(), "2 models");
    QStatusTipEvent tip{"a tip"};
    QApplication::sendEvent(&w, &tip);
    EXPECT_EQ(w.statusBar()->currentMessage(), "a tip");
    waitForResults(w);
}

// The Compare and Present buttons stay where they are while the Models box's text changes
// (issue 47: the box took the width of its texts, so a comparison, "2 of 12 models shown", or
// another set moved the buttons under the pointer).
TEST(MainWindow, TheButtonsBesideTheModelsBoxStayPut) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QToolButton* present = w.findChild<QToolButton*>("present");
    ASSERT_NE(present, nullptr);
    auto where = [&] {
        QTest::qWait(20);  // the layouts settle
        return std::pair(w.compareButton()->mapTo(&w, QPoint(0, 0)).x(),
                         present->mapTo(&w, QPoint(0, 0)).x());
    };
    ASSERT_TRUE(w.chooseModelSet("en-es", false));
    const auto first = where();
    const QString firstText = w.modelSetBox()->currentText();
    w.applyComparison("dot-hc-sa");  // "… · 2 of 12 models shown"
    EXPECT_NE(w.modelSetBox()->currentText(), firstText) << "the text did not change";
    EXPECT_EQ(where(), first) << "after a comparison";
    for (const char* set : {"toy", "toy-lm", "en-lm", "vision", "en-es"}) {
        ASSERT_TRUE(w.chooseModelSet(set, false)) << set;
        EXPECT_EQ(where(), first) << "after choosing " << set;
        if (QString(set) != "vision") {
            w.applyComparison("dot-hc-sa");
            EXPECT_EQ(where(), first) << "after a comparison in " << set;
        }
    }
    EXPECT_TRUE(waitUntil([&] { return !w.runner()->busy(); }));
}

// The lines view (issue 13): one LinesPanel per table, rows lined up across panels;
// hovering a query keeps only its lines, hovering a key only the lines into it; clicking a
// query selects it in every panel, as a click on a heatmap row does; saved in the workspace.
TEST(MainWindow, LinesViewHoverClickAndWorkspace) {
    MainWindow w;
    w.resize(1400, 900);
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.setSentence("I want to go to the station");
    ViewState v;
    v.lines = true;
    w.setView(v);
    w.show();
    waitForResults(w);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(waitUntil([&] {  // the layout gives the panels their sizes
        LinesPanel* p = w.grid()->linesPanel(0, 0);
        return p && p->currentLayout().queries.size() == 8 && p->currentLayout().pitch >= 20.0;
    }));
    ASSERT_EQ(w.grid()->panel(0, 0), nullptr);
    // The query profile stays behind the Variant tab until a query is clicked.
    auto* profileDock = w.findChild<QDockWidget*>("profile");
    ASSERT_NE(profileDock, nullptr);
    EXPECT_TRUE(profileDock->visibleRegion().isEmpty());
    LinesPanel* p = w.grid()->linesPanel(0, 0);
    ASSERT_NE(p, nullptr);
    ASSERT_NE(w.grid()->linesPanel(1, 3), nullptr);
    EXPECT_EQ(p->title(), "enc self L1 · head 1");
    const render::LinesLayout l = p->currentLayout();
    ASSERT_EQ(l.queries.size(), 8u);  // 7 words + <eos>
    EXPECT_GE(l.pitch, 20.0);         // readable: the grid scrolls instead
    // Hover query 3 ("go"): only its lines.
    QTest::mouseMove(p, l.queries[3].center().toPoint());
    EXPECT_EQ(p->hovered().side, 0);
    EXPECT_EQ(p->hovered().index, 3);
    for (const auto& d : render::linesToDraw(p->table(), p->style())) EXPECT_EQ(d.query, 3);
    // Hover key 1: only the lines into it.
    QTest::mouseMove(p, l.keys[1].center().toPoint());
    EXPECT_EQ(p->style().focusKey, 1);
    for (const auto& d : render::linesToDraw(p->table(), p->style())) EXPECT_EQ(d.key, 1);
    // Click query 2: selected everywhere, and its lines stay when the mouse leaves.
    QTest::mouseClick(p, Qt::LeftButton, {}, l.queries[2].center().toPoint());
    EXPECT_EQ(w.view().query, 2);
    EXPECT_EQ(w.grid()->linesPanel(1, 2)->query(), 2);
    EXPECT_TRUE(waitUntil([&] { return !profileDock->visibleRegion().isEmpty(); }))
        << "the profile is brought forward by the click";
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(p, &leave);
    EXPECT_EQ(p->style().focusQuery, 2);
    // Saved and restored with the workspace; off again gives heatmaps.
    EXPECT_TRUE(ViewState::fromJson(w.view().toJson()).lines);
    v = w.view();
    v.lines = false;
    w.setView(v);
    EXPECT_NE(w.grid()->panel(0, 0), nullptr);
    EXPECT_EQ(w.grid()->linesPanel(0, 0), nullptr);
}

// Nothing lost (issue 13): closing the window with a model trained here and not saved asks
// first, and stays open on "no"; once the model is saved (its column has a path) it does not
// ask. Switching model sets asks the same question.
TEST(MainWindow, QuittingWithAnUnsavedTrainedModelAsks) {
    MainWindow w;
    ModelColumn trained = column("dot", "dot · trained here");
    ASSERT_TRUE(trained.path.empty());
    w.setColumns({bundled("01-dot.safetensors"), trained});
    EXPECT_EQ(w.unsavedColumns(), 1);
    QStringList asked;
    bool answer = false;
    w.setConfirm([&](const QString& title, const QString& text) {
        asked << title + ": " + text;
        return answer;
    });
    w.show();
    EXPECT_FALSE(w.close());  // "no": still open
    ASSERT_EQ(asked.size(), 1);
    EXPECT_NE(asked[0].indexOf("1 model(s) trained here are not saved"), -1);
    EXPECT_TRUE(w.isVisible());
    EXPECT_FALSE(w.chooseModelSet("toy"));  // switching sets asks too, and "no" keeps them
    EXPECT_EQ(asked.size(), 2);
    EXPECT_EQ(w.columns().size(), 2u);
    // Saved: no question.
    ASSERT_TRUE(w.workspace()->setSavedPath(w.columns()[1].model, "/tmp/trained.safetensors"));
    EXPECT_EQ(w.unsavedColumns(), 0);
    EXPECT_TRUE(w.close());
    EXPECT_EQ(asked.size(), 2);
    QSettings().clear();  // closing stored this window's layout; later tests start afresh
}

// Each block keeps its selected query (issue 13): switching to cross-attention and back with
// the Block control brings the encoder's clicked query back; it is saved in the workspace.
TEST(MainWindow, EachBlockKeepsItsSelectedQuery) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors")});
    w.setSentence("I want to go to the station");
    waitForResults(w);
    w.selectQuery(0, 3);
    auto* controls = w.findChild<ViewControls*>();
    ASSERT_NE(controls, nullptr);
    controls->setBlockIndex(2);  // cross-attention: nothing selected there yet
    EXPECT_EQ(w.view().kind, BlockKind::Cross);
    EXPECT_EQ(w.view().query, -1);
    w.selectQuery(0, 1);
    controls->setBlockIndex(0);
    EXPECT_EQ(w.view().query, 3);
    controls->setBlockIndex(2);
    EXPECT_EQ(w.view().query, 1);
    const ViewState back = ViewState::fromJson(w.view().toJson());
    EXPECT_EQ(back.blockQueries[0], 3);
    EXPECT_TRUE(back == w.view());
}

// The shared colour scale is on screen beside the grid (issue 13), topped at the largest
// weight in view; hidden when each panel has its own scale or the view shows lines.
TEST(MainWindow, ColourBarBesideTheGridFollowsTheSharedScale) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.setSentence("I want to go to the station");
    w.show();
    waitForResults(w);
    EXPECT_TRUE(w.colorBar()->isVisible());
    EXPECT_DOUBLE_EQ(w.colorBar()->top(), w.workspace()->selection().maxWeight);
    EXPECT_GT(w.colorBar()->top(), 0.0);
    ViewState v = w.view();
    EXPECT_FALSE(w.grid()->panel(0, 0)->hasOwnColorBar());
    v.shared = false;
    w.setView(v);
    EXPECT_FALSE(w.colorBar()->isVisible());
    EXPECT_TRUE(w.grid()->panel(0, 0)->hasOwnColorBar());  // each panel its own scale
    v.shared = true;
    v.lines = true;
    w.setView(v);
    EXPECT_FALSE(w.colorBar()->isVisible());
    v.lines = false;
    w.setView(v);
    EXPECT_TRUE(w.colorBar()->isVisible());
}

// Layouts, one control away (issue 13): compare (models × heads), mean (one panel per
// model), focus (the clicked model's layers × heads); the Columns menu's every-layer action
// and the control agree.
TEST(MainWindow, LayoutsCompareMeanAndFocus) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.setSentence("I want to go to the station");
    waitForResults(w);
    auto* controls = w.findChild<ViewControls*>();
    ASSERT_NE(controls, nullptr);
    EXPECT_EQ(w.grid()->columnCount(), 2);
    EXPECT_EQ(w.grid()->rowCount(), 4);
    controls->setLayoutIndex(ViewControls::Mean);
    EXPECT_TRUE(w.view().meanHeads);
    EXPECT_EQ(w.grid()->columnCount(), 2);
    EXPECT_EQ(w.grid()->rowCount(), 1);
    w.selectQuery(1, 2);  // the hc-sa column is the current one
    controls->setLayoutIndex(ViewControls::Focus);
    EXPECT_EQ(w.view().allLayersOf, 1);
    EXPECT_FALSE(w.view().meanHeads);
    EXPECT_EQ(w.grid()->columnCount(), 2);  // its two encoder layers
    EXPECT_EQ(w.grid()->rowCount(), 4);
    EXPECT_NE(w.grid()->header(0)->text().indexOf("hc-sa"), -1);
    EXPECT_EQ(w.grid()->panel(0, 0)->title().indexOf("hc-sa"), -1);  // named once, above
    controls->setLayoutIndex(ViewControls::Compare);
    EXPECT_EQ(w.view().allLayersOf, -1);
    EXPECT_EQ(w.grid()->rowCount(), 4);
    // A saved focus view shows as Focus in the control.
    ViewState v = w.view();
    v.allLayersOf = 0;
    w.setView(v);
    EXPECT_EQ(controls->applied(w.view()).allLayersOf, 0);
}

// Zoom and labels (issue 13): Ctrl+wheel and Ctrl+± scale every panel (their minimum size
// follows), the label size control changes the token labels, and when cells are smaller than
// a label only every k-th token is named, the selected query always.
TEST(MainWindow, ZoomLabelSizeAndLabelThinning) {
    MainWindow w;
    w.resize(1200, 800);
    w.setColumns({bundled("01-dot.safetensors")});
    QString text;
    for (int i = 0; i < 40; ++i) text += (i % 2 ? "the " : "station ");
    w.setSentence(text);
    w.show();
    waitForResults(w);
    HeatmapPanel* p = w.grid()->panel(0, 0);
    const QSize base = p->minimumSizeHint();
    // Ctrl+wheel over the grid zooms in.
    QWheelEvent wheel(QPointF(10, 10), w.grid()->mapToGlobal(QPointF(10, 10)), QPoint(),
                      QPoint(0, 120), Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w.grid(), &wheel);
    EXPECT_NEAR(w.view().zoom, 1.15, 1e-9);
    EXPECT_GT(p->minimumSizeHint().height(), base.height());
    w.zoomBy(0);
    EXPECT_DOUBLE_EQ(w.view().zoom, 1.0);
    for (int i = 0; i < 20; ++i) w.zoomBy(0.8);
    EXPECT_DOUBLE_EQ(w.view().zoom, ViewState::kZoomMin);  // clamped
    // Small cells: labels thinned, the selected query still named.
    p->resize(300, 300);
    QTest::qWait(20);
    EXPECT_GT(p->labelStep(Qt::Vertical), 1);
    // Said below the map (issue 29): thinned labels would read like another sentence.
    const int shownStep = std::max(p->labelStep(Qt::Vertical), p->labelStep(Qt::Horizontal));
    EXPECT_EQ(p->plot()->xAxis->label(), QString("labels: 1 in %1 tokens").arg(shownStep));
    w.selectQuery(0, 7);
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(p->plot()->yAxis->ticker());
    ASSERT_TRUE(ticker);
    EXPECT_TRUE(ticker->ticks().contains(7.0));
    // A thinned-out row is named while the pointer is over it, and only then.
    const int step = p->labelStep(Qt::Vertical);
    ASSERT_GT(step, 1);
    const int hidden = 1;  // not a multiple of the step, not the selected row
    ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(p->plot()->yAxis->ticker());
    ASSERT_FALSE(ticker->ticks().contains(double(hidden)));
    const QPoint over(int(p->plot()->xAxis->coordToPixel(0)),
                      int(p->plot()->yAxis->coordToPixel(hidden)));
    QTest::mouseMove(p->plot(), over);
    QTest::qWait(20);
    ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(p->plot()->yAxis->ticker());
    EXPECT_EQ(ticker->ticks().value(double(hidden)), "the");  // station the station …
    QTest::mouseMove(p->plot(), over + QPoint(0, int(step * 3 *
                                                     (p->plot()->yAxis->coordToPixel(1) -
                                                      p->plot()->yAxis->coordToPixel(0)))));
    QTest::qWait(20);
    ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(p->plot()->yAxis->ticker());
    EXPECT_FALSE(ticker->ticks().contains(double(hidden)));
    // Label size.
    ViewState v = w.view();
    v.labelPoints = 12;
    w.setView(v);
    EXPECT_EQ(p->plot()->xAxis->tickLabelFont().pointSize(), 12);
    EXPECT_EQ(ViewState::fromJson(w.view().toJson()).labelPoints, 12);
    EXPECT_DOUBLE_EQ(ViewState::fromJson(w.view().toJson()).zoom, ViewState::kZoomMin);
}

// Cells stay square whatever the panel's shape (spare room is left around the map), and the
// mean layout's single row of panels is as tall as the view (issue 13).
TEST(MainWindow, SquareCellsAndTheMeanLayoutFillsTheView) {
    MainWindow w;
    w.resize(1400, 900);
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.setSentence("I want to go to the station");  // 7 tokens with <eos>
    w.show();
    waitForResults(w);
    auto cellSize = [](HeatmapPanel* p) {
        const QRect r = p->plot()->axisRect()->rect();
        return QSizeF(double(r.width()) / p->matrix().cols(),
                      double(r.height()) / p->matrix().rows());
    };
    // Square, and never below the readable minimum (the layout may still be settling).
    auto square = [&](HeatmapPanel* p) {
        const QSizeF c = cellSize(p);
        return p->matrix().rows() > 0 && std::abs(c.width() - c.height()) <= 1.0 &&
               c.height() >= HeatmapPanel::kMinCell;
    };
    HeatmapPanel* p = w.grid()->panel(0, 0);
    ASSERT_NE(p, nullptr);
    // Two columns across 1400 px: each head's panel as large as its column's width and the
    // view's height allow (issue 29), the cells square.
    EXPECT_TRUE(waitUntil([&] { return square(p); }))
        << cellSize(p).width() << "x" << cellSize(p).height();
    const QSizeF wide = cellSize(p);
    EXPECT_GE(wide.height(), HeatmapPanel::kMinCell);
    // Mean layout: one panel per model, as tall as the view, still square.
    w.findChild<ViewControls*>()->setLayoutIndex(ViewControls::Mean);
    auto* scroll = qobject_cast<QScrollArea*>(w.grid()->parentWidget()->parentWidget());
    ASSERT_NE(scroll, nullptr);
    const auto tall = [&] {
        p = w.grid()->panel(0, 0);
        const int view = scroll->viewport()->height();
        const QRect inView(p->mapTo(scroll->viewport(), QPoint(0, 0)), p->size());
        return inView.bottom() <= view && p->height() > view * 3 / 4 && square(p);
    };
    EXPECT_TRUE(waitUntil(tall)) << p->height() << " of " << scroll->viewport()->height();
    // Already as tall as the view, a head's cells were as large as they may be: the mean's
    // are no smaller (they were twice as small before few columns filled their width).
    EXPECT_GE(cellSize(p).height(), wide.height() - 1) << "the mean panel is as large as a head's";
    EXPECT_GT(wide.height(), 3 * HeatmapPanel::kMinCell);
}

// After the lines view (tall panels: a readable row per token) or a long sentence, heatmaps
// of a short sentence get their size back: the grid shrinks to the view (the scroll area
// alone only grows it, and rows were pushed out of view).
TEST(MainWindow, TheGridShrinksBackAfterTheLinesViewOrALongSentence) {
    MainWindow w;
    w.resize(1400, 900);
    std::vector<ModelColumn> cols;  // more than fit across: a horizontal scroll bar
    for (int i = 0; i < 12; ++i)
        cols.push_back(bundled(i % 2 ? "01-dot.safetensors" : "09-hc-sa.safetensors"));
    w.setColumns(cols);
    w.setSentence("I want to go to the station");
    ViewState v = w.view();
    v.lines = true;
    w.setView(v);
    w.show();
    waitForResults(w);
    auto* scroll = qobject_cast<QScrollArea*>(w.grid()->parentWidget()->parentWidget());
    ASSERT_NE(scroll, nullptr);
    ASSERT_TRUE(waitUntil([&] { return w.grid()->height() > scroll->viewport()->height(); }));
    w.selectQuery(0, 2);  // the query profile comes forward: the view gets shorter
    w.selectQuery(-1, -1);
    v = w.view();
    v.shared = false;  // each panel its own colour bar
    w.setView(v);
    const auto fits = [&] {
        const int need =
            std::max(scroll->viewport()->height(), w.grid()->minimumSizeHint().height());
        return w.grid()->height() <= need + 1;
    };
    v.lines = false;
    w.setView(v);
    EXPECT_TRUE(waitUntil(fits)) << w.grid()->height() << " tall, needs "
                                 << w.grid()->minimumSizeHint().height() << ", view "
                                 << scroll->viewport()->height();
    QString text;
    for (int i = 0; i < 40; ++i) text += (i % 2 ? "the " : "station ");
    w.setSentence(text);
    waitForResults(w);
    w.setSentence("I want to go");
    waitForResults(w);
    EXPECT_TRUE(waitUntil(fits)) << w.grid()->height();
}

// The window fits a 1280×720 screen (issue 13): its minimum size is smaller, and at that
// size every column of a 13-model workspace can be scrolled to.
TEST(MainWindow, FitsA1280x720ScreenAndTheLastColumnIsReachable) {
    MainWindow w;
    std::vector<ModelColumn> cols;
    for (int i = 0; i < 13; ++i) cols.push_back(bundled("01-dot.safetensors"));
    w.setColumns(cols);
    w.setSentence("I want to go to the station");
    w.resize(1280, 720);
    w.show();
    waitForResults(w);
    QTest::qWait(50);
    EXPECT_LE(w.minimumSizeHint().width(), 1280) << w.minimumSizeHint().width();
    EXPECT_LE(w.minimumSizeHint().height(), 720) << w.minimumSizeHint().height();
    EXPECT_LE(w.width(), 1280);
    auto* scroll = qobject_cast<QScrollArea*>(w.grid()->parentWidget()->parentWidget());
    ASSERT_NE(scroll, nullptr);
    QLabel* last = w.grid()->header(12);
    ASSERT_NE(last, nullptr);
    // Scrolled to, it is in view (the layout may still settle: retried until it does).
    QPoint at;
    EXPECT_TRUE(waitUntil([&] {
        scroll->ensureWidgetVisible(last);
        QTest::qWait(20);
        at = last->mapTo(scroll->viewport(), QPoint(last->width() / 2, 0));
        return scroll->viewport()->rect().contains(at);
    })) << at.x()
        << "," << at.y();
}

// Panels scrolled out of view are drawn when shown, not on every edit (issue 13's repaint
// budget), and laid out then when the sentence's length changed (issue 26: 17–27 ms per edit
// at 47 tokens): what such a panel shows when it is painted equals a forced full redraw.
TEST(MainWindow, PanelsOutOfViewAreDrawnWhenShownAndShowTheLatestTables) {
    MainWindow w;
    std::vector<ModelColumn> cols;
    for (int i = 0; i < 13; ++i)
        cols.push_back(bundled(i % 2 ? "01-dot.safetensors" : "09-hc-sa.safetensors"));
    w.setColumns(cols);
    w.resize(1280, 720);
    w.show();
    w.setSentence("I want to go to the station");
    waitForResults(w);
    w.setSentence("she says that the old train arrives today");  // another length
    waitForResults(w);
    HeatmapPanel* last = w.grid()->panel(12, 3);
    ASSERT_NE(last, nullptr);
    // The layout settled (queued resizes done): the same size twice in a row.
    ASSERT_TRUE(waitUntil([&] {
        const QSize before = last->size();
        QTest::qWait(30);
        return last->size() == before && before.height() >= last->minimumSizeHint().height();
    }));
    EXPECT_TRUE(last->visibleRegion().isEmpty());          // off screen at this size
    EXPECT_TRUE(last->layoutPending());                    // resized and reshaped, not laid out
    EXPECT_FALSE(w.grid()->panel(0, 0)->layoutPending());  // on screen: laid out at once
    const QImage lazy = last->grab().toImage();
    EXPECT_FALSE(last->layoutPending());  // painting laid it out first
    const QRect map = last->plot()->axisRect()->rect();
    EXPECT_NEAR(double(map.width()) / last->matrix().cols(),
                double(map.height()) / last->matrix().rows(), 1.0)
        << "square cells";
    last->redrawNow();
    const QImage forced = last->grab().toImage();
    EXPECT_TRUE(lazy == forced);
    EXPECT_EQ(last->matrix().rows(), 9);  // the second sentence: 8 words + <eos>
}

// The Show modes (issue 15): differences from the first column on a signed scale, rollout
// as one panel per model, residuals from the Gaussian fit; lines give way to heatmaps for
// signed tables; the figure export draws what is shown.
TEST(MainWindow, ShowsDifferencesRolloutAndFitResiduals) {
    MainWindow w;
    w.setColumns({column("dot", "dot"), column("gaussian", "gauss"), column("dense", "dense")});
    w.show();
    w.setSentence("I want to go to the station");
    waitForResults(w);
    // The sentence's results, not an earlier request's (a loaded machine can deliver those
    // late): the comparisons below read them twice.
    ASSERT_TRUE(waitUntil([&] {
        const auto r = w.workspace()->results();
        return !w.runner()->busy() && r && r->size() == 3 &&
               (*r)[0].analysis.sourceText == "I want to go to the station";
    }));
    ViewState v = w.view();
    v.show = TableKind::Difference;
    v.lines = true;
    w.setView(v);
    ASSERT_EQ(w.grid()->columnCount(), 2);      // gauss − dot, dense − dot
    ASSERT_NE(w.grid()->panel(0, 0), nullptr);  // a heatmap despite the lines view
    const Selection weights = selectTables(w.workspace()->results(), ViewState{}.request());
    const Mat want = *weights.columns[1].tables[2].weights - *weights.columns[0].tables[2].weights;
    EXPECT_EQ(w.grid()->panel(0, 2)->matrix(), want);
    EXPECT_TRUE(w.colorBar()->isVisibleTo(&w));
    const QString svg = QDir::temp().filePath("attnviz-difference.svg");
    QString error;
    ASSERT_TRUE(w.exportFigure(svg, &error)) << error.toStdString();
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.readAll().contains("gauss − dot"));

    v.show = TableKind::Rollout;
    v.lines = false;
    w.setView(v);
    ASSERT_EQ(w.grid()->columnCount(), 3);
    ASSERT_EQ(w.grid()->rowCount(), 1);
    const Mat& r = w.grid()->panel(0, 0)->matrix();
    for (Eigen::Index i = 0; i < r.rows(); ++i) EXPECT_NEAR(r.row(i).sum(), 1.0, 1e-5);

    v.show = TableKind::FitResidual;
    w.setView(v);
    EXPECT_LT(w.grid()->panel(1, 0)->matrix().cwiseAbs().maxCoeff(), 1e-3);  // a Gaussian head

    // Nothing to draw is said where the panels would be, not left blank.
    v.show = TableKind::Rollout;
    v.kind = BlockKind::Cross;
    w.setView(v);
    auto* empty = w.grid()->findChild<QLabel*>("emptyGridMessage");
    ASSERT_NE(empty, nullptr);
    EXPECT_TRUE(empty->isVisibleTo(&w));
    EXPECT_NE(empty->text().indexOf("self-attention"), -1) << empty->text().toStdString();
    v.kind = BlockKind::EncoderSelf;
    w.setView(v);
    EXPECT_FALSE(empty->isVisibleTo(&w));
}

// The Heads dock follows the window's results, and activating a head shows its model in
// the Focus layout at that block.
TEST(MainWindow, HeadsDockFollowsTheSentenceAndShowsTheClickedHead) {
    MainWindow w;
    w.setColumns({column("dot", "dot"), column("gaussian", "gauss")});
    w.show();
    w.findChild<QDockWidget*>("heads")->raise();  // hidden behind a tab it computes nothing
    w.setSentence("I want to go to the station");
    waitForResults(w);
    ASSERT_TRUE(waitUntil([&] { return !w.heads()->busy() && w.heads()->headCount() > 0; }));
    // The heads of the view's block and layer: what the grid shows, and all that typing fits.
    int heads = 0;
    for (const auto& r : *w.workspace()->results())
        for (const auto& b : r.analysis.blocks)
            if (b.kind == w.view().kind && b.layer == w.view().layer) heads += b.heads;
    EXPECT_EQ(w.heads()->headCount(), heads);
    EXPECT_EQ(w.workspace()->stats()->computedCount(), heads);  // shared, each once
    emit w.heads()->headActivated(1, BlockKind::DecoderSelf, 1, 2);
    const ViewState v = w.view();
    EXPECT_EQ(v.allLayersOf, 1);
    EXPECT_EQ(v.kind, BlockKind::DecoderSelf);
    EXPECT_EQ(v.layer, 1);
    ASSERT_NE(w.grid()->panel(1, 2), nullptr);  // layer 1, head 2 of gauss
}

// Docks hidden behind other tabs cost nothing per edit: no head is fitted while both the Heads
// and the Offset profiles docks are hidden; raising one fits the view's heads once, and the
// other, raised next, shares them (nothing computed twice).
TEST(MainWindow, HiddenAnalysisDocksComputeNothingAndShareTheirFits) {
    MainWindow w;
    w.setColumns({column("dot", "dot"), column("gaussian", "gauss")});
    w.show();
    w.findChild<QDockWidget*>("variant")->raise();
    waitForResults(w);
    QTest::qWait(100);  // the dock area laid out: the other tabs hidden
    for (const char* s : {"I want to go", "I want to go to the station"}) {
        w.setSentence(s);
        waitForResults(w);
        QTest::qWait(50);
        EXPECT_EQ(w.workspace()->stats()->computedCount(), 0) << s;
    }
    const int viewHeads = int(w.workspace()->stats()->heads(w.view().kind, w.view().layer).size());
    ASSERT_EQ(viewHeads, 8);  // 2 models x 4 heads of encoder self-attention, layer 0
    w.findChild<QDockWidget*>("heads")->raise();
    ASSERT_TRUE(waitUntil([&] { return !w.heads()->busy() && w.heads()->headCount() == 8; }));
    EXPECT_EQ(w.workspace()->stats()->computedCount(), viewHeads);
    w.findChild<QDockWidget*>("offsets")->raise();
    OffsetProfileView* v = w.offsetProfiles();
    ASSERT_TRUE(waitUntil([&] { return !v->busy() && !v->charts().charts.empty(); }));
    EXPECT_EQ(w.workspace()->stats()->computedCount(), viewHeads);  // shared, not refitted
}

// The offset-profile dock follows the sentence and the view's block: a chart per head, a
// hard-coded head's fit R² 1 in its title.
TEST(MainWindow, OffsetProfilesFollowTheSentenceAndTheBlock) {
    MainWindow w;
    w.setColumns({column("dot", "dot"), column("gaussian", "gauss")});
    w.show();
    w.findChild<QDockWidget*>("offsets")->raise();
    w.setSentence("I want to go to the station");
    waitForResults(w);
    OffsetProfileView* v = w.offsetProfiles();
    ASSERT_TRUE(waitUntil([&] { return !v->busy() && !v->charts().charts.empty(); }));
    ASSERT_EQ(v->charts().charts.size(), 8u);  // 4 heads of 2 models, encoder layer 0
    EXPECT_NE(v->charts().charts[4].title.find("gauss · head 1"), std::string::npos);
    EXPECT_NE(v->charts().charts[4].title.find("R² 1.00"), std::string::npos);
    // What is shown is the charts drawn (off the UI thread, or at the paint when the view's
    // size changed since), pixel for pixel; a new font draws them again.
    auto drawn = [&] {
        return ChartView::draw(v->charts(), v->style(), v->size(), v->devicePixelRatioF())
            .convertToFormat(QImage::Format_RGB32);
    };
    EXPECT_EQ(v->grab().toImage().convertToFormat(QImage::Format_RGB32), drawn());
    QFont bigger = v->font();
    bigger.setPointSizeF(bigger.pointSizeF() * 1.5);
    v->setFont(bigger);
    const QImage again = v->grab().toImage().convertToFormat(QImage::Format_RGB32);
    EXPECT_EQ(again, drawn());
    // A font changed while the charts are being computed (and drawn in the old one): right
    // after the dock started its job for the new statistics (connected after the dock).
    const QFont during(bigger.family(), int(bigger.pointSizeF()) + 3);
    auto c = QObject::connect(w.workspace(), &WorkspaceModel::statsChanged, v, [&] {
        EXPECT_TRUE(v->busy());
        v->setFont(during);
    });
    w.setSentence("I want to go to the old station");
    ASSERT_TRUE(waitUntil([&] { return v->font() == during && !v->busy(); }));
    QObject::disconnect(c);
    EXPECT_EQ(v->grab().toImage().convertToFormat(QImage::Format_RGB32), drawn());
    w.setBlock(BlockKind::Cross, 1);
    ASSERT_TRUE(waitUntil(
        [&] { return !v->busy() && v->charts().title.find("cross L2") != std::string::npos; }));
}

// The Variant panel keeps its column while columns are added (the list reallocates): editing
// afterwards reconfigures that model (under ASan this once read freed memory).
TEST(MainWindow, VariantEditsSurviveColumnsBeingAdded) {
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors")});
    w.resize(1400, 900);
    w.show();
    w.setSentence("I want to go to the station");
    waitForResults(w);
    clickQueryLabel(w.grid()->panel(1, 0), 3);
    for (int i = 0; i < 6; ++i) w.addColumn(bundled("01-dot.safetensors"));
    waitForResults(w);
    auto* sigma = qobject_cast<QDoubleSpinBox*>(w.variantPanel()->editor("sigma"));
    ASSERT_NE(sigma, nullptr);
    sigma->setValue(2.0);
    waitForResults(w);
    EXPECT_DOUBLE_EQ(w.columns()[1].model->config().encoderSelf.number("sigma"), 2.0);
}

// A table of one row (an early probe snapshot decodes only <bos>) draws its cells: QCPColorMap
// gives a one-cell side no extent unless the panel widens it.
TEST(HeatmapPanel, OneRowTablesDrawTheirCells) {
    SelectedTable t;
    Mat m(1, 3);
    m << 0.0f, 1.0f, 0.0f;
    t.weights = std::make_shared<const Mat>(m);
    t.queries = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"<bos>"});
    t.keys =
        std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a", "b", "c"});
    t.scaleMax = 1;
    HeatmapPanel p;
    p.resize(400, 300);
    p.setTable(t);
    p.show();
    p.plot()->replot();
    const QImage img = p.grab().toImage();
    const QRect r = p.plot()->axisRect()->rect();
    // The middle cell (weight 1) is the colour map's top (viridis: yellow), the others its
    // bottom (dark purple): sample across the row's centre line.
    const int y = r.center().y();
    const QColor mid = img.pixelColor(r.left() + r.width() / 2, y);
    const QColor left = img.pixelColor(r.left() + r.width() / 6, y);
    EXPECT_GT(mid.red() + mid.green(), 300) << mid.name().toStdString();
    EXPECT_LT(left.green(), 80) << left.name().toStdString();
}

// The watched folder stays in sight (a permanent status-bar item) until File › Stop watching.
TEST(MainWindow, TheWatchedFolderIsShownUntilStopped) {
    MainWindow w;
    w.show();
    QTemporaryDir dir;
    QString error;
    ASSERT_TRUE(w.watchFolder(dir.path(), &error)) << error.toStdString();
    QLabel* item = nullptr;
    for (auto* l : w.statusBar()->findChildren<QLabel*>())
        if (l->text().startsWith("Watching ")) item = l;
    ASSERT_NE(item, nullptr);
    EXPECT_TRUE(item->isVisibleTo(&w));
    w.stopWatching();
    EXPECT_FALSE(item->isVisibleTo(&w));
    EXPECT_TRUE(w.watchedFolder().isEmpty());
}
