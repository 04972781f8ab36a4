// SPDX-License-Identifier: GPL-3.0-or-later
// The real widgets under the offscreen platform: typing updates every panel, a sentence
// too long for one model leaves the others working, a corrupt checkpoint is an error.
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <fstream>

#include "core/model.h"
#include "ui/comparison_grid.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

ModelColumn column(const std::string& configName, const QString& name) {
    const ModelConfig cfg =
        ModelConfig::fromFile(std::string(ATTNVIZ_TEST_DATA) + "/configs/" + configName + ".json");
    Vocab v = Vocab::fromWords(builtinEnglishWords());
    ModelColumn c;
    c.name = name;
    c.model = std::make_shared<Model>(Model::initialize(cfg, v, v, Tokenizer(true), 1));
    return c;
}

// Waits until the runner has delivered results for the newest request.
void waitForResults(MainWindow& w) {
    QSignalSpy spy(w.runner(), &AnalysisRunner::finished);
    ASSERT_TRUE(spy.wait(10000));
    while (w.runner()->busy()) ASSERT_TRUE(spy.wait(10000));
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
    EXPECT_NE(w.grid()->panel(1, 0)->cellText(3, 2).indexOf("query 3 \"go\" → key 2 \"to\""), -1);
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
}

TEST(MainWindow, CorruptCheckpointIsAClearError) {
    const std::string path = ::testing::TempDir() + "corrupt.safetensors";
    std::ofstream(path, std::ios::binary) << "\x10\0\0\0\0\0\0\0{\"a\": 1}";
    try {
        loadModelColumn(QString::fromStdString(path));
        FAIL() << "no error";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
    QStringList errors;
    loadModelDirectory(QString::fromStdString(::testing::TempDir()),
                       &errors);  // skips it, says why
    EXPECT_NE(errors.join('\n').indexOf("corrupt.safetensors"), -1)
        << errors.join('\n').toStdString();
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
