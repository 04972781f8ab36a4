// SPDX-License-Identifier: GPL-3.0-or-later
// The app's figure export (ui/export_dialog.h, ui/export_sources.h) exports what is shown:
// the columns chosen in the model picker, in their order, in the view's block, layer and
// heads; on a slide, with labels at the size asked (measured in the written SVG and PDF),
// the sentence and its translation as a caption, and a PNG of exactly the pixels asked.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <map>

#include "tests/render/figure_measure.h"
#include "ui/analysis_runner.h"
#include "ui/export_dialog.h"
#include "ui/export_sources.h"
#include "ui/main_window.h"
#include "ui/model_picker.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

void waitForResults(MainWindow& w) {
    QSignalSpy spy(w.runner(), &AnalysisRunner::finished);
    ASSERT_TRUE(spy.wait(20000));
    while (w.runner()->busy()) ASSERT_TRUE(spy.wait(20000));
}

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Ticks exactly `names` in the picker, in that order at the top.
MainWindow::PickModels pick(const QStringList& names) {
    return [names](ModelPicker& picker) {
        QListWidget* list = picker.list();
        for (int i = 0; i < list->count(); ++i) list->item(i)->setCheckState(Qt::Unchecked);
        for (int k = int(names.size()) - 1; k >= 0; --k)
            for (int i = 0; i < list->count(); ++i)
                if (list->item(i)->text() == names[k]) {
                    QListWidgetItem* item = list->takeItem(i);
                    item->setCheckState(Qt::Checked);
                    list->insertItem(0, item);
                    break;
                }
        return true;
    };
}

}  // namespace

TEST(Export, ASlideOfTheChosenColumnsAtTheLabelSizeAsked) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    ASSERT_EQ(w.columns().size(), 12u);
    w.setSentence("i want to go to the station");
    waitForResults(w);
    // Two columns chosen, HC-SA first: the other ten are not exported.
    w.setPickModels(pick({"hc-sa", "dot"}));
    w.chooseModels();
    waitForResults(w);
    ASSERT_EQ(w.columns().size(), 2u);
    const auto tokens = *w.workspace()->selection().columns.at(0).tables.at(0).queries;
    ASSERT_EQ(tokens.size(), 8u);  // 7 words and <eos>
    std::unique_ptr<ExportDialog> d(w.createExportDialog());
    d->setSizePreset("slide");
    d->setLabelPoints(9);
    const QString dir = QString::fromStdString(::testing::TempDir());
    QString error;
    ASSERT_TRUE(d->exportTo(dir + "slide.svg", &error)) << error.toStdString();
    const QByteArray svg = contents(dir + "slide.svg");
    const QString text = QString::fromUtf8(svg);
    EXPECT_EQ(text.count("<rect"), 2 * 4 * 8 * 8);  // every head of the two models
    EXPECT_NE(text.indexOf(">hc-sa<"), -1);
    EXPECT_LT(text.indexOf(">hc-sa<"), text.indexOf(">dot<"));  // in the order chosen
    EXPECT_EQ(text.indexOf(">dense<"), -1);
    // The labels at 9 pt on the page, every token; the panels share them (the same sentence
    // and tokenizer): queries once per row of panels, keys once per column.
    int labels = 0, glyphs = 0;
    std::map<std::string, int> perToken;
    for (const auto& [t, size] : test::svgTextSizes(svg))
        if (std::find(tokens.begin(), tokens.end(), t.toStdString()) != tokens.end()) {
            ++labels;
            ++perToken[t.toStdString()];
            glyphs += int(t.size());
            EXPECT_NEAR(size, 9, 0.01) << t.toStdString();
        }
    EXPECT_GE(labels, 2 * 2 * 8);        // at least a row's and a column's
    EXPECT_LT(labels, 2 * 4 * 2 * 8);    // fewer than every panel's own
    for (const auto& [t, n] : perToken)  // none left out: "to" twice in the sentence
        EXPECT_EQ(n, labels / 8 * (t == "to" ? 2 : 1)) << t;
    // The caption: the sentence and the models' translation (one line when they fit).
    EXPECT_NE(text.indexOf(">i want to go to the station"), -1);
    EXPECT_NE(text.indexOf("→ "), -1);
    EXPECT_EQ(exportCaption(*w.workspace()).count('\n'), text.count("→ "));
    // The PDF: the same labels at 9 pt as a reader draws them (a glyph at a time).
    ASSERT_TRUE(d->exportTo(dir + "slide.pdf", &error)) << error.toStdString();
    int atNine = 0;
    for (double size : test::pdfTextSizes(contents(dir + "slide.pdf")))
        atNine += std::abs(size - 9) < 0.01;
    EXPECT_GE(atNine, glyphs);
    // A PNG: the preset's pixels as the dialog says them, or exactly the pixels typed.
    d->setDpi(200);
    EXPECT_EQ(d->canvas().pixels, QSize(2667, 1500));
    bool said = false;  // the status line under the preview
    for (const QLabel* l : d->findChildren<QLabel*>()) said |= l->text().contains("2667 × 1500 px");
    EXPECT_TRUE(said);
    d->grab().save(dir + "export-dialog.png");  // for a person to look at
    ASSERT_TRUE(d->exportTo(dir + "slide.png", &error)) << error.toStdString();
    EXPECT_EQ(QImage(dir + "slide.png").size(), QSize(2667, 1500));
    for (const QSize px : {QSize(2666, 1500), QSize(1365, 767), QSize(801, 601)}) {
        d->setPixels(px);
        ASSERT_TRUE(d->exportTo(dir + "exact.png", &error)) << error.toStdString();
        EXPECT_EQ(QImage(dir + "exact.png").size(), px);
    }
    // Without the caption.
    d->setCaption(false);
    ASSERT_TRUE(d->exportTo(dir + "plain.svg", &error));
    EXPECT_EQ(QString::fromUtf8(contents(dir + "plain.svg")).indexOf("→ "), -1);
    // The view: the mean of heads, then a 4:3 slide.
    ViewState v = w.view();
    v.meanHeads = true;
    w.setView(v);
    d->setSizePreset("slide-4:3");
    EXPECT_EQ(d->canvas().points, QSizeF(720, 540));
    ASSERT_TRUE(d->exportTo(dir + "mean.svg", &error)) << error.toStdString();
    EXPECT_EQ(QString::fromUtf8(contents(dir + "mean.svg")).count("<rect"), 2 * 8 * 8);
}

