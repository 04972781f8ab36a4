// SPDX-License-Identifier: GPL-3.0-or-later
// The image set in the window (issue 28): choosing it switches to image mode and back, a
// clicked patch becomes every panel's query, the column headers say what the model itself
// computes, and a hostile image file is refused with a message.
#include <gtest/gtest.h>

#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSemaphore>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "core/evaluate.h"
#include "core/garment_cutout.h"
#include "core/head_table.h"
#include "core/image_input.h"
#include "core/image_selection.h"
#include "core/image_set.h"
#include "core/model.h"
#include "core/session_file.h"
#include "render/image_file.h"
#include "tests/ui/wait.h"
#include "ui/analysis_runner.h"
#include "ui/chart_view.h"
#include "ui/class_accuracy.h"
#include "ui/color_bar.h"
#include "ui/heads_dock.h"
#include "ui/image_chooser.h"
#include "ui/image_grid.h"
#include "ui/image_model.h"
#include "ui/image_panel.h"
#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/problems_panel.h"
#include "ui/session.h"
#include "ui/stale_mark.h"
#include "ui/variant_panel.h"

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
        // And a text set (the toy one, two of its models) to switch to and from: a set is a
        // folder (core/workspace.h).
        for (const char* f : {"set.json", "01-dot.safetensors", "09-hc-sa.safetensors"})
            ASSERT_TRUE(QFile::copy(QString(ATTNVIZ_MODELS_DIR) + "/" + f, m_dir.filePath(f)));
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
    // The same, shown, with the Heads dock raised and its image table computed once.
    HeadsDock* openWithHeadsSeen(MainWindow& w) {
        w.show();
        open(w);
        HeadsDock* d = w.heads();
        w.findChild<QDockWidget*>("heads")->raise();
        EXPECT_TRUE(waitUntil([&] { return d->imageComputations() == 1; }));
        return d;
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
    // Test image `index`'s pixels, as the chooser gives them to the models.
    static std::vector<uint8_t> testImage(MainWindow& w, int index) {
        const ImageSet& set = w.imageView()->chooser()->testImages();
        return {set.image(size_t(index)), set.image(size_t(index)) + 28 * 28};
    }
    QString modelPath(const char* name) const {
        return m_dir.path() + "/vision/" + name + ".safetensors";
    }
    // A small untrained colour model of the clothing photos' 64 × 64 input, of `seed`; its
    // training record names `task` when given.
    static Model colourModel(uint64_t seed, const char* task = nullptr) {
        const ModelConfig cfg = ModelConfig::fromJsonText(
            R"({"arch":"vit","image_size":64,"channels":3,"patch":8,"pool":"mean","d_model":16,)"
            R"("heads":2,"d_ff":32,"enc_layers":1})");
        Model m = Model::initializeImages(cfg, clothingPhotoClasses(), seed);
        if (task) m.setTraining({{"kind", "trained"}, {"steps", 1}, {"task", task}});
        return m;
    }
    // The set "photos" of two such models (01-m, 02-m), trained on `task` when given.
    void saveColourSet(const char* task = nullptr) {
        QDir(m_dir.path()).mkpath("photos");
        for (int k = 1; k <= 2; ++k)
            colourModel(uint64_t(k), task)
                .save((m_dir.path() + QString("/photos/0%1-m.safetensors").arg(k)).toStdString());
    }
    // The photo set of `variable` (ATTNVIZ_CLOTHING_PHOTOS…) beside the bundled models, which
    // ATTNVIZ_MODELS moved to the test's folder, for as long as it lives.
    struct PhotoSet {
        const char* variable;
        QByteArray before = qgetenv(variable);
        PhotoSet(const char* variable, const char* folder) : variable(variable) {
            qputenv(variable, QByteArray(ATTNVIZ_MODELS_DIR "/../data/") + folder);
        }
        ~PhotoSet() { qputenv(variable, before); }
    };
    QTemporaryDir m_dir;
    QByteArray m_before;
};

std::string readAll(const QString& path) {
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
    return f.readAll().toStdString();
}

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

// A model reconfigured in the Variant dock is analysed again in image mode too (the edit
// used to re-run only the sentence's analysis, which skips image models): the panels follow
// the new sigma, and the header names the model "(modified)" as a text column's does.
TEST_F(ImageMode, AVariantEditAnalysesTheImageAgain) {
    save("03-gauss", R"("pool": "mean", "encoder_self": {"variant": "gaussian"})", 3);
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(w.chooseModelSet("vision", false));
    ASSERT_EQ(w.columns().size(), 3u);
    ASSERT_TRUE(w.imageView()->chooser()->waitForTestImages());
    ImageModel* m = w.imageView()->model();
    ASSERT_TRUE(
        waitUntil([&] { return !m->busy() && m->results().size() == 3 && !m->image().empty(); }));
    ASSERT_TRUE(m->results()[2].image);
    emit w.imageView()->grid()->columnClicked(2);  // the Variant dock shows 03-gauss
    auto* sigma = qobject_cast<QDoubleSpinBox*>(w.variantPanel()->editor("sigma"));
    ASSERT_NE(sigma, nullptr);
    const Mat before = m->results()[2].image->analysis.blocks[0].weights[0];
    const std::string name = w.columns()[2].name;  // "gauss"
    sigma->setValue(sigma->value() + 0.7);
    ASSERT_TRUE(
        waitUntil([&] { return !m->busy() && m->results()[2].name == name + " (modified)"; }));
    const Mat after = m->results()[2].image->analysis.blocks[0].weights[0];
    EXPECT_GT((after - before).cwiseAbs().maxCoeff(), 1e-3);
    EXPECT_EQ(after, analyzeImageColumn(w.columns()[2], m->image(), m->label())
                         .image->analysis.blocks[0]
                         .weights[0]);
    EXPECT_TRUE(w.imageView()->grid()->header(2)->text().startsWith(
        QString::fromStdString(name + " (modified)")));
    EXPECT_EQ(m->results()[0].name, w.columns()[0].name);  // the others are not modified
}

// The dock table says which docks image mode shows (issue 47): the text-only ones (query
// profile, sentences, offset profiles, the probe's film) are hidden there, their menu entries
// disabled, and come back as they were with text; Heads, Variant, Training and Problems stay.
TEST_F(ImageMode, TextOnlyDocksStepAsideInImageMode) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    auto dock = [&](const char* name) { return w.findChild<QDockWidget*>(name); };
    dock("offsets")->raise();
    ASSERT_FALSE(dock("offsets")->isHidden());
    ASSERT_TRUE(dock("sentences")->isHidden());  // hidden until a list is opened
    open(w);
    for (const char* name : {"profile", "sentences", "offsets", "film"}) {
        EXPECT_TRUE(dock(name)->isHidden()) << name;
        EXPECT_FALSE(dock(name)->toggleViewAction()->isEnabled()) << name;
    }
    for (const char* name : {"heads", "variant", "training"}) {
        EXPECT_FALSE(dock(name)->isHidden()) << name;
        EXPECT_TRUE(dock(name)->toggleViewAction()->isEnabled()) << name;
    }
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    EXPECT_FALSE(dock("offsets")->isHidden());
    EXPECT_TRUE(dock("sentences")->isHidden());  // as it was
    for (const char* name : {"profile", "sentences", "offsets", "film"})
        EXPECT_TRUE(dock(name)->toggleViewAction()->isEnabled()) << name;
    // A sentence list opened in image mode: its dock comes with text, not over the images.
    open(w);
    const QString list = m_dir.filePath("sentences.txt");
    QFile f(list);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("the cat sat\nthe dog ran\n");
    f.close();
    ASSERT_TRUE(w.openSentenceFile(list));
    EXPECT_TRUE(dock("sentences")->isHidden());
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    EXPECT_FALSE(dock("sentences")->isHidden());
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
    EXPECT_EQ(w.imageView()->model()->request().query, ImageQuery::patch(5, 2));
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
        t->window()->close();
    }
}

