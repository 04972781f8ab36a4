// SPDX-License-Identifier: GPL-3.0-or-later
// What the app keeps per model, and nothing lost of it (issue 27, items 13-15): edited
// settings go back to the checkpoint's with "Reset to trained values"; scrolling past a spin
// or combo box changes nothing (real, spontaneous wheel events, which give a control the
// focus before any filter sees them); Focus and the current column follow their model when
// columns move, are reordered, added or removed; and models trained here and not saved are
// offered for saving before a workspace, a quit or another model set would lose them.
#include <QtTest/qtestspontaneevent.h>
#include <gtest/gtest.h>

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include "tests/ui/wait.h"
#include "ui/comparison_grid.h"
#include "ui/heatmap_panel.h"
#include "ui/main_window.h"
#include "ui/model_picker.h"
#include "ui/profile_plot.h"
#include "ui/training_dock.h"
#include "ui/variant_panel.h"
#include "ui/view_controls.h"
#include "ui/workspace_model.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const QString kModels = ATTNVIZ_MODELS_DIR;
const char* kSentence = "I want to go to the station";

ModelColumn bundled(const QString& file) {
    return loadModelColumn((kModels + "/" + file).toStdString());
}

// A model with no file, as if trained in the app.
ModelColumn trainedHere(const std::string& configName, const std::string& name) {
    const ModelConfig cfg =
        ModelConfig::fromFile(std::string(ATTNVIZ_TEST_DATA) + "/configs/" + configName + ".json");
    Vocab v = Vocab::fromWords(builtinEnglishWords());
    ModelColumn c;
    c.name = name;
    c.model = std::make_shared<Model>(Model::initialize(cfg, v, v, Tokenizer(true), 1));
    c.fileConfig = c.model->config().toJson().dump();  // as TrainingDock hands it over
    return c;
}

void waitForResults(MainWindow& w) {
    QSignalSpy spy(w.runner(), &AnalysisRunner::finished);
    ASSERT_TRUE(spy.wait(20000));
    while (w.runner()->busy()) ASSERT_TRUE(spy.wait(20000));
}

// Head `head` of encoder self-attention layer 0 in a model's analysis.
Mat encoderHead(const Analysis& a, int head) {
    for (const auto& b : a.blocks)
        if (b.kind == BlockKind::EncoderSelf && b.layer == 0) return b.weights[size_t(head)];
    ADD_FAILURE() << "no enc self L0";
    return {};
}

size_t encoderHeads(const Analysis& a) {
    for (const auto& b : a.blocks)
        if (b.kind == BlockKind::EncoderSelf && b.layer == 0) return b.weights.size();
    return 0;
}

double maxDifference(const Mat& a, const Mat& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return 1e9;
    return (a - b).cwiseAbs().maxCoeff();
}

// A wheel turn as the window system delivers it: spontaneous, to the innermost widget under
// the pointer (a spin box's line edit), so that QApplication gives the focus to a control
// with Qt::WheelFocus first and propagates the event to the parents.
void realWheel(QWidget* target, int dy) {
    const QPoint at(target->width() / 2, target->height() / 2);
    QWidget* receiver = target->childAt(at) ? target->childAt(at) : target;
    const QPointF local = receiver->mapFrom(target, QPointF(at));
    QWheelEvent e(local, receiver->mapToGlobal(local), QPoint(), QPoint(0, dy), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&e);
    qApp->notify(receiver, &e);  // as QTest does: sendEvent would clear "spontaneous"
}

// With ATTNVIZ_SHOT_DIR set, `w` is also written there as NAME.png, to be looked at.
void shoot(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("ATTNVIZ_SHOT_DIR");
    if (dir.isEmpty()) return;
    w->show();
    QTest::qWait(50);
    EXPECT_TRUE(w->grab().save(dir + "/" + name + ".png"));
}

QComboBox* profileMode(MainWindow& w) {
    return w.profile()->parentWidget()->findChild<QComboBox*>();
}

}  // namespace

