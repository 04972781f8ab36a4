// SPDX-License-Identifier: GPL-3.0-or-later
// The image set in the window (issue 28): choosing it switches to image mode and back, a
// clicked patch becomes every panel's query, the column headers say what the model itself
// computes, and a hostile image file is refused with a message.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMimeData>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include "core/image_input.h"
#include "core/image_set.h"
#include "core/model.h"
#include "render/image_file.h"
#include "tests/ui/wait.h"
#include "ui/heads_dock.h"
#include "ui/image_chooser.h"
#include "ui/image_grid.h"
#include "ui/image_model.h"
#include "ui/image_panel.h"
#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/problems_panel.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

// A models folder whose vision/ holds two untrained image models (mean pooling and a class
// token), ATTNVIZ_MODELS pointing at it while the test runs.
class ImageMode : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(m_dir.isValid());
        QDir(m_dir.path()).mkpath("vision");
        save("01-mean", R"("pool": "mean")", 1);
        save("02-cls", R"("pool": "cls")", 2);
        m_before = qgetenv("ATTNVIZ_MODELS");
        qputenv("ATTNVIZ_MODELS", m_dir.path().toUtf8());
    }
    void TearDown() override { qputenv("ATTNVIZ_MODELS", m_before); }
    void save(const std::string& name, const std::string& pool, uint64_t seed) {
        const ModelConfig cfg = ModelConfig::fromJsonText(
            R"({"arch": "vit", "d_model": 16, "heads": 2, "d_ff": 32, "enc_layers": 2,
                "image_size": 28, "patch": 4, "classes": 10, )" +
            pool + "}");
        Model::initializeImages(cfg, fashionMnistClasses(), seed)
            .save((m_dir.path() + "/vision/" + QString::fromStdString(name) + ".safetensors")
                      .toStdString());
    }
    // A window in image mode with the first test image analysed.
    void open(MainWindow& w) {
        ASSERT_TRUE(w.chooseModelSet("vision", false));
        ASSERT_EQ(w.columns().size(), 2u);
        ASSERT_TRUE(w.imageView()->chooser()->waitForTestImages());
        ASSERT_TRUE(waitUntil([&] {
            const ImageModel* m = w.imageView()->model();
            return !m->busy() && m->results().size() == 2 && !m->image().empty();
        }));
    }
    QTemporaryDir m_dir;
    QByteArray m_before;
};

TEST_F(ImageMode, ChoosingTheImageSetSwitchesTheWindow) {
    MainWindow w;
    w.show();
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    EXPECT_FALSE(w.imageMode());
    EXPECT_TRUE(w.sourceEdit()->isVisible());
    EXPECT_FALSE(w.imageView()->isVisible());
    open(w);
    EXPECT_TRUE(w.imageMode());
    EXPECT_FALSE(w.sourceEdit()->isVisible());
    EXPECT_FALSE(w.targetEdit()->isVisible());
    EXPECT_TRUE(w.imageView()->isVisible());
    EXPECT_EQ(w.imageView()->grid()->columnCount(), 2);
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    EXPECT_TRUE(w.sourceEdit()->isVisible());
    EXPECT_FALSE(w.imageView()->isVisible());
    EXPECT_TRUE(w.imageView()->model()->columns().empty());  // hidden: nothing analysed
}