// Per-class accuracy on hover (issue 47): a header's tooltip, once hovered, lists each class's
// accuracy on the held-out images (the last 5,000 training images, never trained on: what the
// checkpoints' held-out accuracy counts), computed off the UI thread, as core's
// classifyImages gives it.
TEST_F(ImageMode, AHeadersTooltipGivesEachClasssHeldOutAccuracy) {
    MainWindow w;
    w.show();
    open(w);
    ImageSet all = loadFashionMnist(fashionMnistDir(), "train"), train, held;
    splitValidation(all, train, held);
    for (int c = 0; c < 2; ++c) {
        SCOPED_TRACE(c);
        QToolButton* header = w.imageView()->grid()->header(c);
        const QPoint at(5, 5);
        QHelpEvent hover(QEvent::ToolTip, at, header->mapToGlobal(at));
        QApplication::sendEvent(header, &hover);
        auto listed = [&] {
            return header->toolTip().contains(classLabel(fashionMnistClasses().back()));
        };
        EXPECT_FALSE(listed()) << "computed on the UI thread";
        ASSERT_TRUE(waitUntil(listed, 60000)) << header->toolTip().toStdString();
        Model m = w.columns()[size_t(c)].model->clone();
        const std::vector<double> ref = classifyImages(m, imageExamples(held)).classAccuracy();
        ASSERT_EQ(ref.size(), 10u);
        const QString tip = header->toolTip();
        int from = tip.indexOf(QLocale().toString(5000));
        ASSERT_NE(from, -1) << tip.toStdString();
        for (size_t k = 0; k < 10; ++k) {
            from = tip.indexOf(classLabel(fashionMnistClasses()[k]).toHtmlEscaped(), from);
            ASSERT_NE(from, -1) << k << " " << tip.toStdString();
            from = tip.indexOf(QString::number(100 * ref[k], 'f', 1) + " %", from);
            ASSERT_NE(from, -1) << k << " " << tip.toStdString();
        }
        EXPECT_NE(tip.indexOf("Click for the probability of every class"), -1);
    }
}

// A colour model of the clothing photos (issue 49) has its per-class accuracy too, on that
// task's held-out photos (its "validation" split), as core's classifyImages gives it.
TEST(ClassAccuracy, AColourModelIsMeasuredOnTheClothingPhotos) {
    ModelConfig cfg = ModelConfig::fromJsonText(
        R"({"arch":"vit","image_size":64,"channels":3,"patch":8,"pool":"mean","d_model":16,)"
        R"("heads":2,"d_ff":32,"enc_layers":1})");
    ModelColumn column;
    column.name = "dot";
    column.model = std::make_shared<Model>(Model::initializeImages(cfg, clothingPhotoClasses(), 1));
    ClassAccuracies accuracies;
    accuracies.request(column);
    ASSERT_TRUE(waitUntil([&] { return accuracies.find(column) != nullptr; }, 60000));
    const ClassAccuracies::Outcome& o = *accuracies.find(column);
    EXPECT_FALSE(o.foreign);
    EXPECT_TRUE(o.error.isEmpty()) << o.error.toStdString();
    EXPECT_EQ(o.task, kClothingPhotosTask);
    const ImageSet held = findImageTask(kClothingPhotosTask)->load("validation");
    EXPECT_EQ(o.images, held.size());
    Model m = column.model->clone();
    EXPECT_EQ(o.perClass, classifyImages(m, imageExamples(held)).classAccuracy());
}

// The probability list is a popup a person can leave (issue 47: a table made a Qt::Popup took
// every input and closed on nothing, so the app had to be killed): Esc closes it, and so does
// a click outside it; then the window takes input again.
TEST_F(ImageMode, TheProbabilityListClosesOnEscAndOnAClickOutside) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    open(w);
    ASSERT_TRUE(waitUntil([&] { return !w.imageView()->model()->busy(); }));
    for (const bool esc : {true, false}) {
        QTableWidget* t = w.imageView()->grid()->showProbabilities(0);
        ASSERT_NE(t, nullptr);
        QPointer<QWidget> popup = t->window();
        ASSERT_NE(popup.data(), static_cast<QWidget*>(&w));
        ASSERT_TRUE(waitUntil([&] { return popup && popup->isVisible(); }));
        EXPECT_EQ(QApplication::activePopupWidget(), popup.data());
        if (esc) {
            QTest::keyClick(popup->windowHandle(), Qt::Key_Escape);
        } else {  // a click on the window, far from the popup below the first header
            const QPoint outside(w.width() - 20, w.height() - 20);
            QTest::mouseClick(w.windowHandle(), Qt::LeftButton, {}, outside);
        }
        EXPECT_TRUE(waitUntil([&] { return !popup || !popup->isVisible(); }))
            << (esc ? "Esc" : "a click outside") << " left the popup open";
        EXPECT_EQ(QApplication::activePopupWidget(), nullptr);
        // The window takes input again: keys typed at the window reach a field in it (through
        // the window system's road, as a person's keys do, where an open popup takes them).
        QLineEdit probe(&w);
        probe.show();
        w.activateWindow();
        probe.setFocus();
        QTest::keyClick(w.windowHandle(), 'o');
        QTest::keyClick(w.windowHandle(), 'k');
        EXPECT_EQ(probe.text(), "ok");
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
    ch->setPrepare(PrepareMode::Plain);  // the whole image (the cut-out: APhotoIsCutOut…)
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
    w.findChild<QDockWidget*>("heads")->raise();  // behind another tab it computes nothing
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
        const auto& res = *results[size_t(c)].image;
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

// File › Export data in image mode: CSV and NPY hold each panel shown, its whole [N, N] table
// labelled cls, r0c0, … (the same bytes as render's, which the CLI writes); JSON the image
// dumps. Text mode's export of the (empty) sentence analysis is not what is written.
TEST_F(ImageMode, ExportDataWritesThePanelsWeights) {
    MainWindow w;
    w.show();
    open(w);
    ImageModel* m = w.imageView()->model();
    m->setQuery(ImageQuery::patch(1, 2));
    // The query box names the patch counted from 1, as layers and heads are (issue 29).
    QStringList boxes;
    for (const QComboBox* box : w.imageView()->findChildren<QComboBox*>())
        boxes << box->currentText();
    EXPECT_TRUE(boxes.contains("patch (row 2, column 3)")) << boxes.join(" | ").toStdString();
    QString error;
    const QString csv = m_dir.path() + "/weights.csv";
    ASSERT_TRUE(w.exportData(csv, &error)) << error.toStdString();
    const std::string text = readAll(csv);
    EXPECT_EQ(text, render::imageDataBytes(m->selectedColumns(), "csv"));
    // 2 heads of a 49-patch model, 2 heads of a model with a class token (50 positions).
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 2 * 49 * 49 + 2 * 50 * 50);
    const render::ImageColumn c = m->selectedColumn(1);  // the class token's model
    const render::ImagePanel& pl = c.panels[1];
    const int q = pl.overlay.weights.query;  // patch (1, 2): row 1 + 1·7 + 2
    ASSERT_EQ(q, 10);
    char line[200];
    std::snprintf(line, sizeof line, "%s,encoder_self,%d,1,10,r1c2,13,r1c5,%.9g\n", c.title.c_str(),
                  pl.layer, double((*pl.matrix)(10, 13)));
    EXPECT_NE(text.find(line), std::string::npos) << line;
    EXPECT_NEAR((*pl.matrix)(10, 13), pl.overlay.weights.patches[1 * 7 + 5], 1e-7);
    const QString npy = m_dir.path() + "/weights.npy";
    ASSERT_FALSE(w.exportData(npy, &error));  // 49 and 50 positions: no single array
    EXPECT_TRUE(error.contains(npy)) << error.toStdString();
    const QString json = m_dir.path() + "/weights.json";
    ASSERT_TRUE(w.exportData(json, &error)) << error.toStdString();
    const auto dumps = nlohmann::json::parse(readAll(json));
    ASSERT_EQ(dumps.size(), 2u);
    EXPECT_EQ(dumps[0]["image"]["source"], "fashion-mnist test image 0");
    EXPECT_FALSE(w.exportData(m_dir.path() + "/weights.txt", &error));
    EXPECT_TRUE(error.contains(".csv, .json or .npy")) << error.toStdString();
}