// Item 13: σ edited, then reset: the model, the editor and the analysis are the checkpoint's
// again, number for number (against a freshly read copy of the file).
TEST(ModelState, ResetToTrainedValuesPutsTheCheckpointsSettingsBack) {
    const std::string path = (kModels + "/09-hc-sa.safetensors").toStdString();
    MainWindow w;
    w.setColumns({bundled("01-dot.safetensors"), loadModelColumn(path)});
    w.show();
    w.setSentence(kSentence);
    waitForResults(w);
    w.selectQuery(1, 3);  // hc-sa is the current column: the Variant dock shows it
    VariantPanel* vp = w.variantPanel();
    auto* sigma = qobject_cast<QDoubleSpinBox*>(vp->editor("sigma"));
    ASSERT_NE(sigma, nullptr);
    QPushButton* reset = vp->resetButton();
    EXPECT_TRUE(reset->isVisibleTo(vp));
    EXPECT_FALSE(reset->isEnabled());  // nothing differs yet
    const double sigma0 = sigma->value();
    const Mat before = encoderHead((*w.workspace()->results())[1].analysis, 0);

    sigma->setValue(sigma0 + 0.7);
    waitForResults(w);
    EXPECT_TRUE(reset->isEnabled());
    shoot(vp, "variant-reset");
    EXPECT_EQ((*w.workspace()->results())[1].name, "hc-sa (modified)");
    EXPECT_GT(maxDifference(encoderHead((*w.workspace()->results())[1].analysis, 0), before), 1e-3);

    reset->click();
    waitForResults(w);
    EXPECT_FALSE(reset->isEnabled());
    auto* sigmaAgain = qobject_cast<QDoubleSpinBox*>(vp->editor("sigma"));
    ASSERT_NE(sigmaAgain, nullptr);
    EXPECT_EQ(sigmaAgain->value(), sigma0);  // the editor shows the checkpoint's value
    const ModelColumn fresh = loadModelColumn(path);
    EXPECT_EQ(w.columns()[1].model->config().toJson(), fresh.model->config().toJson());
    const ColumnResult& r = (*w.workspace()->results())[1];
    EXPECT_EQ(r.name, "hc-sa");
    EXPECT_EQ(maxDifference(encoderHead(r.analysis, 0), before), 0.0);
    const Analysis reference = fresh.model->analyze(kSentence);
    ASSERT_EQ(encoderHeads(r.analysis), encoderHeads(reference));
    for (int h = 0; h < int(encoderHeads(reference)); ++h)
        EXPECT_EQ(maxDifference(encoderHead(r.analysis, h), encoderHead(reference, h)), 0.0) << h;
    // The grid draws it: the panel's matrix is the checkpoint's map.
    EXPECT_EQ(maxDifference(w.grid()->panel(1, 0)->matrix(), encoderHead(reference, 0)), 0.0);

    // A model trained here: reset goes back to its trained settings; once saved, to the file's.
    ModelColumn trained = trainedHere("gaussian", "gauss · trained here");
    w.addColumn(trained);
    waitForResults(w);
    w.selectQuery(2, 3);
    auto* s = qobject_cast<QDoubleSpinBox*>(vp->editor("sigma"));
    ASSERT_NE(s, nullptr);
    const double trainedSigma = s->value();
    s->setValue(trainedSigma + 1.0);
    EXPECT_TRUE(reset->isEnabled());
    reset->click();
    EXPECT_EQ(trained.model->config().toJson().dump(), trained.fileConfig);
    waitForResults(w);
}

