// SPDX-License-Identifier: GPL-3.0-or-later
// Quality beside the maps (issue 29): a column header's second line gives the model's
// held-out BLEU (or token accuracy) and best head's AER as its checkpoint records them; models
// without them show nothing; the view's toggle hides them and is saved with the workspace.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QDir>
#include <QTest>
#include <cstdio>

#include "core/model.h"
#include "core/workspace.h"
#include "tests/ui/wait.h"
#include "ui/comparison_grid.h"
#include "ui/main_window.h"
#include "ui/presentation.h"
#include "ui/view_controls.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

const std::string kModels = ATTNVIZ_MODELS_DIR;

// The checkpoint's held-out metrics, read by the core alone.
HeldOutInfo heldOutOf(const std::string& path) {
    return Model::load(path).training().heldOut.value_or(HeldOutInfo{});
}

std::string fixed(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

ModelColumn untrained() {
    const ModelConfig cfg =
        ModelConfig::fromFile(std::string(ATTNVIZ_TEST_DATA) + "/configs/dot.json");
    Vocab v = Vocab::fromWords(builtinEnglishWords());
    ModelColumn c;
    c.name = "untrained dot";
    c.model = std::make_shared<Model>(Model::initialize(cfg, v, v, Tokenizer(true), 1));
    return c;
}

void analyse(MainWindow& w) {
    w.setSentence("I want to go to the station");
    w.resize(1366, 768);
    w.show();
    w.analyzeNow();
    ASSERT_TRUE(waitUntil([&] { return !w.runner()->busy(); }));
    QTest::qWait(50);
}

QString headerText(MainWindow& w, int c) {
    return w.grid()->header(c) ? w.grid()->header(c)->text() : QString();
}

}  // namespace

TEST(Quality, OneShortLineOrNothing) {
    HeldOutInfo h;
    EXPECT_EQ(ComparisonGrid::qualityLine(h), "");
    EXPECT_EQ(ComparisonGrid::qualityTip(h), "");
    h.source = "the last 0 lines of pairs.tsv";  // a run without a held-out set: no metrics
    h.sentences = 0;
    EXPECT_EQ(ComparisonGrid::qualityLine(h), "");
    h.tokenAccuracy = 0.35094;
    EXPECT_EQ(ComparisonGrid::qualityLine(h), "acc 35.1%");
    h.bleu = 15.94;  // BLEU, where there is one, instead of the accuracy
    h.bestAer = 0.4149;
    EXPECT_EQ(ComparisonGrid::qualityLine(h), "BLEU 15.9 · AER 0.41");
    const QString tip = ComparisonGrid::qualityTip(h);
    EXPECT_NE(tip.indexOf("the last 0 lines of pairs.tsv"), -1);
    EXPECT_NE(tip.indexOf("higher is better"), -1);
    EXPECT_NE(tip.indexOf("lower is better"), -1);
}