// The image (a test image or a file) and the query patch are kept in a saved workspace and
// come back when it is opened, with the panels' settings.
TEST_F(ImageMode, TheImageAndItsQueryAreSavedWithTheWorkspace) {
    const QString path = m_dir.path() + "/image.attnviz.json";
    QString error;
    {
        MainWindow w;
        w.show();
        open(w);
        w.imageView()->chooser()->chooseTestImage(7);
        w.imageView()->model()->setQuery(ImageQuery::patch(3, 4));
        w.imageView()->sharedBox()->setChecked(true);
        ASSERT_TRUE(w.saveSession(path, &error)) << error.toStdString();
    }
    const SessionFile f = readSessionFile(path.toStdString());
    ASSERT_TRUE(f.image);
    EXPECT_EQ(f.image->testIndex, 7);
    EXPECT_EQ(f.image->query, "3,4");
    MainWindow w;
    w.show();
    ASSERT_TRUE(w.openSession(path, &error)) << error.toStdString();
    ImageModel* m = w.imageView()->model();
    ASSERT_TRUE(w.imageView()->chooser()->waitForTestImages());
    ASSERT_TRUE(waitUntil([&] { return !m->busy() && m->results().size() == 2; }));
    EXPECT_EQ(w.imageView()->chooser()->testIndex(), 7);
    EXPECT_EQ(m->image(), testImage(w, 7));
    EXPECT_EQ(m->request().query, ImageQuery::patch(3, 4));
    EXPECT_TRUE(m->request().shared);
    EXPECT_EQ(w.imageView()->grid()->panels(0)[0]->panel().overlay.query.row, 3);
    // A person's file beside the workspace (outside the models folder): stored relative to
    // it, read again when opened.
    QTemporaryDir work;
    const QString beside = work.path() + "/image.attnviz.json";
    QImage photo(40, 30, QImage::Format_RGB32);
    photo.fill(QColor(230, 230, 230));
    const QString shoe = work.path() + "/shoe.png";
    ASSERT_TRUE(photo.save(shoe));
    ASSERT_TRUE(w.imageView()->chooser()->openImageFile(shoe, &error)) << error.toStdString();
    w.imageView()->chooser()->setInvert(InvertMode::No);
    ASSERT_TRUE(w.saveSession(beside, &error)) << error.toStdString();
    EXPECT_EQ(readSessionFile(beside.toStdString()).image->file, "shoe.png");
    MainWindow again;
    again.show();
    ASSERT_TRUE(again.openSession(beside, &error)) << error.toStdString();
    ASSERT_TRUE(again.imageView()->chooser()->waitForImage(&error)) << error.toStdString();
    EXPECT_EQ(again.imageView()->chooser()->imageFile(), shoe);
    EXPECT_EQ(again.imageView()->chooser()->invert(), InvertMode::No);
    EXPECT_EQ(
        again.imageView()->model()->image(),
        prepareModelImage(render::readImageFile(shoe.toStdString()), 28, InvertMode::No).pixels);
    // A pasted image has no file: its pixels are kept inside the workspace, and it comes
    // back whole (the invert switch still works on the original, not on the 28 × 28), cut
    // out as before.
    QImage pasted(90, 50, QImage::Format_RGB32);
    pasted.fill(QColor(245, 240, 235));
    for (int y = 10; y < 40; ++y)
        for (int x = 15; x < 75; ++x) pasted.setPixel(x, y, qRgb(30, 25 + x % 7, 20));
    QMimeData mime;
    mime.setImageData(pasted);
    ASSERT_TRUE(again.imageView()->chooser()->openMime(&mime, &error)) << error.toStdString();
    const std::vector<uint8_t> seen = again.imageView()->model()->image();
    const QString kept = work.path() + "/pasted.attnviz.json";
    ASSERT_TRUE(again.saveSession(kept, &error)) << error.toStdString();
    const SessionFile k = readSessionFile(kept.toStdString());
    ASSERT_TRUE(k.image);
    EXPECT_TRUE(k.image->file.empty());
    EXPECT_FALSE(k.image->pastedPng.empty());
    MainWindow third;
    third.show();
    ASSERT_TRUE(third.openSession(kept, &error)) << error.toStdString();
    ASSERT_TRUE(third.imageView()->chooser()->waitForImage(&error)) << error.toStdString();
    EXPECT_TRUE(third.imageView()->chooser()->imageFile().isEmpty());
    EXPECT_EQ(third.imageView()->model()->image(), seen);
    third.imageView()->chooser()->setInvert(InvertMode::No);
    EXPECT_EQ(third.imageView()->chooser()->prepare(), PrepareMode::Cutout);
    EXPECT_EQ(third.imageView()->model()->image(),
              cutOutGarment(render::colorImage(pasted, "p"), 28, InvertMode::No).model.pixels);
}