// Item 13: every spin and combo box of the Variant and Training docks ignores a real wheel
// until it has the focus; the test's wheel gives the focus the way Qt does (shown first on
// a control left at Qt::WheelFocus).
TEST(ModelState, ARealWheelChangesNoSpinOrComboBoxOfTheDocksUntilClicked) {
    MainWindow w;
    w.resize(1400, 900);
    w.setColumns({bundled("09-hc-sa.safetensors")});
    w.show();
    w.setSentence(kSentence);
    waitForResults(w);
    w.selectQuery(0, 3);
    QTest::qWait(50);
    int checked = 0;
    for (const char* name : {"variant", "training"}) {
        auto* dock = w.findChild<QDockWidget*>(name);
        ASSERT_NE(dock, nullptr) << name;
        dock->show();
        dock->raise();
        QTest::qWait(50);
        for (QWidget* c : dock->findChildren<QWidget*>()) {
            auto* spin = qobject_cast<QAbstractSpinBox*>(c);
            auto* combo = qobject_cast<QComboBox*>(c);
            if ((!spin && !combo) || !c->isVisible() || !c->isEnabled()) continue;
            ++checked;
            EXPECT_NE(c->focusPolicy(), Qt::WheelFocus)
                << name << " " << c->metaObject()->className();
            w.sourceEdit()->setFocus();
            const QString text = spin ? spin->text() : combo->currentText();
            realWheel(c, 120);
            realWheel(c, -240);
            EXPECT_FALSE(c->hasFocus()) << name << " " << c->metaObject()->className();
            EXPECT_EQ(spin ? spin->text() : combo->currentText(), text)
                << name << " " << c->metaObject()->className();
        }
    }
    EXPECT_GE(checked, 5);  // σ, the offsets' count, task, variant, size, steps, …
    // σ clicked: the wheel is its own.
    w.findChild<QDockWidget*>("variant")->raise();  // the docks may share a tab strip
    QTest::qWait(50);
    auto* sigma = qobject_cast<QDoubleSpinBox*>(w.variantPanel()->editor("sigma"));
    ASSERT_NE(sigma, nullptr);
    const double sigma0 = sigma->value();
    sigma->setFocus();
    realWheel(sigma, 120);
    EXPECT_NE(sigma->value(), sigma0);
    // What the guard prevents: a control left at Qt::WheelFocus takes the focus from the wheel
    // itself, and then the value changes (so the checks above can fail).
    sigma->setFocusPolicy(Qt::WheelFocus);
    w.sourceEdit()->setFocus();
    const double sigma1 = sigma->value();
    realWheel(sigma, 120);
    EXPECT_TRUE(sigma->hasFocus());
    EXPECT_NE(sigma->value(), sigma1);
    waitForResults(w);
}