// The caption's translation: the target given, else each model's own (one line while they
// agree, a line per translation named by its models when they differ); none before a sentence.
TEST(Export, CaptionIsTheSentenceAndItsTranslation) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    w.setPickModels(pick({"dot", "hc-sa"}));
    w.chooseModels();
    w.setSentence("i want to go to the station", "mo volo na de banof");
    waitForResults(w);
    EXPECT_EQ(exportCaption(*w.workspace()), "i want to go to the station\n→ mo volo na de banof");
    w.setSentence("the station", "");
    waitForResults(w);
    const QStringList lines = exportCaption(*w.workspace()).split('\n');
    ASSERT_GE(lines.size(), 2);
    EXPECT_EQ(lines[0], "the station");
    for (int i = 1; i < lines.size(); ++i) {
        EXPECT_TRUE(lines[i].startsWith("→ "));
        // Named by their models only when the models disagree.
        EXPECT_EQ(lines[i].endsWith(")"), lines.size() > 2) << lines[i].toStdString();
    }
    for (const auto& r : *w.workspace()->results())
        EXPECT_NE(lines.join('\n').indexOf(QString::fromStdString(r.analysis.targetText).trimmed()),
                  -1);
}

// The exported slide outlines the selected query row in every panel, as the panels on screen
// do (issue 29: the slide had no outline): the outline's colour in the PNG, in the query's
// row (a later query's outline lower down), and none without a selected query.
TEST(Export, TheSlideOutlinesTheSelectedQueryRowAsTheScreenDoes) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    w.setPickModels(pick({"dot", "hc-sa"}));
    w.chooseModels();
    w.setSentence("i want to go to the station");
    waitForResults(w);
    const QString dir = QString::fromStdString(::testing::TempDir());
    // The outline's pixels (#ff3b30, antialiased) of a 1920 × 1080 slide: how many, and
    // their mean height.
    auto outline = [&](int query, double* meanY) {
        w.selectQuery(0, query);
        std::unique_ptr<ExportDialog> d(w.createExportDialog());
        d->setSizePreset("slide");
        d->setPixels(QSize(1920, 1080));
        QString error;
        const QString png = dir + QString("query%1.png").arg(query);
        EXPECT_TRUE(d->exportTo(png, &error)) << error.toStdString();
        const QImage img = QImage(png).convertToFormat(QImage::Format_RGB32);
        EXPECT_EQ(img.size(), QSize(1920, 1080));
        qint64 n = 0;
        double y = 0;
        for (int r = 0; r < img.height(); ++r)
            for (int x = 0; x < img.width(); ++x) {
                const QRgb c = img.pixel(x, r);
                if (qRed(c) > 200 && qGreen(c) < 110 && qBlue(c) < 100) ++n, y += r;
            }
        if (meanY) *meanY = n > 0 ? y / double(n) : 0;
        return n;
    };
    EXPECT_EQ(outline(-1, nullptr), 0);
    double y2 = 0, y6 = 0;
    const qint64 row2 = outline(2, &y2);
    // Around each of the 8 panels' rows: two lines of a row's width at least.
    EXPECT_GT(row2, 8 * 2 * 100) << row2;
    EXPECT_GT(outline(6, &y6), 8 * 2 * 100);
    EXPECT_GT(y6, y2 + 10) << "the outline follows the query row";
    // The outline is a choice (issue 47): off, the query row is not framed.
    w.selectQuery(0, 2);
    std::unique_ptr<ExportDialog> d(w.createExportDialog());
    d->setSizePreset("slide");
    d->setPixels(QSize(1920, 1080));
    d->setOutlineQuery(false);
    QString error;
    const QString png = dir + "no-outline.png";
    ASSERT_TRUE(d->exportTo(png, &error)) << error.toStdString();
    const QImage img = QImage(png).convertToFormat(QImage::Format_RGB32);
    qint64 red = 0;
    for (int r = 0; r < img.height(); ++r)
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = img.pixel(x, r);
            red += qRed(c) > 200 && qGreen(c) < 110 && qBlue(c) < 100;
        }
    EXPECT_EQ(red, 0);
}