// A person's photo (issue 49): cut out by default exactly as `attnviz-cli classify` cuts it
// out (core/garment_cutout.h from the colour image), the steps shown beside the strip; "whole
// image" gives the plain conversion of the same decoding; the workspace keeps the choice, and
// an older workspace, which has none, opens with the whole image it was made with.
TEST_F(ImageMode, APhotoIsCutOutAsTheCliCutsItOut) {
    MainWindow w;
    w.show();
    open(w);
    ImageChooser* ch = w.imageView()->chooser();
    ImageModel* m = w.imageView()->model();
    const QString photo = QStringLiteral(ATTNVIZ_TEST_DATA "/photos/coat-01.jpg");
    const ColorImage color = render::readColorImageFile(photo.toStdString());
    const GarmentCutout cut = cutOutGarment(color, 28, InvertMode::Auto);
    ASSERT_TRUE(cut.found) << cut.note;
    EXPECT_EQ(ch->prepare(), PrepareMode::Cutout);
    QString error;
    ASSERT_TRUE(ch->openImageFile(photo, &error)) << error.toStdString();
    EXPECT_EQ(m->image(), cut.model.pixels);
    EXPECT_NE(m->source().find("garment cut out, inverted"), std::string::npos) << m->source();
    // The steps: the photo with the garment outlined | the crop | the 28 × 28 image.
    const QPixmap steps = ch->stepsView()->pixmap();
    ASSERT_FALSE(steps.isNull());
    EXPECT_GT(steps.width(), 2 * steps.height());
    ch->setInvert(InvertMode::No);
    EXPECT_EQ(m->image(), cutOutGarment(color, 28, InvertMode::No).model.pixels);
    ch->setInvert(InvertMode::Auto);
    ch->setPrepare(PrepareMode::Plain);
    const ModelImage whole =
        prepareModelImage(render::readImageFile(photo.toStdString()), 28, InvertMode::Auto);
    EXPECT_EQ(m->image(), whole.pixels);
    EXPECT_NE(m->image(), cut.model.pixels);
    ch->setPrepare(PrepareMode::Cutout);
    const QString path = m_dir.path() + "/photo.attnviz.json";
    ASSERT_TRUE(w.saveSession(path, &error)) << error.toStdString();
    ASSERT_TRUE(readSessionFile(path.toStdString()).image);
    EXPECT_EQ(readSessionFile(path.toStdString()).image->prepare, "cutout");
    {
        MainWindow again;
        again.show();
        ASSERT_TRUE(again.openSession(path, &error)) << error.toStdString();
        ASSERT_TRUE(again.imageView()->chooser()->waitForImage(&error)) << error.toStdString();
        EXPECT_EQ(again.imageView()->model()->image(), cut.model.pixels);
    }
    nlohmann::json older = nlohmann::json::parse(readAll(path));
    older["image"].erase("prepare");
    const QString olderPath = m_dir.path() + "/older.attnviz.json";
    std::ofstream(olderPath.toStdString()) << older.dump();
    MainWindow old;
    old.show();
    ASSERT_TRUE(old.openSession(olderPath, &error)) << error.toStdString();
    ASSERT_TRUE(old.imageView()->chooser()->waitForImage(&error)) << error.toStdString();
    EXPECT_EQ(old.imageView()->chooser()->prepare(), PrepareMode::Plain);
    EXPECT_EQ(old.imageView()->model()->image(), whole.pixels);
}

// A set of colour models of the clothing photos (issue 49) is browsed on its own test photos:
// the strip, its class filter and the image the models read are that task's (64 × 64 colour,
// not Fashion-MNIST's 28 × 28, which made the app say "nothing to draw"); a person's photo is
// read as it is (prepareColorModelImage, as `attnviz-cli classify` reads it), with nothing to
// cut out or invert; back in a Fashion-MNIST set the same photo is made its 28 × 28 again.
TEST_F(ImageMode, AColourSetIsBrowsedOnItsOwnPhotos) {
    const PhotoSet photos("ATTNVIZ_CLOTHING_PHOTOS", "clothing-photos");
    saveColourSet();
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(w.chooseModelSet("photos", false));
    ImageChooser* ch = w.imageView()->chooser();
    ImageModel* m = w.imageView()->model();
    EXPECT_EQ(ch->task().name, kClothingPhotosTask);
    ASSERT_TRUE(ch->waitForTestImages());
    const ImageSet test = findImageTask(kClothingPhotosTask)->load("test");
    ASSERT_EQ(ch->testImages().size(), test.size());
    ASSERT_TRUE(waitUntil([&] { return !m->busy() && m->results().size() == 2; }));
    const std::vector<uint8_t> first(test.image(0), test.image(0) + 64 * 64 * 3);
    EXPECT_EQ(m->image(), first);
    for (const ColumnResult& r : m->results()) EXPECT_TRUE(r.image) << r.error;
    EXPECT_NE(m->source().find("clothing-photos test image 0"), std::string::npos);
    // The filter lists the photos' ten classes; the thumbnails are in colour.
    QComboBox* filter = nullptr;
    int shownBoxes = 0;
    for (QComboBox* box : ch->findChildren<QComboBox*>()) {
        if (box->isVisible()) ++shownBoxes;
        if (box->count() == 11) filter = box;
    }
    ASSERT_NE(filter, nullptr);
    EXPECT_EQ(filter->itemText(10), "Hat");
    EXPECT_EQ(shownBoxes, 1);  // no cut-out, no invert
    QListWidget* strip = ch->findChild<QListWidget*>();
    ASSERT_GT(strip->count(), 0);
    EXPECT_TRUE(strip->item(0)->toolTip().startsWith(
        QString::fromStdString(clothingPhotoClasses()[test.labels[0]])));
    EXPECT_FALSE(strip->item(0)->icon().pixmap(48, 48).toImage().isGrayscale());
    ch->setClassFilter(9);  // Hat
    for (int i = 0; i < strip->count(); ++i)
        EXPECT_EQ(test.labels[size_t(strip->item(i)->data(Qt::UserRole).toInt())], 9);
    // A person's photo, as it is.
    const QString photo = QStringLiteral(ATTNVIZ_TEST_DATA "/photos/coat-01.jpg");
    const ColorImage color = render::readColorImageFile(photo.toStdString());
    QString error;
    ASSERT_TRUE(ch->openImageFile(photo, &error)) << error.toStdString();
    EXPECT_EQ(m->image(), prepareColorModelImage(color, 64));
    ASSERT_TRUE(waitUntil([&] { return !m->busy() && m->results().size() == 2; }));
    for (const ColumnResult& r : m->results()) EXPECT_TRUE(r.image) << r.error;
    // The Heads dock's "Over test images" reads the photos whole (every model failed on them,
    // given a third of each photo, before), and says whose test images they are.
    w.findChild<QDockWidget*>("heads")->raise();
    HeadsDock* d = w.heads();
    EXPECT_NE(d->overImagesButton()->toolTip().indexOf("clothing-photo test images"), -1)
        << d->overImagesButton()->toolTip().toStdString();
    ASSERT_TRUE(d->computeOverTestImages());
    ASSERT_TRUE(waitUntil([&] { return d->showsSet(); }, 120000))
        << d->status()->text().toStdString();
    EXPECT_EQ(d->table()->model()->rowCount(), 4);  // 2 models × 1 layer × 2 heads
    // A file that cannot be opened leaves the photo shown, and it is the photo shown that
    // another set makes its input again (not the file that failed); and back.
    EXPECT_FALSE(ch->openImageFile(m_dir.path() + "/no-such-photo.png", &error));
    ASSERT_TRUE(w.chooseModelSet("vision", false));
    EXPECT_EQ(ch->task().name, kFashionMnistTask);
    ASSERT_TRUE(ch->waitForImage(&error)) << error.toStdString();
    EXPECT_EQ(m->image(), cutOutGarment(color, 28, InvertMode::Auto).model.pixels);
    int boxes = 0;
    for (QComboBox* box : ch->findChildren<QComboBox*>()) boxes += box->isVisible();
    EXPECT_EQ(boxes, 3);  // the filter, cut-out and invert
    ASSERT_TRUE(w.chooseModelSet("photos", false));
    ASSERT_TRUE(ch->waitForImage(&error)) << error.toStdString();
    EXPECT_EQ(m->image(), prepareColorModelImage(color, 64));
}

