// SPDX-License-Identifier: GPL-3.0-or-later
// The Over-training dock with snapshots of real (tiny) training runs, offscreen: a slider
// position per snapshot, each panel the recorded weights of the chosen block, layer and head
// (compared with the record itself), the mean of heads and other blocks from the view, a
// probe file opened (and a garbage one refused, the record kept), a filmstrip figure, live
// snapshots from the Training tab that the slider follows until moved.
#include "ui/film_dock.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <fstream>

#include "core/training_job.h"
#include "tests/ui/wait.h"
#include "ui/heatmap_panel.h"
#include "ui/training_dock.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

const char* kProbe = "a b c d e";

// A tiny copy model trained `steps` steps, its probe recorded every `every` steps.
JobSpec tinySpec(int steps, int every) {
    JobSpec s;
    s.configJson = nlohmann::json::parse(R"({"d_model": 32, "heads": 2, "d_ff": 64,
        "enc_layers": 1, "dec_layers": 1, "max_len": 16})");
    s.task = "copy";
    s.train.steps = steps;
    s.train.lr = 3e-3;
    s.train.warmup = 5;
    s.train.seed = 7;
    s.heldOutCount = 10;
    s.probeEvery = every;
    s.probeSource = kProbe;
    s.name = "tiny copy";
    return s;
}

struct TinyRun {
    ProbeRecord record;
    ModelConfig config;
};

TinyRun trainTiny(int steps, int every) {
    TrainingJob job(tinySpec(steps, every));
    job.run(nullptr);
    return {job.probe()->record(), job.model().config()};
}

// The shared run: 20 steps, a snapshot every 5 (steps 0, 5, 10, 15, 20).
const TinyRun& run20() {
    static const TinyRun r = trainTiny(20, 5);
    return r;
}

const CapturedBlock& blockOf(const Analysis& a, BlockKind kind, int layer = 0) {
    for (const auto& b : a.blocks)
        if (b.kind == kind && b.layer == layer) return b;
    throw std::runtime_error("no such block in the snapshot");
}
const CapturedBlock& blockOf(const ProbeSnapshot& s, BlockKind kind, int layer = 0) {
    return blockOf(s.analysis, kind, layer);
}

QString tempPath(const std::string& name) {
    return QString::fromStdString(::testing::TempDir() + name);
}

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// Moves the slider through every snapshot: the step and each head's matrix follow the record.
void expectScrubs(FilmDock& dock, const ProbeRecord& r, BlockKind kind) {
    ASSERT_EQ(dock.slider()->maximum(), int(r.snapshots.size()) - 1);
    for (int k = int(r.snapshots.size()) - 1; k >= 0; --k) {
        dock.slider()->setValue(k);
        const ProbeSnapshot& s = r.snapshots[size_t(k)];
        EXPECT_EQ(dock.currentStep(), s.step);
        const CapturedBlock& b = blockOf(s, kind);
        for (int h = 0; h < b.heads; ++h) {
            ASSERT_NE(dock.panel(h), nullptr) << "step " << s.step << " head " << h;
            EXPECT_EQ(dock.panel(h)->matrix(), b.weights[size_t(h)])
                << "step " << s.step << " head " << h;
        }
        EXPECT_EQ(dock.panel(b.heads), nullptr);
        EXPECT_NE(dock.caption()->text().indexOf(
                      QString("step %1 (%2/%3)").arg(s.step).arg(k + 1).arg(r.snapshots.size())),
                  -1)
            << dock.caption()->text().toStdString();
    }
}

}  // namespace

TEST(FilmDock, ASliderPositionPerSnapshotAndEachPanelItsWeights) {
    const ProbeRecord& r = run20().record;
    ASSERT_EQ(r.snapshots.size(), 5u);
    FilmDock dock;
    dock.resize(900, 400);
    dock.show();
    EXPECT_EQ(dock.currentStep(), -1);
    EXPECT_EQ(dock.panel(0), nullptr);
    dock.setRecord(r);
    EXPECT_EQ(dock.currentStep(), 20);  // the last snapshot first
    EXPECT_EQ(dock.slider()->value(), 4);
    expectScrubs(dock, r, BlockKind::EncoderSelf);
    // The weights change over training (the slider shows something).
    EXPECT_NE(blockOf(r.snapshots.front(), BlockKind::EncoderSelf).weights[0],
              blockOf(r.snapshots.back(), BlockKind::EncoderSelf).weights[0]);
    EXPECT_NE(dock.panel(0)->title().indexOf("head 1"), -1) << dock.panel(0)->title().toStdString();
    EXPECT_NE(dock.panel(1)->title().indexOf("head 2"), -1);  // heads counted from 1
}