TEST(Quality, HeadersShowTheCheckpointsNumbersAndTheToggleIsSaved) {
    const std::string dot = kModels + "/en-es/01-dot.safetensors";
    const std::string hcsa = kModels + "/en-es/09-hc-sa.safetensors";
    const std::string toy = kModels + "/01-dot.safetensors";  // BLEU and the best head's AER
    MainWindow w;
    w.setColumns({loadModelColumn(dot), loadModelColumn(hcsa), untrained(), loadModelColumn(toy)});
    analyse(w);
    ASSERT_EQ(w.grid()->columnCount(), 4);
    EXPECT_TRUE(w.view().quality) << "shown by default";
    for (auto [c, path] : {std::pair{0, dot}, {1, hcsa}}) {
        const HeldOutInfo h = heldOutOf(path);
        ASSERT_TRUE(h.bleu);
        EXPECT_FALSE(h.bestAer);  // the en-es models record no alignments
        const QString line = QString::fromStdString("BLEU " + fixed(*h.bleu, 1));
        EXPECT_NE(headerText(w, c).indexOf("<br><small>" + line + "</small>"), -1)
            << headerText(w, c).toStdString();
        const QString tip = w.grid()->header(c)->toolTip();
        EXPECT_NE(tip.indexOf(QString::fromStdString(h.source)), -1) << tip.toStdString();
        EXPECT_NE(tip.indexOf("BLEU: "), -1);
    }
    EXPECT_NE(headerText(w, 0).indexOf("BLEU 11.4"), -1);  // by hand: 11.4205 in the file
    const HeldOutInfo t = heldOutOf(toy);
    ASSERT_TRUE(t.bleu && t.bestAer);
    EXPECT_NE(headerText(w, 3).indexOf(QString::fromStdString("BLEU " + fixed(*t.bleu, 1) +
                                                              " · AER " + fixed(*t.bestAer, 2))),
              -1)
        << headerText(w, 3).toStdString();
    // No metadata: nothing, not zeros.
    for (const char* s : {"BLEU", "acc ", "AER", "0.0"})
        EXPECT_EQ(headerText(w, 2).indexOf(s), -1) << s;
    EXPECT_EQ(w.grid()->header(2)->toolTip().indexOf("Held-out"), -1);

    // While presenting too, in the headers' larger font, on the whole second line.
    w.presentation()->setActive(true);
    QTest::qWait(50);
    EXPECT_NE(headerText(w, 0).indexOf("BLEU 11.4"), -1);
    QLabel* header = w.grid()->header(0);
    QFont small = header->font();  // <small>, as the grid measures it
    small.setPointSizeF(small.pointSizeF() * 0.83);
    EXPECT_LE(QFontMetrics(small).horizontalAdvance("BLEU 11.4 · AER 0.41"), header->width());
    w.presentation()->setActive(false);

    // The toggle, as a person clicks it, hides them.
    QCheckBox* box = nullptr;
    for (QCheckBox* b : w.findChildren<ViewControls*>().value(0)->findChildren<QCheckBox*>())
        if (b->text() == "&Quality") box = b;
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->isChecked());
    box->click();
    EXPECT_FALSE(w.view().quality);
    for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(headerText(w, c).indexOf("BLEU"), -1) << c;
        EXPECT_EQ(w.grid()->header(c)->toolTip().indexOf("Held-out"), -1) << c;
    }
    // Saved with the workspace's other view settings, and back off when reopened.
    const std::string path = ::testing::TempDir() + "quality.attnviz.json";
    QString error;
    ASSERT_TRUE(w.saveSession(QString::fromStdString(path), &error)) << error.toStdString();
    MainWindow w2;
    ASSERT_TRUE(w2.openSession(QString::fromStdString(path), &error)) << error.toStdString();
    EXPECT_FALSE(w2.view().quality);
    analyse(w2);
    ASSERT_EQ(w2.grid()->columnCount(), 3);  // the untrained model, never saved, is left out
    EXPECT_EQ(headerText(w2, 0).indexOf("BLEU"), -1);
    ViewState v = w2.view();
    v.quality = true;
    w2.setView(v);
    EXPECT_NE(headerText(w2, 0).indexOf("BLEU 11.4"), -1);
    EXPECT_TRUE(ViewState::fromJson(v.toJson()).quality);
    EXPECT_TRUE(ViewState::fromJson(QJsonObject{}).quality);  // older workspaces: shown
}

// Not a check: the English -> Spanish and the toy set at 1366x768 with the numbers
// shown, written to $ATTNVIZ_SHOT_DIR (default: the test temporary directory) for a person to
// look at. Run with --gtest_also_run_disabled_tests --gtest_filter='*Screenshot*'.
TEST(Quality, DISABLED_Screenshot) {
    const QString dir =
        qEnvironmentVariable("ATTNVIZ_SHOT_DIR", QString::fromStdString(::testing::TempDir()));
    for (const char* set : {"en-es", "toy"}) {  // BLEU only; BLEU and AER
        MainWindow w;
        ASSERT_TRUE(w.chooseModelSet(set, false));
        analyse(w);
        QTest::qWait(300);
        const QString path = QDir(dir).filePath(QString("quality-%1-1366x768.png").arg(set));
        ASSERT_TRUE(w.grab().save(path));
        std::printf("wrote %s\n", qPrintable(path));
    }
}