// Colour models trained on the cut-out photos (their training record's task, issue 49) are
// browsed on the cut-out set, and a person's photo is cut out for them as that set was made
// (cutOutColorGarment: the garment on gray, the steps shown beside the strip); "whole image"
// fits the photo as it is. Invert stays hidden: a colour model reads colours.
TEST_F(ImageMode, AModelOfTheCutOutPhotosCutsAPersonsPhotoOut) {
    const PhotoSet photos("ATTNVIZ_CLOTHING_PHOTOS_CUTOUT", "clothing-photos-cutout");
    saveColourSet(kClothingCutoutTask);
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    ASSERT_TRUE(w.chooseModelSet("photos", false));
    ImageChooser* ch = w.imageView()->chooser();
    ImageModel* m = w.imageView()->model();
    EXPECT_EQ(ch->task().name, kClothingCutoutTask);
    ASSERT_TRUE(ch->waitForTestImages());
    const ImageSet test = findImageTask(kClothingCutoutTask)->load("test");
    ASSERT_TRUE(waitUntil([&] { return !m->busy() && m->results().size() == 2; }));
    EXPECT_EQ(m->image(), std::vector<uint8_t>(test.image(0), test.image(0) + 64 * 64 * 3));
    EXPECT_NE(m->source().find("clothing-photos-cutout test image 0"), std::string::npos);
    int shownBoxes = 0;
    for (QComboBox* box : ch->findChildren<QComboBox*>()) shownBoxes += box->isVisible();
    EXPECT_EQ(shownBoxes, 2);  // the filter and the cut-out choice; no invert
    const QString photo = QStringLiteral(ATTNVIZ_TEST_DATA "/photos/coat-01.jpg");
    const ColorImage color = render::readColorImageFile(photo.toStdString());
    GarmentCutout cut;
    const std::vector<uint8_t> cutOut = cutOutColorGarment(color, 64, &cut);
    ASSERT_TRUE(cut.found) << cut.note;
    QString error;
    ASSERT_TRUE(ch->openImageFile(photo, &error)) << error.toStdString();
    EXPECT_EQ(m->image(), cutOut);
    EXPECT_NE(m->source().find("garment cut out on gray"), std::string::npos) << m->source();
    ASSERT_TRUE(waitUntil([&] { return !m->busy() && m->results().size() == 2; }));
    for (const ColumnResult& r : m->results()) EXPECT_TRUE(r.image) << r.error;
    ch->setPrepare(PrepareMode::Plain);
    EXPECT_EQ(m->image(), prepareColorModelImage(color, 64));
    ch->setPrepare(PrepareMode::Cutout);
    EXPECT_EQ(m->image(), cutOut);
    EXPECT_FALSE(w.problems()->lines().join('\n').contains("differently prepared"));
    // A model of the plain photos beside them reads the photo as the first column's were:
    // said once in Problems, naming both columns and both sets.
    const std::string plainPath = (m_dir.path() + "/plain-m.safetensors").toStdString();
    colourModel(3, kClothingPhotosTask).save(plainPath);
    std::vector<ModelColumn> three = w.columns();
    three.push_back(loadModelColumn(plainPath));
    w.setColumns(three);
    const QString problems = w.problems()->lines().join('\n');
    EXPECT_TRUE(problems.contains(QString::fromStdString(three[0].name) +
                                  " learned from the cut-out clothing-photo photos and " +
                                  QString::fromStdString(three[2].name) +
                                  " from the clothing-photo photos"))
        << problems.toStdString();
    EXPECT_EQ(ch->task().name, kClothingCutoutTask);
}

// The last workspace lives in the settings file, read whole at every start: a pasted image
// of more than 256 KiB goes to a file of its own (named as the workspace's image file), a
// small one stays inside (issue 28).
TEST(LastWorkspace, ALargePastedImageIsKeptBesideTheSettingsNotInThem) {
    auto png = [](int side) {
        QImage noise(side, side, QImage::Format_RGB32);
        uint32_t x = 12345;
        for (int y = 0; y < side; ++y)
            for (int c = 0; c < side; ++c) noise.setPixel(c, y, (x = x * 1664525u + 1013904223u));
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        noise.save(&buffer, "PNG");
        return bytes.toStdString();
    };
    Session last;
    last.image = SessionImage{};
    last.image->pastedPng = png(600);  // noise: about 1 MiB of PNG
    ASSERT_GT(last.image->pastedPng.size(), Session::kMaxPastedPngInSettings);
    last.saveAsLast();
    EXPECT_LT(QSettings().value("lastSession").toByteArray().size(), 64 * 1024);
    Session stored;
    ASSERT_FALSE(Session::loadLast(&stored));  // no columns: nothing to reopen, but read
    const SessionFile f = parseSessionJson(
        QSettings().value("lastSession").toByteArray().toStdString(), "the last workspace");
    ASSERT_TRUE(f.image);
    EXPECT_TRUE(f.image->pastedPng.empty());
    EXPECT_EQ(f.image->file, Session::lastPastedImagePath().toStdString());
    QFile kept(Session::lastPastedImagePath());
    ASSERT_TRUE(kept.open(QIODevice::ReadOnly));
    EXPECT_TRUE(kept.readAll().toStdString() == last.image->pastedPng);
    last.image->pastedPng = png(40);  // small: inside, as in a workspace file
    last.saveAsLast();
    const SessionFile small = parseSessionJson(
        QSettings().value("lastSession").toByteArray().toStdString(), "the last workspace");
    EXPECT_EQ(small.image->pastedPng, last.image->pastedPng);
    EXPECT_TRUE(small.image->file.empty());
    QSettings().remove("lastSession");
}

// When the file beside the settings cannot be written (here a folder stands at its path),
// the pasted image is kept inside the settings instead: never dropped.
TEST(LastWorkspace, APastedImageThatCannotGoBesideTheSettingsStaysInThem) {
    QImage noise(600, 600, QImage::Format_RGB32);
    uint32_t x = 777;
    for (int y = 0; y < noise.height(); ++y)
        for (int c = 0; c < noise.width(); ++c)
            noise.setPixel(c, y, (x = x * 1664525u + 1013904223u));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    noise.save(&buffer, "PNG");
    Session last;
    last.image = SessionImage{};
    last.image->pastedPng = bytes.toStdString();
    ASSERT_GT(last.image->pastedPng.size(), Session::kMaxPastedPngInSettings);
    QFile::remove(Session::lastPastedImagePath());
    ASSERT_TRUE(QDir().mkpath(Session::lastPastedImagePath()));  // a folder where the file goes
    last.saveAsLast();
    const SessionFile f = parseSessionJson(
        QSettings().value("lastSession").toByteArray().toStdString(), "the last workspace");
    ASSERT_TRUE(f.image);
    EXPECT_TRUE(f.image->pastedPng == last.image->pastedPng);
    EXPECT_TRUE(f.image->file.empty());
    QDir().rmdir(Session::lastPastedImagePath());
    QSettings().remove("lastSession");
}

// What a workspace's image part names but cannot be (a test image beyond the set, a patch
// outside a model's grid, an unknown colour map, a file gone) is listed in Problems, and the
// rest opens.
TEST_F(ImageMode, AWorkspacesImpossibleImageIsReportedAndTheRestOpens) {
    const QString path = m_dir.path() + "/bad.attnviz.json";
    auto write = [&](const std::string& image) {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(
            R"({"attnviz_session": 1, "model_set": "vision", "columns": [")" +
            modelPath("01-mean").toStdString() + R"(", ")" + modelPath("02-cls").toStdString() +
            R"("], "image": )" + image + "}"));
    };
    write(R"({"test_index": 99999, "query": "9,9", "colormap": "rainbow", "layer": 5})");
    MainWindow w;
    w.show();
    QString error;
    ASSERT_TRUE(w.openSession(path, &error)) << error.toStdString();
    ASSERT_TRUE(w.imageView()->chooser()->waitForTestImages());
    const QString problems = w.problems()->lines().join('\n');
    // The file's layer 5 (an index) is the 6th layer, as people count: "Layer 6: the models
    // have layers 1 … 2".
    for (const char* said : {"99999", "9,9", "rainbow", "Layer 6: the models have layers 1 … 2"})
        EXPECT_TRUE(problems.contains(said)) << said << " in " << problems.toStdString();
    EXPECT_EQ(w.columns().size(), 2u);
    EXPECT_EQ(w.imageView()->model()->request().query, ImageQuery{});
    EXPECT_EQ(w.imageView()->model()->request().colormap, "viridis");
    write(R"({"file": "gone.png"})");
    ASSERT_TRUE(w.openSession(path, &error)) << error.toStdString();
    w.imageView()->chooser()->waitForImage();  // decoded in the background
    EXPECT_TRUE(w.problems()->lines().join('\n').contains("gone.png"));
    write(R"({"heads": "0,1"})");  // the file's own rules: refused whole, by the reader
    EXPECT_FALSE(w.openSession(path, &error));
    EXPECT_TRUE(error.contains("'image.heads' must be all, mean or rollout"))
        << error.toStdString();
}