// Labels a slide can show (issue 47: every figure was exported at 7 pt, unreadable projected):
// the label size follows the page until a person sets it, 12 pt on a slide and 7 on a paper's
// figure; a size set is kept whatever the page. File › Export figure (and --export-figure)
// writes its slide at 12 pt.
TEST(Export, TheLabelSizeFollowsThePageUntilChosen) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    std::unique_ptr<ExportDialog> d(w.createExportDialog());
    d->setSizePreset("slide");
    EXPECT_EQ(d->labelPoints(), 12);
    d->setSizePreset("column");
    EXPECT_EQ(d->labelPoints(), 7);
    d->setSizePreset("page");
    EXPECT_EQ(d->labelPoints(), 7);
    d->setSizePreset("slide-4:3");
    EXPECT_EQ(d->labelPoints(), 12);
    d->setLabelPoints(9);
    d->setSizePreset("column");
    EXPECT_EQ(d->labelPoints(), 9);
    d->setSizePreset("slide");
    EXPECT_EQ(d->labelPoints(), 9);
    EXPECT_EQ(render::defaultLabelPoints(540), 12);
    EXPECT_EQ(render::defaultLabelPoints(360, true), 7);
    EXPECT_EQ(render::defaultLabelPoints(100), 7);
    // A 1920 × 1080 PNG at 200 dpi is 388.8 pt high: labels of the same share of its height
    // as a slide's 12 pt (24 of its 1080 pixels), not a paper's 7.
    std::unique_ptr<ExportDialog> e(w.createExportDialog());
    e->setDpi(200);
    e->setPixels(QSize(1920, 1080));
    EXPECT_NEAR(e->labelPoints(), 12 * 388.8 / 540, 0.06);
}

// Export › One panel › Head counts from 1, as every head the app names (issue 47: typing 2 gave
// head 3): the box starts at 1 and its value n asks the source for head index n − 1.
TEST(Export, TheHeadOfOnePanelCountsFromOne) {
    std::vector<int> asked;
    ExportDialog d(
        [&](ExportDialog::What, const attnviz::render::FigureStyle&, int head, QString*) {
            asked.push_back(head);
            return std::function<void(QPainter&, const QRectF&)>([](QPainter&, const QRectF&) {});
        },
        attnviz::render::FigureStyle());
    d.setWhat(ExportDialog::Panel);
    auto* head = d.findChild<QSpinBox*>("head");
    ASSERT_NE(head, nullptr);
    EXPECT_EQ(head->minimum(), 1);
    EXPECT_EQ(head->value(), 1);
    head->setValue(2);
    QTemporaryDir dir;
    QString error;
    ASSERT_TRUE(d.exportTo(dir.filePath("panel.svg"), &error)) << error.toStdString();
    ASSERT_FALSE(asked.empty());
    EXPECT_EQ(asked.back(), 1);  // the second head, index 1
}
