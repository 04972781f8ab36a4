// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 48 rows 7, 8 and 15 (docs/hostile-inputs.md) on the tree before their fixes: the
// tests of the current tree, as they are, with only what the old API lacks changed
// (ProblemsPanel::lineCount() -> lines().size(); the image chooser's asynchronous
// requestImageFile / opening() / waitForImage -> its synchronous openImageFile). Not part of the
// build: scripts/hostile-before-ui compiles it in a worktree of 01b890d^ (before their fixes) and
// runs it there.
#include <gtest/gtest.h>

#include <QApplication>
#include <QBuffer>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QMimeData>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <filesystem>
#include <fstream>

#include "tests/render/jpeg_maker.h"
#include "tests/render/png_maker.h"
#include "tests/ui/wait.h"
#include "ui/analysis_runner.h"
#include "ui/background.h"
#include "ui/image_chooser.h"
#include "ui/image_model.h"
#include "ui/main_window.h"
#include "ui/problems_panel.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
void writeBytes(const QString& path, const std::string& bytes) {
    std::ofstream(path.toStdString(), std::ios::binary | std::ios::trunc) << bytes;
}
std::string encode(const QImage& im, const char* format) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    EXPECT_TRUE(im.save(&buffer, format));
    return bytes.toStdString();
}
QImage photo() {
    QImage im(90, 60, QImage::Format_RGB32);
    im.fill(QColor(230, 230, 230));
    for (int y = 10; y < 50; ++y)
        for (int x = 25 + y % 3; x < 65; ++x) im.setPixel(x, y, qRgb(30, 40, 50));
    return im;
}
template <class Run, class Done>
qint64 longestStall(Run run, Done done) {
    QElapsedTimer since;
    qint64 longest = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout,
                     [&] { longest = std::max(longest, since.restart()); });
    tick.start(10);
    since.start();
    run();
    EXPECT_TRUE(attnviz::ui::test::waitUntil(done, 120000));
    longest = std::max(longest, since.elapsed());
    return longest;
}
class ImageOpening : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(m_dir.isValid()); }
    QString path(const QString& name) const { return m_dir.path() + "/" + name; }
    QTemporaryDir m_dir;
    ImageModel m_model;
    ImageChooser m_chooser{&m_model};
};
std::string temp(const std::string& name) {
    return ::testing::TempDir() + name;
}
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

// Row 7: the old road decodes on the UI thread (no opening(): done when openImageFile returns).
TEST_F(ImageOpening, TheWindowKeepsAnsweringWhileAnImageIsOpened) {
    writeBytes(path("bomb.jpg"), attnviz::test::progressiveJpeg(2048, 2048, 882 * 3, 3));
    writeBytes(path("large.jpg"), attnviz::test::progressiveJpeg(8192, 8192, 15));
    QString error;
    bool ok = true;
    qint64 stall = longestStall([&] { ok = m_chooser.openImageFile(path("bomb.jpg"), &error); },
                                [&] { return true; });
    EXPECT_LT(stall, 200) << "the event loop stalled " << stall << " ms opening the bomb";
    std::printf("  the longest stall opening the bomb: %lld ms\n", static_cast<long long>(stall));
    EXPECT_FALSE(ok);
    EXPECT_TRUE(error.contains("is a JPEG of 2649 scans")) << error.toStdString();
    stall = longestStall([&] { ok = m_chooser.openImageFile(path("large.jpg"), &error); },
                         [&] { return true; });
    EXPECT_LT(stall, 200) << "the event loop stalled " << stall << " ms opening a large image";
    std::printf("  the longest stall opening a large image: %lld ms\n",
                static_cast<long long>(stall));
    EXPECT_TRUE(ok) << error.toStdString();
    EXPECT_EQ(m_model.image().size(), 28u * 28u);
}

TEST_F(ImageOpening, AHugePastedImageIsRefusedWithThePixelLimit) {
    const std::string huge = attnviz::test::pngHeader(100000, 100000);
    writeBytes(path("whole.png"), encode(photo(), "PNG"));
    QString error;
    ASSERT_TRUE(m_chooser.openImageFile(path("whole.png"), &error)) << error.toStdString();
    const std::vector<uint8_t> shown = m_model.image();
    QMimeData pasted;
    pasted.setData("image/png", QByteArray::fromStdString(huge));
    EXPECT_FALSE(m_chooser.openMime(&pasted, &error));
    EXPECT_TRUE(error.startsWith("the pasted image declares an image of 100000×100000 pixels") &&
                error.contains("the limit is 67108864 pixels"))
        << error.toStdString();
    EXPECT_FALSE(m_chooser.openPastedPng(huge, &error));
    EXPECT_TRUE(error.contains("declares an image of 100000×100000 pixels")) << error.toStdString();
    writeBytes(path("huge.png"), huge);
    EXPECT_FALSE(m_chooser.openImageFile(path("huge.png"), &error));
    EXPECT_TRUE(error.contains("declares an image of 100000×100000 pixels")) << error.toStdString();
    EXPECT_EQ(m_model.image(), shown);  // the image shown stays
}

TEST(Problems, TwoThousandUnreadableFilesInAWatchedFolderAreListedInSeconds) {
    const std::string dir = temp("two-thousand-unreadable");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const int files = 2000;
    for (int i = 0; i < files; ++i)
        std::ofstream(dir + "/bad-" + std::to_string(i) + ".safetensors") << "not a checkpoint";
    MainWindow w;
    w.show();
    QElapsedTimer t;
    t.start();
    QString error;
    ASSERT_TRUE(w.watchFolder(q(dir), &error)) << error.toStdString();
    while (w.problems()->lines().size() < 2 * files && t.elapsed() < 120000) QTest::qWait(20);
    QCoreApplication::processEvents();  // the panel's scroll, laid out once
    const qint64 ms = t.elapsed();
    EXPECT_EQ(w.problems()->lines().size(), 2 * files);
    EXPECT_LT(ms, 15000) << "quadratic in the number of problems?";
    std::printf("[ timing ] %d problems listed in %lld ms\n", files, (long long)ms);
    std::filesystem::remove_all(dir);
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    const attnviz::ui::BackgroundJobsFinish backgroundJobsFinish;
    QApplication::setOrganizationName("attnviz-tests");
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