// With the shared scale every panel's colours top at the largest patch weight of all panels,
// shown by a colour bar beside the grid; without it each panel tops at its own.
TEST_F(ImageMode, ASharedScaleGivesEveryPanelOneTopAndAColourBar) {
    MainWindow w;
    w.show();
    open(w);
    ImageView* v = w.imageView();
    EXPECT_FALSE(v->colorBar()->isVisible());
    double top = 0;
    std::set<double> own;
    for (int c = 0; c < 2; ++c)
        for (const ImagePanelView* p : v->grid()->panels(c)) {
            const auto& w8 = p->panel().overlay.weights.patches;
            const double mine = *std::max_element(w8.begin(), w8.end());
            EXPECT_DOUBLE_EQ(p->scaleTop(), mine);
            own.insert(mine);
            top = std::max(top, mine);
        }
    EXPECT_GT(own.size(), 1u);  // the panels differ: a shared scale changes something
    v->sharedBox()->setChecked(true);
    EXPECT_TRUE(v->model()->request().shared);
    EXPECT_DOUBLE_EQ(v->model()->sharedTop(), top);
    for (int c = 0; c < 2; ++c)
        for (const ImagePanelView* p : v->grid()->panels(c)) EXPECT_DOUBLE_EQ(p->scaleTop(), top);
    EXPECT_TRUE(v->colorBar()->isVisible());
    EXPECT_DOUBLE_EQ(v->colorBar()->top(), top);
    v->sharedBox()->setChecked(false);
    EXPECT_FALSE(v->colorBar()->isVisible());
}

// The Heads dock's distance-by-layer chart: a dot per head at its layer, its distance what the
// table says; nothing is computed while the dock is behind another tab or the chart is off.
TEST_F(ImageMode, TheDistanceChartIsComputedOnlyWhenSeen) {
    MainWindow w;
    w.show();
    open(w);
    HeadsDock* d = w.heads();
    EXPECT_TRUE(d->imageMode());
    EXPECT_FALSE(d->overSetButton()->isVisible());  // sentences: not for image models
    EXPECT_EQ(d->imageComputations(), 0);           // behind the Variant tab
    EXPECT_EQ(d->chartComputations(), 0);
    w.findChild<QDockWidget*>("heads")->raise();
    ASSERT_TRUE(waitUntil([&] { return d->chartComputations() == 1 && d->headCount() == 4; }));
    const render::ChartGrid& g = d->distanceChart()->charts();
    ASSERT_EQ(g.charts.size(), 1u);
    ASSERT_EQ(g.charts[0].series.size(), 3u);  // two models and the uniform line
    const auto& results = w.imageView()->model()->results();
    for (size_t m = 0; m < 2; ++m) {
        const render::ChartSeries& s = g.charts[0].series[m];
        EXPECT_EQ(s.name, results[m].name);
        ASSERT_EQ(s.y.size(), 4u);  // 2 layers × 2 heads
        for (size_t k = 0; k < 4; ++k) {
            const auto& res = *results[m].image;
            EXPECT_EQ(std::lround(s.x[k]), long(k / 2) + 1);  // the layer from 1, dots side by side
            EXPECT_NEAR(
                s.y[k],
                meanAttentionDistance(res.analysis.blocks[k / 2].weights[k % 2], res.grid).px,
                1e-9);
        }
    }
    d->chartToggle()->setChecked(false);
    w.imageView()->chooser()->chooseTestImage(3);  // new results: the hidden chart waits
    ASSERT_TRUE(
        waitUntil([&] { return !w.imageView()->model()->busy() && d->imageComputations() == 2; }));
    EXPECT_EQ(d->chartComputations(), 1);
    d->chartToggle()->setChecked(true);
    EXPECT_EQ(d->chartComputations(), 2);
    w.findChild<QDockWidget*>("variant")->raise();
    w.imageView()->chooser()->chooseTestImage(4);
    ASSERT_TRUE(waitUntil([&] { return !w.imageView()->model()->busy(); }));
    EXPECT_EQ(d->imageComputations(), 2);
    EXPECT_EQ(d->chartComputations(), 2);
}

// "Over test images": each head's mean attention distance over the first 1,000 test images is
// what core's analyzeImageSet (the CLI's `analyze --fashion-mnist-count`) gives on the same
// images, in the table and the chart; another image brings back the image's own statistics.
TEST_F(ImageMode, OverTestImagesGivesEachHeadsDistanceAsTheCliDoes) {
    MainWindow w;
    HeadsDock* d = nullptr;
    ASSERT_NO_FATAL_FAILURE(d = openWithHeadsSeen(w));
    EXPECT_TRUE(d->overImagesButton()->isVisible());
    EXPECT_FALSE(d->overSetButton()->isVisible());
    ASSERT_TRUE(d->computeOverTestImages());
    EXPECT_TRUE(d->progress()->isVisible());
    ASSERT_TRUE(waitUntil([&] { return d->showsSet(); }, 120000));
    EXPECT_FALSE(d->progress()->isVisible());
    const QString thousand = QLocale().toString(HeadsDock::kTestImages) + " test images";
    EXPECT_NE(d->status()->text().indexOf(thousand), -1) << d->status()->text().toStdString();
    const ImageSet images =
        w.imageView()->chooser()->testImages().slice(0, size_t(HeadsDock::kTestImages));
    const QAbstractItemModel* table = d->table()->model();
    ASSERT_EQ(table->rowCount(), 8);  // 2 models × 2 layers × 2 heads, every layer
    const render::ChartGrid& chart = d->distanceChart()->charts();
    ASSERT_EQ(chart.charts.size(), 1u);
    EXPECT_NE(chart.title.find(thousand.toStdString()), std::string::npos) << chart.title;
    for (int c = 0; c < 2; ++c) {
        Model m = w.columns()[size_t(c)].model->clone();
        const auto ref = analyzeImageSet(m, images).distances.perHead();  // [layers][heads]
        ASSERT_EQ(ref.size(), 2u);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 2; ++h) {
                const int row = c * 4 + l * 2 + h;  // table order: column, block, head
                auto value = [&](int col) {
                    return table->data(table->index(row, col), HeadsDock::ValueRole).toDouble();
                };
                EXPECT_EQ(int(value(HeadsDock::Layer)), l);
                EXPECT_EQ(int(value(HeadsDock::Head)), h);
                EXPECT_NEAR(value(HeadsDock::Distance), ref[size_t(l)][size_t(h)].px, 1e-12);
                EXPECT_NEAR(chart.charts[0].series[size_t(c)].y[size_t(l * 2 + h)],
                            ref[size_t(l)][size_t(h)].px, 1e-12);
            }
        // Not the first image's own distances: the set's differ from them.
        const auto& own = *w.imageView()->model()->results()[size_t(c)].image;
        EXPECT_NE(meanAttentionDistance(own.analysis.blocks[0].weights[0], own.grid).px,
                  ref[0][0].px);
    }
    const int charts = d->chartComputations();
    w.imageView()->chooser()->chooseTestImage(5);
    ASSERT_TRUE(waitUntil([&] { return !d->showsSet() && d->chartComputations() > charts; }));
    EXPECT_EQ(d->distanceChart()->charts().title.find("test images"), std::string::npos);
}