TEST_F(ImageMode, AClickedPatchIsEveryPanelsQuery) {
    MainWindow w;
    w.show();
    open(w);
    ImageGrid* g = w.imageView()->grid();
    ASSERT_EQ(g->panels(0).size(), 2u);  // a panel per head
    ASSERT_EQ(g->panels(1).size(), 2u);
    for (int c = 0; c < 2; ++c)
        for (const ImagePanelView* p : g->panels(c))
            EXPECT_EQ(p->panel().overlay.query.kind, ImageQuery::Kind::Pooled);
    // Patch (5, 2) of the 7 × 7 grid in the second model's second panel.
    ImagePanelView* target = g->panels(1)[1];
    QPointF at;
    for (int y = 0; y < target->height() && at.isNull(); ++y)
        for (int x = 0; x < target->width(); ++x) {
            int r = -1, c = -1;
            if (target->patchAt(QPointF(x + 0.5, y + 0.5), &r, &c) && r == 5 && c == 2) {
                at = QPointF(x + 0.5, y + 0.5);
                break;
            }
        }
    ASSERT_FALSE(at.isNull());
    QTest::mouseClick(target, Qt::LeftButton, {}, at.toPoint());
    EXPECT_EQ(w.imageView()->model()->request().query, "5,2");
    for (int c = 0; c < 2; ++c)
        for (const ImagePanelView* p : g->panels(c)) {
            EXPECT_EQ(p->panel().overlay.query.kind, ImageQuery::Kind::Patch);
            EXPECT_EQ(p->panel().overlay.query.row, 5);
            EXPECT_EQ(p->panel().overlay.query.col, 2);
            EXPECT_EQ(p->panel().overlay.weights.query, 5 * 7 + 2 + (c == 1 ? 1 : 0));
        }
}

TEST_F(ImageMode, HeadersSayWhatTheModelComputes) {
    MainWindow w;
    w.show();
    open(w);
    ImageChooser* ch = w.imageView()->chooser();
    ch->chooseTestImage(7);
    ASSERT_TRUE(waitUntil([&] { return !w.imageView()->model()->busy(); }));
    const ImageSet& set = ch->testImages();
    const std::vector<uint8_t> px(set.image(7), set.image(7) + 28 * 28);
    for (int c = 0; c < 2; ++c) {
        const ImageAnalysis a = w.columns()[size_t(c)].model->analyzeImage(px);
        const QString name = QString::fromStdString(fashionMnistClasses()[size_t(a.predicted)]);
        const QString percent = QString::number(100 * a.probabilities[size_t(a.predicted)], 'f', 1);
        EXPECT_TRUE(w.imageView()->grid()->header(c)->text().endsWith(name + " " + percent + " %"))
            << w.imageView()->grid()->header(c)->text().toStdString();
        QTableWidget* t = w.imageView()->grid()->showProbabilities(c);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(t->rowCount(), 10);
        for (int k = 0; k < 10; ++k) {
            EXPECT_EQ(t->item(k, 0)->text().toStdString(), fashionMnistClasses()[size_t(k)]);
            EXPECT_DOUBLE_EQ(t->item(k, 1)->data(Qt::UserRole).toDouble(),
                             a.probabilities[size_t(k)]);
        }
        t->close();
    }
}

TEST_F(ImageMode, AHostileImageIsRefusedWithAMessage) {
    MainWindow w;
    w.show();
    open(w);
    const std::vector<uint8_t> before = w.imageView()->model()->image();
    // A PNG signature and header cut short, and a text file named .png.
    const QString truncated = m_dir.path() + "/cut.png", text = m_dir.path() + "/notes.png";
    QFile f(truncated);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromHex("89504e470d0a1a0a0000000d49484452000186a0000186a008000000"));
    f.close();
    QFile t(text);
    ASSERT_TRUE(t.open(QIODevice::WriteOnly));
    t.write("not an image\n");
    t.close();
    for (const QString& path : {truncated, text}) {
        QString error;
        EXPECT_FALSE(w.imageView()->chooser()->openImageFile(path, &error));
        EXPECT_TRUE(error.contains(path)) << error.toStdString();
    }
    EXPECT_EQ(w.imageView()->model()->image(), before);  // the image shown is kept
    EXPECT_FALSE(w.problems()->lines().isEmpty());
}