TEST(FilmDock, OpensAProbeFileAndRefusesGarbageKeepingItsRecord) {
    const TinyRun& run = run20();
    const QString good = tempPath("tiny.probe.json");
    {
        std::ofstream out(good.toStdString(), std::ios::binary);
        out << probeJson(run.record, run.config);
    }
    FilmDock dock;
    QString error;
    ASSERT_TRUE(dock.openFile(good, &error)) << error.toStdString();
    EXPECT_EQ(dock.record().model, "tiny copy");
    EXPECT_EQ(dock.record().source, kProbe);
    EXPECT_EQ(dock.currentStep(), 20);
    expectScrubs(dock, run.record, BlockKind::EncoderSelf);  // weights read back exactly

    const QString garbage = tempPath("garbage.probe.json");
    {
        std::ofstream out(garbage.toStdString(), std::ios::binary);
        out << "\x01\x02 not json {";
    }
    dock.slider()->setValue(2);
    EXPECT_FALSE(dock.openFile(garbage, &error));
    EXPECT_NE(error.indexOf(garbage), -1) << error.toStdString();
    EXPECT_FALSE(dock.openFile(tempPath("missing.probe.json"), &error));
    EXPECT_NE(error.indexOf("missing.probe.json"), -1) << error.toStdString();
    // Still the previous record, at the same place.
    EXPECT_EQ(dock.record().snapshots.size(), 5u);
    EXPECT_EQ(dock.currentStep(), 10);
    ASSERT_NE(dock.panel(0), nullptr);
    EXPECT_EQ(dock.panel(0)->matrix(),
              blockOf(run.record.snapshots[2], BlockKind::EncoderSelf).weights[0]);
}

TEST(FilmDock, TheViewChoosesMeanOfHeadsAndTheBlock) {
    const ProbeRecord& r = run20().record;
    FilmDock dock;
    dock.setRecord(r);
    dock.slider()->setValue(3);
    ViewState v;
    v.meanHeads = true;
    dock.setView(v);
    ASSERT_NE(dock.panel(0), nullptr);
    EXPECT_EQ(dock.panel(1), nullptr);  // one panel: the mean
    const CapturedBlock& enc = blockOf(r.snapshots[3], BlockKind::EncoderSelf);
    const Mat mean = (enc.weights[0] + enc.weights[1]) / 2;
    EXPECT_TRUE(dock.panel(0)->matrix().isApprox(mean, 1e-6));
    EXPECT_NE(dock.panel(0)->title().indexOf("mean"), -1);

    v.meanHeads = false;
    v.kind = BlockKind::Cross;
    dock.setView(v);
    EXPECT_EQ(dock.currentStep(), 15);  // the same snapshot
    EXPECT_NE(dock.panel(0)->title().indexOf("cross"), -1) << dock.panel(0)->title().toStdString();
    expectScrubs(dock, r, BlockKind::Cross);

    // A layer the model does not have: the panel says so.
    v.layer = 3;
    dock.setView(v);
    ASSERT_NE(dock.panel(0), nullptr);
    EXPECT_FALSE(dock.panel(0)->message().isEmpty());
}