// Cancel stops it: the table keeps the image's statistics, the status says cancelled.
TEST_F(ImageMode, OverTestImagesCanBeCancelled) {
    MainWindow w;
    HeadsDock* d = nullptr;
    ASSERT_NO_FATAL_FAILURE(d = openWithHeadsSeen(w));
    ASSERT_TRUE(d->computeOverTestImages());
    d->cancelButton()->click();
    EXPECT_FALSE(d->setBusy());
    EXPECT_FALSE(d->showsSet());
    EXPECT_NE(d->status()->text().indexOf("cancelled"), -1) << d->status()->text().toStdString();
    QTest::qWait(200);  // the worker stops; its result is dropped
    EXPECT_FALSE(d->showsSet());
    EXPECT_TRUE(d->overImagesButton()->isEnabled());
}

// Columns scrolled out of view get no panels until they come into view.
TEST_F(ImageMode, ColumnsOutOfViewAreFilledWhenScrolledIn) {
    for (int k = 3; k <= 8; ++k)
        save("0" + std::to_string(k) + "-more", R"("pool": "mean")", uint64_t(k));
    MainWindow w;
    w.resize(900, 700);
    w.show();
    ASSERT_TRUE(w.chooseModelSet("vision", false));
    ASSERT_TRUE(w.imageView()->chooser()->waitForTestImages());
    ImageModel* m = w.imageView()->model();
    ASSERT_TRUE(waitUntil([&] { return !m->busy() && m->results().size() == 8; }));
    ImageGrid* g = w.imageView()->grid();
    EXPECT_TRUE(g->filled(0));
    EXPECT_FALSE(g->filled(7));
    EXPECT_TRUE(g->panels(7).empty());
    auto* scroll = w.imageView()->findChild<QScrollArea*>();
    ASSERT_NE(scroll, nullptr);
    // The grid may still be growing to its eight columns (a layout request pending): scroll to
    // the end as a person would, again until the end stops moving, then the last column is there.
    QScrollBar* bar = scroll->horizontalScrollBar();
    ASSERT_TRUE(waitUntil([&] {
        bar->setValue(bar->maximum());
        return bar->maximum() > 0 && g->filled(7);
    }));
    EXPECT_EQ(g->panels(7).size(), 2u);
}

// Image models are never run on the sentence: their result is at once the error that they
// read images, even while their model is busy (locked) elsewhere.
TEST_F(ImageMode, TheSentenceIsNotAnalysedWithImageModels) {
    const ModelColumn img = loadModelColumn(modelPath("01-mean").toStdString());
    std::lock_guard<std::mutex> busy(*img.lock);  // anything that ran it would wait
    AnalysisRunner runner;
    std::shared_ptr<const Results> done;
    QObject::connect(&runner, &AnalysisRunner::finished,
                     [&](std::shared_ptr<const Results> r) { done = std::move(r); });
    runner.request({img}, "a sentence", "");
    ASSERT_TRUE(waitUntil([&] { return done != nullptr; }, 5000));
    ASSERT_EQ(done->size(), 1u);
    EXPECT_NE((*done)[0].error.find("reads images"), std::string::npos) << (*done)[0].error;
    const Results now = analyzeCatching({img}, "a sentence", "");
    EXPECT_EQ(now[0].error, (*done)[0].error);
}

// An image takes the text's road (issue 47): each image model's analysis is a job of the
// runner, equal to core's analyzeImageColumn; a text model's result says at once that it
// reads sentences; a newer image makes the older one's jobs stale, never shown.
TEST_F(ImageMode, AnImageIsAnalysedByTheRunner) {
    std::vector<ModelColumn> cols = {
        loadModelColumn(modelPath("01-mean").toStdString()),
        loadModelColumn(m_dir.filePath("01-dot.safetensors").toStdString()),
        loadModelColumn(modelPath("02-cls").toStdString())};
    const ImageSet fm = findImageTask(kFashionMnistTask)->load("test");
    const std::vector<uint8_t> a = fm.imagePixels(0), b = fm.imagePixels(1);
    AnalysisRunner runner;
    auto gate = std::make_shared<QSemaphore>();
    runner.setBeforeWhole([gate](int) {
        gate->acquire();
        gate->release();
    });
    std::shared_ptr<const Results> done;
    std::vector<int> ready;
    QObject::connect(&runner, &AnalysisRunner::finished,
                     [&](std::shared_ptr<const Results> r) { done = std::move(r); });
    QObject::connect(&runner, &AnalysisRunner::columnReady,
                     [&](int c, const ColumnResult&) { ready.push_back(c); });
    runner.requestImage(cols, a, fm.labels[0]);
    ASSERT_TRUE(waitUntil([&] { return ready == std::vector<int>{1}; }));  // the text model's
    runner.requestImage(cols, b, fm.labels[1]);                            // a's jobs: stale
    gate->release();
    ASSERT_TRUE(waitUntil([&] { return done != nullptr; }, 10000));
    runner.setBeforeWhole(nullptr);
    ASSERT_EQ(done->size(), 3u);
    EXPECT_NE((*done)[1].error.find("reads sentences"), std::string::npos) << (*done)[1].error;
    EXPECT_FALSE((*done)[1].image);
    for (int c : {0, 2}) {
        const ColumnResult direct = analyzeImageColumn(cols[size_t(c)], b, fm.labels[1]);
        const ColumnResult& r = (*done)[size_t(c)];
        ASSERT_TRUE(r.image && direct.image) << r.error;
        EXPECT_EQ(r.image->analysis.probabilities, direct.image->analysis.probabilities);
        EXPECT_EQ(r.image->analysis.blocks[1].weights[0],
                  direct.image->analysis.blocks[1].weights[0]);
        EXPECT_NE(
            r.image->analysis.probabilities,
            analyzeImageColumn(cols[size_t(c)], a, fm.labels[0]).image->analysis.probabilities);
    }
    EXPECT_GE(runner.cancelledJobs(), 1);  // a's image jobs skipped or dropped
    // Only b's image results were shown (the text model's error came for each image).
    EXPECT_EQ(std::count(ready.begin(), ready.end(), 0), 1);
    EXPECT_EQ(std::count(ready.begin(), ready.end(), 2), 1);
}

// The same columns given again (a workspace's opening changes the set and the columns at
// once, and the window passes its columns for each) are not analysed twice; other columns are.
TEST_F(ImageMode, TheSameColumnsAreNotAnalysedTwice) {
    MainWindow w;
    w.show();
    open(w);
    ImageModel* m = w.imageView()->model();
    QSignalSpy runs(m, &ImageModel::resultsChanged);
    m->setColumns(m->columns());
    m->setColumns(m->columns());
    EXPECT_FALSE(m->busy());
    QTest::qWait(50);
    EXPECT_EQ(runs.count(), 0);
    std::vector<ModelColumn> swapped = m->columns();
    std::swap(swapped[0], swapped[1]);
    m->setColumns(swapped);
    ASSERT_TRUE(waitUntil([&] { return !m->busy(); }));
    EXPECT_EQ(runs.count(), 1);
    EXPECT_EQ(m->results()[0].name, swapped[0].name);
}