// Item 14: Focus on a model, then its column moved, the columns reordered with the picker,
// another added and removed: Focus, the query profile, the Variant dock and the current
// column stay with that model, at once (before the new analysis) and after it.
TEST(ModelState, FocusAndTheCurrentColumnFollowTheirModel) {
    MainWindow w;
    w.resize(1400, 900);
    w.setColumns({bundled("01-dot.safetensors"), bundled("09-hc-sa.safetensors"),
                  bundled("02-dense.safetensors")});
    w.show();
    w.setSentence(kSentence);
    waitForResults(w);
    const auto hc = w.columns()[1].model;
    const Analysis reference = hc->analyze(kSentence);
    profileMode(w)->setCurrentIndex(1);  // one line per head of the clicked model
    w.showHead(1, BlockKind::EncoderSelf, 0, 0);
    w.selectQuery(1, 3);
    auto focusIsHcSa = [&](const char* when) {
        SCOPED_TRACE(when);
        int at = -1;
        for (int c = 0; c < int(w.columns().size()); ++c)
            if (w.columns()[size_t(c)].model == hc) at = c;
        ASSERT_GE(at, 0);
        EXPECT_EQ(w.view().allLayersOf, at);
        EXPECT_EQ(w.workspace()->currentColumn(), at);
        ASSERT_NE(w.grid()->header(0), nullptr);
        EXPECT_NE(w.grid()->header(0)->text().indexOf("hc-sa"), -1)
            << w.grid()->header(0)->text().toStdString();
        ASSERT_NE(w.grid()->panel(0, 0), nullptr);
        EXPECT_EQ(maxDifference(w.grid()->panel(0, 0)->matrix(), encoderHead(reference, 0)), 0.0);
        EXPECT_NE(w.profile()->caption().indexOf("hc-sa"), -1)
            << w.profile()->caption().toStdString();
        // A line per head, identical ones (HC-SA's heads of the same offset) drawn once.
        const Profile profile = w.workspace()->profile(at);
        EXPECT_EQ(profile.lines.size(), encoderHeads(reference));
        EXPECT_EQ(w.profile()->lineCount(), int(ProfilePlot::coincident(profile).size()));
        EXPECT_TRUE(w.variantPanel()->text().startsWith("<b>hc-sa</b>"));
    };
    focusIsHcSa("focused");
    w.moveColumn(1, -1);  // hc-sa first
    focusIsHcSa("moved, before the analysis");
    waitForResults(w);
    focusIsHcSa("moved");
    EXPECT_EQ(w.columns()[0].model, hc);
    // The picker: the shown models reversed (dense, dot, hc-sa).
    w.setPickModels([](ModelPicker& picker) {
        QListWidget* list = picker.list();
        list->insertItem(0, list->takeItem(2));
        list->insertItem(1, list->takeItem(2));
        return true;
    });
    w.chooseModels();
    ASSERT_EQ(w.columns().size(), 3u);
    EXPECT_EQ(w.columns()[2].model, hc);
    focusIsHcSa("reordered, before the analysis");
    waitForResults(w);
    focusIsHcSa("reordered");
    w.addColumn(bundled("12-local.safetensors"));
    waitForResults(w);
    focusIsHcSa("added");
    // A model added before it (as the picker does): whenever the columns or the view are
    // announced, Focus's result is already that model's, never the one now in its old place.
    int announced = 0;
    auto resultsFollow = [&] {
        ++announced;
        const int at = w.view().allLayersOf;
        ASSERT_GE(at, 0);
        ASSERT_LT(at, int(w.workspace()->results()->size()));
        EXPECT_EQ((*w.workspace()->results())[size_t(at)].name, w.columns()[size_t(at)].name);
    };
    const auto c1 = QObject::connect(w.workspace(), &WorkspaceModel::columnsChanged, resultsFollow);
    const auto c2 = QObject::connect(w.workspace(), &WorkspaceModel::viewChanged, resultsFollow);
    std::vector<ModelColumn> before = w.columns();
    before.insert(before.begin(), bundled("03-random.safetensors"));
    w.setColumns(before);
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    EXPECT_GE(announced, 2);  // the columns, and Focus moved
    focusIsHcSa("one added before it, before the analysis");
    waitForResults(w);
    focusIsHcSa("one added before it");
    w.removeColumn(0);
    waitForResults(w);
    w.removeColumn(0);  // dense
    focusIsHcSa("another removed, before the analysis");
    waitForResults(w);
    focusIsHcSa("another removed");
    // Its own column closed: Focus ends, nothing is current.
    w.removeColumn(1);
    waitForResults(w);
    EXPECT_EQ(w.view().allLayersOf, -1);
    EXPECT_EQ(w.workspace()->currentColumn(), -1);
    EXPECT_EQ(w.grid()->columnCount(), 2);
    EXPECT_TRUE(w.variantPanel()->text().startsWith("Click a panel"));
}