TEST(FilmDock, ExportsAFilmstripAndSpacesItsSteps) {
    FilmDock dock;
    QString error;
    EXPECT_FALSE(dock.exportFilmstrip(tempPath("none.svg"), {0}, &error));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_TRUE(dock.filmSteps(5).empty());

    const TinyRun eleven = trainTiny(10, 1);  // steps 0 … 10
    dock.setRecord(eleven.record);
    ASSERT_EQ(dock.record().snapshots.size(), 11u);
    const std::vector<int> steps = dock.filmSteps(5);
    ASSERT_EQ(steps.size(), 5u);
    EXPECT_EQ(steps.front(), 0);
    EXPECT_EQ(steps.back(), 10);
    EXPECT_TRUE(std::is_sorted(steps.begin(), steps.end()) &&
                std::adjacent_find(steps.begin(), steps.end()) == steps.end());
    EXPECT_EQ(dock.filmSteps(20).size(), 11u);  // never more frames than snapshots

    const QString svg = tempPath("filmstrip.svg");
    ASSERT_TRUE(dock.exportFilmstrip(svg, steps, &error)) << error.toStdString();
    const QString text = readAll(svg);
    EXPECT_NE(text.indexOf("step 0"), -1);
    EXPECT_NE(text.indexOf("step 10"), -1);
    EXPECT_EQ(text.indexOf("step 1<"), -1);  // only the chosen steps
    // A step that was not recorded, and an unknown extension: errors, no file.
    EXPECT_FALSE(dock.exportFilmstrip(tempPath("bad.svg"), {0, 4000}, &error));
    EXPECT_NE(error.indexOf("4000"), -1) << error.toStdString();
    EXPECT_FALSE(QFile::exists(tempPath("bad.svg")));
    EXPECT_FALSE(dock.exportFilmstrip(tempPath("film.doc"), steps, &error));
    EXPECT_FALSE(error.isEmpty());
}

TEST(FilmDock, LiveSnapshotsAreFollowedUntilTheSliderMoves) {
    const ProbeRecord& r = run20().record;
    FilmDock dock;
    dock.addSnapshot("run", r.source, r.every, r.snapshots[1], false);  // no live run yet
    EXPECT_EQ(dock.currentStep(), -1);
    dock.addSnapshot("run", r.source, r.every, r.snapshots[0], true);
    dock.addSnapshot("run", r.source, r.every, r.snapshots[1], false);
    dock.addSnapshot("run", r.source, r.every, r.snapshots[2], false);
    EXPECT_EQ(dock.currentStep(), 10);  // followed
    dock.slider()->setValue(0);
    dock.addSnapshot("run", r.source, r.every, r.snapshots[3], false);
    EXPECT_EQ(dock.slider()->maximum(), 3);
    EXPECT_EQ(dock.currentStep(), 0);  // the user's choice is kept
    dock.slider()->setValue(3);        // back at the end: followed again
    dock.addSnapshot("run", r.source, r.every, r.snapshots[4], false);
    EXPECT_EQ(dock.currentStep(), 20);
    dock.addSnapshot("other run", r.source, r.every, r.snapshots[4], false);
    EXPECT_EQ(dock.record().snapshots.size(), 5u);  // not the run shown
    // Opening a record ends the live one: its later snapshots are dropped.
    dock.addSnapshot("run", r.source, r.every, r.snapshots[0], true);
    dock.setRecord(r);
    dock.addSnapshot("run", r.source, r.every, r.snapshots[1], false);
    EXPECT_EQ(dock.record().snapshots.size(), 5u);
}

TEST(FilmDock, TheTrainingTabDeliversItsSnapshots) {
    TrainingDock training;
    JobSpec spec;
    spec.configJson = TrainingDock::configFor("dot", "tiny", false);
    spec.task = "copy";
    spec.train.steps = 30;
    spec.heldOutCount = 20;
    spec.probeEvery = 10;
    spec.probeSource = kProbe;
    QSignalSpy snapshots(&training, &TrainingDock::probeSnapshot);
    QSignalSpy done(&training, &TrainingDock::runFinished);
    FilmDock film;
    QObject::connect(&training, &TrainingDock::probeSnapshot, &film, &FilmDock::addSnapshot);
    QString error;
    ASSERT_TRUE(training.start(spec, "dot · copy", &error)) << error.toStdString();
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }));
    QTest::qWait(0);
    ASSERT_EQ(snapshots.count(), 4);
    const std::vector<int> want{0, 10, 20, 30};
    for (int i = 0; i < 4; ++i) {
        const QList<QVariant>& args = snapshots.at(i);
        EXPECT_EQ(args.at(0).toString(), "dot · copy");
        EXPECT_EQ(args.at(1).value<std::string>(), kProbe);
        EXPECT_EQ(args.at(2).toInt(), 10);
        EXPECT_EQ(args.at(3).value<ProbeSnapshot>().step, want[size_t(i)]);
        EXPECT_EQ(args.at(4).toBool(), i == 0);
    }
    EXPECT_EQ(film.slider()->maximum(), 3);  // 4 positions
    EXPECT_EQ(film.currentStep(), 30);
    EXPECT_EQ(film.record().model, "dot · copy");
    // The last snapshot is the trained model's attention to the probe.
    const Analysis after = training.lastModel()->analyze(kProbe);
    EXPECT_EQ(film.panel(0)->matrix(), blockOf(after, BlockKind::EncoderSelf).weights[0]);
}