// A new image in the app: each column shown as it comes, in place (the grid's widgets kept);
// columns whose analysis takes longer than kStaleMarkMs are dimmed until it comes.
TEST_F(ImageMode, ASlowImageAnalysisDimsItsColumnsUntilTheyCome) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    open(w);
    ImageModel* m = w.imageView()->model();
    ImageGrid* g = w.imageView()->grid();
    ASSERT_EQ(g->columnCount(), 2);
    QToolButton* header = g->header(0);
    auto gate = std::make_shared<QSemaphore>();
    m->runner()->setBeforeWhole([gate](int) {
        gate->acquire();
        gate->release();
    });
    QSignalSpy arrived(m, &ImageModel::columnChanged);
    w.imageView()->chooser()->chooseTestImage(4);
    QTest::qWait(ImageModel::kStaleMarkMs + 100);
    EXPECT_TRUE(m->busy());
    EXPECT_TRUE(m->staleMarked(0) && m->staleMarked(1));
    EXPECT_TRUE(isDimmed(g->header(0)) && isDimmed(g->header(1)));
    gate->release();
    ASSERT_TRUE(waitUntil([&] { return !m->busy(); }));
    m->runner()->setBeforeWhole(nullptr);
    EXPECT_EQ(arrived.count(), 2);
    EXPECT_EQ(g->header(0), header);  // shown in place, not a new grid
    EXPECT_FALSE(m->staleMarked(0) || m->staleMarked(1));
    EXPECT_FALSE(isDimmed(g->header(0)) || isDimmed(g->header(1)));
    const ImageSet fm = findImageTask(kFashionMnistTask)->load("test");
    EXPECT_EQ(m->image(), fm.imagePixels(4));
    ASSERT_TRUE(m->results()[0].image);
    EXPECT_EQ(m->results()[0].image->analysis.probabilities,
              analyzeImageColumn(w.columns()[0], fm.imagePixels(4), fm.labels[4])
                  .image->analysis.probabilities);
    // One colour scale over every column: no column is shown before all are in (its header
    // would name the new image's class above the old image's panels); all stay dimmed.
    ImageRequest shared = m->request();
    shared.shared = true;
    m->setRequest(shared);
    const QString before = g->header(0)->text();
    m->runner()->setBeforeWhole([gate](int) {
        gate->acquire();
        gate->release();
    });
    gate->acquire();  // closed again
    arrived.clear();
    w.imageView()->chooser()->chooseTestImage(6);
    QTest::qWait(ImageModel::kStaleMarkMs + 100);
    EXPECT_TRUE(m->staleMarked(0) && m->staleMarked(1));
    EXPECT_EQ(g->header(0)->text(), before);
    gate->release();
    ASSERT_TRUE(waitUntil([&] { return !m->busy(); }));
    m->runner()->setBeforeWhole(nullptr);
    EXPECT_EQ(arrived.count(), 0);
    EXPECT_EQ(m->image(), fm.imagePixels(6));
    EXPECT_EQ(m->results()[1].image->analysis.probabilities,
              analyzeImageColumn(w.columns()[1], fm.imagePixels(6), fm.labels[6])
                  .image->analysis.probabilities);
    EXPECT_FALSE(isDimmed(g->header(0)) || isDimmed(g->header(1)));
}

// Ctrl+−/+/0 zoom the image panels as they zoom the text grid's (issue 47): the view's zoom
// sizes every panel, and Actual size brings them back.
TEST_F(ImageMode, ZoomSizesTheImagePanels) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    open(w);
    w.imageView()->chooser()->chooseTestImage(3);
    ASSERT_TRUE(waitUntil([&] { return !w.imageView()->model()->busy(); }));
    ImageGrid* g = w.imageView()->grid();
    g->fill(0);
    ASSERT_FALSE(g->panels(0).empty());
    const QSize base = g->panels(0).front()->size();
    w.zoomBy(1.25);
    EXPECT_EQ(g->panels(0).front()->size(),
              QSize(qRound(base.width() * 1.25), qRound(base.height() * 1.25)));
    w.zoomBy(0);
    EXPECT_EQ(g->panels(0).front()->size(), base);
}

// The Variant dock follows a clicked image panel, as it follows a clicked text panel (issue
// 47): the column clicked becomes the current one and the dock names its model.
TEST_F(ImageMode, TheVariantDockFollowsAClickedPanel) {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    open(w);
    w.imageView()->chooser()->chooseTestImage(5);
    ASSERT_TRUE(waitUntil([&] { return !w.imageView()->model()->busy(); }));
    ImageGrid* g = w.imageView()->grid();
    for (int c : {1, 0}) {
        g->fill(c);
        ASSERT_FALSE(g->panels(c).empty());
        ImagePanelView* p = g->panels(c).front();
        QTest::mouseClick(p, Qt::LeftButton, {}, p->rect().center());
        EXPECT_EQ(w.workspace()->currentColumn(), c);
        EXPECT_TRUE(
            w.variantPanel()->text().contains(QString::fromStdString(w.columns()[size_t(c)].name)))
            << w.variantPanel()->text().toStdString();
        // ... and describes the model's own attention, its encoder's over the patches: once
        // it showed an image model's unused decoder block ("dec self: dot (0 heads)").
        const BlockConfig& own =
            w.columns()[size_t(c)].model->config().block(BlockKind::EncoderSelf);
        const QString text = w.variantPanel()->text();
        EXPECT_TRUE(text.contains(QString("<b>enc self</b>: %1 (%2 heads)")
                                      .arg(QString::fromStdString(own.variant))
                                      .arg(own.heads)))
            << text.toStdString();
        EXPECT_FALSE(text.contains("dec self")) << text.toStdString();
        EXPECT_FALSE(text.contains("cross")) << text.toStdString();
    }
}

// Texts made from data follow a live language switch (issue 47: "Test image 3: Dress" and
// "patch (row 4, column 4)" stayed English in the Chinese interface).
TEST_F(ImageMode, TheImagesNoteAndThePatchQueryFollowTheLanguage) {
    MainWindow w;
    w.show();
    open(w);
    w.imageView()->chooser()->chooseTestImage(3);
    w.imageView()->model()->setQuery(ImageQuery::patch(3, 3));
    auto texts = [&] {
        QStringList out;
        for (auto* l : w.imageView()->chooser()->findChildren<QLabel*>())
            if (l->text().contains(" 3")) out << l->text();
        for (auto* b : w.imageView()->findChildren<QComboBox*>())
            if (b->count() > 2 && b->itemData(2).toString() == "3,3") out << b->itemText(2);
        return out;
    };
    const QStringList english = texts();
    ASSERT_TRUE(english.contains("patch (row 4, column 4)")) << english.join(" | ").toStdString();
    ASSERT_TRUE(std::any_of(english.begin(), english.end(), [](const QString& t) {
        return t.startsWith("Test image 3: ");
    })) << english.join(" | ").toStdString();
    w.setLanguage("zh_CN");
    const QStringList chinese = texts();
    w.setLanguage("en");
    for (const QString& t : chinese)
        EXPECT_FALSE(t.startsWith("Test image") || t.startsWith("patch")) << t.toStdString();
    EXPECT_EQ(chinese.size(), english.size()) << chinese.join(" | ").toStdString();
}