// Item 15: saving a workspace with a model trained here offers to save it; "Save models…"
// writes it as Training › Save model… does and the workspace file names it; Cancel and a
// cancelled file dialog change nothing; quitting offers the same.
TEST(ModelState, SavingAWorkspaceOffersToSaveTheModelsTrainedHere) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindow w;
    const ModelColumn trained = trainedHere("gaussian", "gauss · trained here");
    w.setColumns({bundled("01-dot.safetensors"), trained});
    w.setSentence(kSentence);
    waitForResults(w);
    QStringList texts, goOn;
    UnsavedPrompt::Choice answer = UnsavedPrompt::Cancel;
    w.setAskUnsaved([&](UnsavedPrompt& p) {
        texts << p.windowTitle() + ": " + p.text();
        goOn << p.goOnButton()->text();
        EXPECT_EQ(p.defaultButton(), p.saveButton());
        if (texts.size() == 1) shoot(&p, "unsaved-prompt");
        return answer;
    });
    QStringList suggested;
    QString savePath;  // "" = the file dialog cancelled
    w.training()->setChoosePath([&](const QString& s) {
        suggested << s;
        return savePath;
    });
    // Cancel: nothing saved, the workspace not written.
    EXPECT_FALSE(w.confirmUnsavedLeftOut());
    ASSERT_EQ(texts.size(), 1);
    EXPECT_NE(texts[0].indexOf("1 model(s) trained here are not saved"), -1);
    EXPECT_NE(texts[0].indexOf("left out"), -1);
    EXPECT_EQ(goOn[0], "Save &without them");
    EXPECT_TRUE(suggested.isEmpty());
    // Save models…, the file dialog cancelled: still unsaved, not saved either.
    answer = UnsavedPrompt::SaveThem;
    EXPECT_FALSE(w.confirmUnsavedLeftOut());
    EXPECT_EQ(suggested, QStringList{"gauss.safetensors"});
    EXPECT_EQ(w.unsavedColumns(), 1);
    // An unwritable place: the reason is said, nothing claimed.
    savePath = dir.filePath("no-such-folder/gauss.safetensors");
    EXPECT_FALSE(w.confirmUnsavedLeftOut());
    EXPECT_EQ(w.unsavedColumns(), 1);
    // Saved: the checkpoint holds the model, and the workspace names it.
    savePath = dir.filePath("gauss.safetensors");
    ASSERT_TRUE(w.confirmUnsavedLeftOut());
    EXPECT_EQ(w.unsavedColumns(), 0);
    EXPECT_EQ(w.columns()[1].path, savePath.toStdString());
    const ModelColumn back = loadModelColumn(savePath.toStdString());
    const Analysis a = back.model->analyze(kSentence), b = trained.model->analyze(kSentence);
    for (int h = 0; h < 4; ++h)
        EXPECT_EQ(maxDifference(encoderHead(a, h), encoderHead(b, h)), 0.0) << h;
    const QString workspace = dir.filePath("work.attnviz.json");
    QString error;
    ASSERT_TRUE(w.saveSession(workspace, &error)) << error.toStdString();
    QFile f(workspace);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QJsonArray listed = QJsonDocument::fromJson(f.readAll()).object()["columns"].toArray();
    ASSERT_EQ(listed.size(), 2);
    // Beside the workspace file: named relative to it (core/session_file.h), so the folder
    // can be moved whole.
    EXPECT_EQ(listed[1].toString(), "gauss.safetensors");
    Session reopened;
    ASSERT_TRUE(Session::load(workspace, &reopened, &error)) << error.toStdString();
    EXPECT_EQ(reopened.columns[1], savePath);
    // Nothing unsaved any more: no question.
    EXPECT_TRUE(w.confirmUnsavedLeftOut());
    EXPECT_EQ(texts.size(), 4);

    // "Save without them": the workspace leaves the new one out, as before.
    w.addColumn(trainedHere("dot", "dot · trained here"));
    answer = UnsavedPrompt::GoOn;
    EXPECT_TRUE(w.confirmUnsavedLeftOut());
    EXPECT_EQ(w.session().columns.size(), 2);
    // Quitting offers the same; saved, the window closes.
    answer = UnsavedPrompt::SaveThem;
    savePath = dir.filePath("dot.safetensors");
    w.show();
    EXPECT_TRUE(w.close());
    EXPECT_EQ(goOn.last(), "&Quit without saving");
    EXPECT_TRUE(QFile::exists(savePath));
    QSettings().clear();  // closing stored this window's layout; later tests start afresh
}