// The controls: "Record attention over training" on by default, every steps / 20 until set,
// and a run started from them records the sentence the window gave.
TEST(FilmDock, TheTrainingControlsRecordTheWindowsSentence) {
    TrainingDock training;
    QCheckBox* record = nullptr;
    QSpinBox *every = nullptr, *steps = nullptr;
    for (auto* c : training.findChildren<QCheckBox*>())
        if (c->text().contains("Record attention over training")) record = c;
    for (auto* s : training.findChildren<QSpinBox*>())
        (s->prefix().startsWith("every") ? every : steps) = s;
    ASSERT_TRUE(record && every && steps);
    EXPECT_TRUE(record->isChecked());
    EXPECT_EQ(steps->value(), 1000);
    EXPECT_EQ(every->value(), 50);
    steps->setValue(30);
    EXPECT_EQ(every->value(), 2);  // 1.5 rounded
    every->setValue(10);
    steps->setValue(40);
    EXPECT_EQ(every->value(), 10);  // the user's interval is kept
    steps->setValue(30);
    for (auto* c : training.findChildren<QComboBox*>()) {
        const int copy = c->findText("copy");
        if (copy >= 0) c->setCurrentIndex(copy);
        const int tiny = c->findText("tiny", Qt::MatchStartsWith);
        if (tiny >= 0) c->setCurrentIndex(tiny);
    }
    training.setProbeSentence(kProbe, "");
    QSignalSpy snapshots(&training, &TrainingDock::probeSnapshot);
    QSignalSpy done(&training, &TrainingDock::runFinished);
    QPushButton* train = nullptr;
    for (auto* b : training.findChildren<QPushButton*>())
        if (b->text() == "&Train") train = b;
    ASSERT_NE(train, nullptr);
    train->click();
    ASSERT_TRUE(waitUntil([&] { return done.count() == 1; }));
    QTest::qWait(0);
    ASSERT_NE(training.lastModel(), nullptr);
    std::vector<int> got;
    for (const auto& args : snapshots) got.push_back(args.at(3).value<ProbeSnapshot>().step);
    EXPECT_EQ(got, (std::vector<int>{0, 10, 20, 30}));

    // Unchecked: no snapshots.
    record->setChecked(false);
    snapshots.clear();
    train->click();
    ASSERT_TRUE(waitUntil([&] { return done.count() == 2; }));
    QTest::qWait(0);
    EXPECT_EQ(snapshots.count(), 0);
}

// A live run's snapshots can be saved as a probe file: it reads back with the same steps and
// weights, and draws (render's road) like any other.
TEST(FilmDock, SavesALiveRecordAsAProbeFile) {
    FilmDock dock;
    TrainingJob job(tinySpec(6, 3));
    job.run(nullptr);
    dock.setRecord(job.probe()->record());
    const QString path = QDir::temp().filePath("attnviz-saved.probe.json");
    QString error;
    ASSERT_TRUE(dock.saveProbe(path, &error)) << error.toStdString();
    const ProbeRecord back = readProbeFile(path.toStdString());
    ASSERT_EQ(back.snapshots.size(), job.probe()->record().snapshots.size());
    EXPECT_EQ(back.snapshots.back().step, 6);
    EXPECT_EQ(back.snapshots.back().analysis.blocks[0].weights[0],
              job.probe()->record().snapshots.back().analysis.blocks[0].weights[0]);
    FilmDock empty;
    EXPECT_FALSE(empty.saveProbe(path, &error));
}