// A person's own image, dark on light: opened, made 28 × 28 and inverted as the switch says
// (auto inverts a light border), the models reading it; a pasted image takes the same road.
TEST_F(ImageMode, OwnImagesFollowTheInvertSwitch) {
    MainWindow w;
    w.show();
    open(w);
    QImage photo(120, 60, QImage::Format_RGB32);
    photo.fill(QColor(240, 240, 240));
    for (int y = 15; y < 45; ++y)
        for (int x = 20; x < 100; ++x) photo.setPixel(x, y, qRgb(20, 20, 20));
    const QString path = m_dir.path() + "/shoe.png";
    ASSERT_TRUE(photo.save(path));
    ImageChooser* ch = w.imageView()->chooser();
    ImageModel* m = w.imageView()->model();
    QString error;
    ASSERT_TRUE(ch->openImageFile(path, &error)) << error.toStdString();
    const ModelImage expected =
        prepareModelImage(render::readImageFile(path.toStdString()), 28, InvertMode::Auto);
    EXPECT_TRUE(expected.inverted);
    EXPECT_EQ(m->image(), expected.pixels);
    EXPECT_EQ(m->image()[0], 0);  // the light border became black
    ASSERT_TRUE(waitUntil([&] { return !m->busy(); }));
    EXPECT_EQ(m->results().size(), 2u);
    ch->setInvert(InvertMode::No);
    EXPECT_EQ(
        m->image(),
        prepareModelImage(render::readImageFile(path.toStdString()), 28, InvertMode::No).pixels);
    EXPECT_NE(m->image(), expected.pixels);
    ch->setInvert(InvertMode::Auto);
    QMimeData mime;
    mime.setImageData(photo);
    ASSERT_TRUE(ch->openMime(&mime, &error)) << error.toStdString();
    EXPECT_EQ(m->image(), expected.pixels);  // the same pixels as the file's
    QMimeData empty;
    EXPECT_FALSE(ch->openMime(&empty, &error));
    EXPECT_FALSE(error.isEmpty());
}

// File › Export figure in image mode writes the panels shown as render's image figure: the
// image embedded once per panel, the models' names and predictions as text.
TEST_F(ImageMode, ExportWritesTheImagePanels) {
    MainWindow w;
    w.show();
    open(w);
    const QString path = m_dir.path() + "/panels.svg";
    QString error;
    ASSERT_TRUE(w.exportFigure(path, &error)) << error.toStdString();
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(f.readAll());
    EXPECT_EQ(svg.count("<image"), 4);  // 2 models × 2 heads
    const render::ImageColumn c = w.imageView()->model()->selectedColumn(1);
    EXPECT_TRUE(svg.contains(QString::fromStdString(c.title)));
    EXPECT_TRUE(svg.contains(QString::fromStdString(c.prediction).toHtmlEscaped()));
}

// The Heads dock lists the image models' heads of the layer shown, the Distance column their
// mean attention distance in pixels as the core computes it on the image.
TEST_F(ImageMode, HeadsDockShowsMeanAttentionDistance) {
    MainWindow w;
    w.show();
    open(w);
    HeadsDock* d = w.heads();
    ASSERT_TRUE(waitUntil([&] { return d->headCount() == 4; }));  // 2 models × 2 heads of L1
    const auto* table = d->table()->model();
    const auto& results = w.imageView()->model()->results();
    for (int r = 0; r < table->rowCount(); ++r) {
        const int c =
            w.columns()[0].name == table->index(r, HeadsDock::Model).data().toString().toStdString()
                ? 0
                : 1;
        const int layer = table->index(r, HeadsDock::Layer).data(HeadsDock::ValueRole).toInt();
        const int head = table->index(r, HeadsDock::Head).data(HeadsDock::ValueRole).toInt();
        EXPECT_EQ(layer, 1);
        const auto& res = *results[size_t(c)].result;
        const double px =
            meanAttentionDistance(res.analysis.blocks[1].weights[size_t(head)], res.grid).px;
        EXPECT_NEAR(table->index(r, HeadsDock::Distance).data(HeadsDock::ValueRole).toDouble(), px,
                    1e-12);
        EXPECT_GT(px, 0);
    }
    // Activating a row shows that layer's heads in the image view.
    w.showHead(1, BlockKind::EncoderSelf, 0, 1);
    EXPECT_EQ(w.imageView()->model()->request().layer, 0);
    EXPECT_EQ(w.imageView()->model()->request().heads, "all");
    EXPECT_EQ(w.imageView()->grid()->panels(1)[1]->panel().layer, 0);
}

}  // namespace