// Item 15: several unsaved models are saved with one folder dialog, not a file dialog each;
// names already taken (on disk, or by one of them) get "-2", "-3": nothing is overwritten.
TEST(ModelState, SeveralUnsavedModelsAreSavedIntoOneFolder) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    {
        QFile taken(dir.filePath("gauss.safetensors"));  // someone else's file
        ASSERT_TRUE(taken.open(QIODevice::WriteOnly));
        taken.write("keep me");
    }
    MainWindow w;
    w.setColumns({trainedHere("gaussian", "gauss · trained here"),
                  trainedHere("dot", "dot · trained here"),
                  trainedHere("gaussian", "gauss · trained here, again")});
    w.setAskUnsaved([](UnsavedPrompt&) { return UnsavedPrompt::SaveThem; });
    int fileDialogs = 0;
    QList<int> folderDialogs;
    QString folder;  // "" = the folder dialog cancelled
    w.training()->setChoosePath([&](const QString&) {
        ++fileDialogs;
        return QString();
    });
    w.training()->setChooseFolder([&](int models) {
        folderDialogs << models;
        return folder;
    });
    // Cancelled: nothing written, all three still unsaved.
    EXPECT_FALSE(w.confirmUnsavedLeftOut());
    EXPECT_EQ(folderDialogs, QList<int>{3});
    EXPECT_EQ(w.unsavedColumns(), 3);
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    // Chosen: one dialog in all, three files, the other file untouched.
    folder = dir.path();
    ASSERT_TRUE(w.confirmUnsavedLeftOut());
    EXPECT_EQ(fileDialogs, 0);
    EXPECT_EQ(folderDialogs, (QList<int>{3, 3}));
    EXPECT_EQ(w.unsavedColumns(), 0);
    EXPECT_EQ(w.columns()[0].path, dir.filePath("gauss-2.safetensors").toStdString());
    EXPECT_EQ(w.columns()[1].path, dir.filePath("dot.safetensors").toStdString());
    EXPECT_EQ(w.columns()[2].path, dir.filePath("gauss-3.safetensors").toStdString());
    QFile taken(dir.filePath("gauss.safetensors"));
    ASSERT_TRUE(taken.open(QIODevice::ReadOnly));
    EXPECT_EQ(taken.readAll(), QByteArray("keep me"));
    for (const char* f : {"gauss-2.safetensors", "dot.safetensors", "gauss-3.safetensors"})
        EXPECT_NO_THROW(loadModelColumn(dir.filePath(f).toStdString())) << f;
}

// Item 15: switching the model set offers it too; Cancel keeps the set and its models.
TEST(ModelState, SwitchingSetsOffersToSaveTheModelsTrainedHere) {
    QTemporaryDir dir;
    MainWindow w;
    w.setColumns({trainedHere("dot", "dot · trained here")});
    QStringList goOn;
    UnsavedPrompt::Choice answer = UnsavedPrompt::Cancel;
    w.setAskUnsaved([&](UnsavedPrompt& p) {
        goOn << p.goOnButton()->text();
        return answer;
    });
    w.training()->setChoosePath([&](const QString&) { return dir.filePath("dot.safetensors"); });
    EXPECT_FALSE(w.chooseModelSet("toy"));
    EXPECT_EQ(w.columns().size(), 1u);
    ASSERT_EQ(goOn.size(), 1);
    EXPECT_EQ(goOn[0], "S&witch without saving");
    answer = UnsavedPrompt::SaveThem;
    EXPECT_TRUE(w.chooseModelSet("toy"));
    EXPECT_TRUE(QFile::exists(dir.filePath("dot.safetensors")));
    EXPECT_GT(w.columns().size(), 1u);
    waitForResults(w);
}
