// SPDX-License-Identifier: GPL-3.0-or-later
#include "export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFontComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSpinBox>

#include "language.h"
#include "render/words.h"

namespace attnviz::ui {

ExportDialog::ExportDialog(Source source, const render::FigureStyle& base, QWidget* parent)
    : QDialog(parent), m_source(std::move(source)), m_base(base) {
    setWindowTitle(tr("Export figure"));
    createSizeControls();
    createStyleControls(base);
    layOut();
    connectSizeControls();
    connectControls();
    // A large preview where the screen allows; the preview follows the dialog's size.
    resize(sizeHint().expandedTo(QSize(1000, 430)).boundedTo(screen()->availableSize() * 0.9));
    setCanvas(m_canvas, false);  // the fields, and the preview
}

void ExportDialog::createSizeControls() {
    m_size = new QComboBox;
    // Slides of PowerPoint's and Keynote's sizes: 13.33 x 7.5 in and 10 x 7.5 in.
    m_size->addItem(tr("Slide 16:9 (13.33 × 7.5 in)"), "slide");
    m_size->addItem(tr("Slide 4:3 (10 × 7.5 in)"), "slide-4:3");
    m_size->addItem(tr("Single column 3.5 in (252 × 189 pt)"), "column");
    m_size->addItem(tr("Double column 7 in (504 × 360 pt)"), "page");
    //: Figure size: a size typed in
    m_size->addItem(tr("Custom"), "custom");
    m_w = new QDoubleSpinBox;
    m_h = new QDoubleSpinBox;
    for (auto* s : {m_w, m_h}) {
        s->setRange(16, 20000);
        s->setDecimals(1);
        s->setSuffix(tr(" pt"));
    }
    m_dpi = new QSpinBox;
    m_dpi->setRange(36, 2400);
    m_dpi->setValue(m_canvas.dpi);
    //: Spin box suffix: the resolution of PNG files
    m_dpi->setSuffix(tr(" dpi (PNG)"));
    m_pw = new QSpinBox;
    m_ph = new QSpinBox;
    for (auto* s : {m_pw, m_ph}) {
        s->setRange(16, 20000);
        //: Spin box suffix: the PNG's width and height in pixels
        s->setSuffix(tr(" px"));
        s->setToolTip(tr("The PNG's exact size; the page in points follows at the resolution"));
    }
}

void ExportDialog::createStyleControls(const render::FigureStyle& base) {
    m_what = new QComboBox;
    // In the order of What: the index is the choice.
    m_what->addItems({tr("The grid as shown"), tr("One panel (clicked model)"), tr("Query profile"),
                      tr("Loss curves")});
    m_what->setItemData(0,
                        tr("The columns shown, in their order, with the view's block, layer "
                           "and heads"),
                        Qt::ToolTipRole);
    m_head = new QSpinBox;
    m_head->setObjectName("head");
    m_head->setRange(1, 64);  // counted from 1, as every head the app names
    m_head->setToolTip(tr("Head of the clicked model for “One panel”"));
    m_font = new QFontComboBox;
    m_font->setCurrentFont(QFont(base.fontFamily.isEmpty() ? render::figureFontFamily(base.language)
                                                           : base.fontFamily));
    m_fontSize = new QDoubleSpinBox;
    m_fontSize->setRange(3, 48);
    m_fontSize->setDecimals(1);
    m_fontSize->setValue(render::defaultLabelPoints(m_canvas.points.height(), paperSize()));
    //: Spin box suffix: the unit of the font size (points)
    m_fontSize->setSuffix(tr(" pt"));
    m_fontSize->setToolTip(
        tr("Token labels and panel titles, in points on the page (in a PNG: "
           "points × dpi / 72 pixels); titles are larger. Until you change it, it follows the "
           "size: up to 12 pt on a slide (smaller, down to 7 pt, where a label per token needs "
           "it), 7 pt on a paper's figure"));
    m_title = new QLineEdit(base.title);
    m_colorbar = new QCheckBox(tr("Colour bar"));
    m_colorbar->setChecked(base.colorbar);
    m_outline = new QCheckBox(tr("O&utline the query"));
    m_outline->setChecked(base.outlineQuery);
    m_outline->setToolTip(
        tr("A frame around the clicked query (red around a row of every map, black and white "
           "around a patch of every image); without it the query is still labelled"));
    m_caption = new QCheckBox(tr("Ca&ption: the sentence and its translation"));
    m_caption->setChecked(true);
    m_caption->setEnabled(false);  // until a caption source gives one
    // The figure's own words (titles, axis titles, legends; never the tokens) may be in
    // another language than the interface: a Chinese talk from an English desktop.
    m_language = new QComboBox;
    for (const auto& l : render::languages()) m_language->addItem(l.nativeName, l.code);
    m_language->setCurrentIndex(std::max(0, m_language->findData(base.language)));
    m_language->setToolTip(
        tr("The language of the figure's titles, axis titles and legends; tokens are never "
           "translated"));
}

void ExportDialog::layOut() {
    auto* row = new QHBoxLayout(this);
    auto* form = new QFormLayout;
    row->addLayout(form);
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_w);
    sizeRow->addWidget(new QLabel("×"));
    sizeRow->addWidget(m_h);
    auto* pixelRow = new QHBoxLayout;
    pixelRow->addWidget(m_pw);
    pixelRow->addWidget(new QLabel("×"));
    pixelRow->addWidget(m_ph);
    //: Form label: what the figure shows
    form->addRow(tr("&Figure"), m_what);
    //: Form label: the attention head
    form->addRow(tr("&Head"), m_head);
    //: Form label: the figure's page size
    form->addRow(tr("&Size"), m_size);
    form->addRow("", sizeRow);
    form->addRow(tr("&Resolution"), m_dpi);
    //: Form label: the PNG file's size in pixels
    auto* pixelLabel = new QLabel(tr("PN&G size"));
    pixelLabel->setBuddy(m_pw);  // a row of two fields: the label's key goes to the first
    form->addRow(pixelLabel, pixelRow);
    form->addRow(tr("F&ont"), m_font);
    //: Form label: the size of the token labels (points)
    form->addRow(tr("Label si&ze"), m_fontSize);
    //: Form label: the figure's title
    form->addRow(tr("&Title"), m_title);
    form->addRow("", m_colorbar);
    form->addRow("", m_outline);
    form->addRow("", m_caption);
    //: Form label: the language of the figure's titles and legends
    form->addRow(tr("&Labels in"), m_language);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    auto* save = buttons->addButton(tr("&Export…"), QDialogButtonBox::AcceptRole);
    form->addRow(buttons);
    auto* right = new QVBoxLayout;
    m_preview = new QLabel;
    m_preview->setMinimumSize(480, 300);
    // Its size comes from the dialog, not from the pixmap it shows.
    m_preview->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setFrameShape(QFrame::StyledPanel);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    right->addWidget(m_preview, 1);
    right->addWidget(m_status);
    row->addLayout(right, 1);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(save, &QPushButton::clicked, this, &ExportDialog::chooseFile);
}

// The page in points, the PNG's pixels and its resolution hold one canvas: a preset or points
// typed set the page (pixels follow at the resolution), pixels typed set the PNG exactly
// (the page follows), the resolution keeps the page.
void ExportDialog::connectSizeControls() {
    connect(m_size, &QComboBox::currentIndexChanged, this, [this] {
        QSizeF s;
        bool named = false;
        if (render::parseFigureSize(m_size->currentData().toString(), &s, &named, nullptr))
            setCanvas(render::canvasForPoints(s, m_dpi->value()), false);
    });
    for (auto* s : {m_w, m_h})
        connect(s, &QDoubleSpinBox::valueChanged, this, [this] {
            setCanvas(render::canvasForPoints({m_w->value(), m_h->value()}, m_dpi->value()), true);
        });
    for (auto* s : {m_pw, m_ph})
        connect(s, &QSpinBox::valueChanged, this, [this] {
            setCanvas(render::canvasForPixels({m_pw->value(), m_ph->value()}, m_dpi->value()),
                      true);
        });
    connect(m_dpi, &QSpinBox::valueChanged, this, [this](int dpi) {
        setCanvas(render::canvasForPoints(m_canvas.points, dpi),
                  m_size->currentData().toString() == "custom");
    });
}

void ExportDialog::setCanvas(const render::FigureCanvas& c, bool custom) {
    m_canvas = c;
    const QSignalBlocker b1(m_w), b2(m_h), b3(m_pw), b4(m_ph), b5(m_size), b6(m_dpi),
        b7(m_fontSize);
    if (!m_labelsChosen)
        m_fontSize->setValue(render::defaultLabelPoints(c.points.height(), paperSize()));
    m_w->setValue(c.points.width());
    m_h->setValue(c.points.height());
    m_pw->setValue(c.pixels.width());
    m_ph->setValue(c.pixels.height());
    m_dpi->setValue(c.dpi);
    if (custom) m_size->setCurrentIndex(m_size->findData("custom"));
    updatePreview();
}

void ExportDialog::connectControls() {
    connect(m_fontSize, &QDoubleSpinBox::valueChanged, this, [this] {
        m_labelsChosen = true;  // the page no longer sets it
        updatePreview();
    });
    connect(m_what, &QComboBox::currentIndexChanged, this, &ExportDialog::updatePreview);
    connect(m_head, &QSpinBox::valueChanged, this, &ExportDialog::updatePreview);
    connect(m_font, &QFontComboBox::currentFontChanged, this, &ExportDialog::updatePreview);
    connect(m_title, &QLineEdit::textChanged, this, &ExportDialog::updatePreview);
    connect(m_colorbar, &QCheckBox::toggled, this, &ExportDialog::updatePreview);
    connect(m_outline, &QCheckBox::toggled, this, &ExportDialog::updatePreview);
    connect(m_caption, &QCheckBox::toggled, this, &ExportDialog::updatePreview);
    connect(m_language, &QComboBox::currentIndexChanged, this,
            [this, shown = m_base.language]() mutable {
                // The default font follows the language (TC glyphs for 繁體中文); a chosen one
                // stays.
                const QString language = m_language->currentData().toString();
                if (m_font->currentFont().family() == render::figureFontFamily(shown))
                    m_font->setCurrentFont(QFont(render::figureFontFamily(language)));
                shown = language;
                updatePreview();
            });
}

void ExportDialog::setCaptionSource(std::function<QString(const QString&)> caption) {
    m_captionSource = std::move(caption);
    updatePreview();
}

void ExportDialog::setCaption(bool on) {
    m_caption->setChecked(on);
}

render::FigureStyle ExportDialog::style() const {
    render::FigureStyle s = m_base;
    s.fontFamily = m_font->currentFont().family();
    s.fontSize = m_fontSize->value();
    // Nobody chose it: a most, smaller where a label per token needs it.
    s.fontSizeMin = m_labelsChosen ? 0 : render::kMinLabelPoints;
    s.title = m_title->text();
    s.colorbar = m_colorbar->isChecked();
    s.outlineQuery = m_outline->isChecked();
    s.language = m_language->currentData().toString();
    // The caption belongs to the grid and its panels: the sentence they show.
    const What what = What(m_what->currentIndex());
    if (m_caption->isChecked() && m_captionSource && (what == Grid || what == Panel))
        s.caption = m_captionSource(s.language);
    return s;
}

void ExportDialog::setWhat(What w) {
    m_what->setCurrentIndex(int(w));
}

void ExportDialog::setSizePreset(const QString& name) {
    const int i = m_size->findData(name);
    if (i >= 0) {
        m_size->setCurrentIndex(i);
        return;
    }
    QSizeF s;
    bool named = false;
    if (render::parseFigureSize(name, &s, &named, nullptr))
        setCanvas(render::canvasForPoints(s, m_dpi->value()), true);
}

void ExportDialog::setPixels(QSize pixels) {
    setCanvas(render::canvasForPixels(pixels, m_dpi->value()), true);
}

void ExportDialog::setDpi(int dpi) {
    m_dpi->setValue(dpi);
}

void ExportDialog::setLabelPoints(double points) {
    m_labelsChosen = true;
    m_fontSize->setValue(points);
}

bool ExportDialog::paperSize() const {
    const QString size = m_size->currentData().toString();
    return size == "column" || size == "page";
}

double ExportDialog::labelPoints() const {
    return m_fontSize->value();
}

void ExportDialog::setOutlineQuery(bool on) {
    m_outline->setChecked(on);
}

QImage ExportDialog::preview() const {
    return m_image;
}

// The rendered page scaled into the preview box as it is now (the box follows the dialog's
// size: a small screen must not crop the page).
void ExportDialog::fitPreview() {
    if (m_image.isNull()) return;
    m_preview->setPixmap(QPixmap::fromImage(m_image).scaled(m_preview->size(), Qt::KeepAspectRatio,
                                                            Qt::SmoothTransformation));
}

void ExportDialog::resizeEvent(QResizeEvent* event) {
    QDialog::resizeEvent(event);
    fitPreview();
}

void ExportDialog::updatePreview() {
    if (!m_preview) return;  // controls still being made
    const What what = What(m_what->currentIndex());
    const bool captioned = what == Grid || what == Panel;
    m_caption->setEnabled(captioned && m_captionSource &&
                          !m_captionSource(m_language->currentData().toString()).isEmpty());
    QString error;
    const auto paint = m_source(what, style(), m_head->value() - 1, &error);
    if (!paint) {
        m_image = QImage();
        m_preview->setText(error);
        m_status->setText(error);
        return;
    }
    const QSizeF page = m_canvas.points;
    // The page drawn in points, scaled to fit the preview box.
    const double scale = std::min(900.0 / page.width(), 560.0 / page.height());
    m_image = QImage((page * scale).toSize(), QImage::Format_ARGB32);
    m_image.setDotsPerMeterX(int(72 / 0.0254));
    m_image.setDotsPerMeterY(int(72 / 0.0254));
    m_image.fill(Qt::white);
    QPainter p(&m_image);
    p.scale(scale, scale);
    paint(p, QRectF(QPointF(0, 0), page));
    p.end();
    fitPreview();
    updateStatus();
}

// What each format will hold: the page, the PNG's pixels, the labels' size in both.
void ExportDialog::updateStatus() {
    const render::FigureCanvas& c = m_canvas;
    //: Export status: %1 × %2 the page in points, %3 × %4 in inches, %5 × %6 the PNG's
    //: pixels, %7 its dpi, %8 the labels' points, %9 their height in the PNG's pixels
    m_status->setText(
        tr("SVG, PDF: %1 × %2 pt (%3 × %4 in) · PNG: %5 × %6 px at %7 dpi · "
           "labels %8 pt (%9 px in the PNG)")
            .arg(c.points.width(), 0, 'f', 1)
            .arg(c.points.height(), 0, 'f', 1)
            .arg(c.points.width() / 72, 0, 'f', 2)
            .arg(c.points.height() / 72, 0, 'f', 2)
            .arg(c.pixels.width())
            .arg(c.pixels.height())
            .arg(c.dpi)
            .arg(m_fontSize->value())
            .arg(m_fontSize->value() * c.pixels.height() / c.points.height(), 0, 'f', 1));
}

bool ExportDialog::exportTo(const QString& path, QString* error) {
    const auto paint = m_source(What(m_what->currentIndex()), style(), m_head->value() - 1, error);
    if (!paint) return false;
    return render::writeFigure(path, m_canvas, paint, error);
}

void ExportDialog::chooseFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export figure"),
        m_folder.isEmpty() ? QString("attention.svg") : m_folder + "/attention.svg",
        tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"));
    if (path.isEmpty()) return;
    QString error;
    if (exportTo(path, &error)) {
        m_written = path;
        m_status->setText(tr("wrote %1").arg(path));
        accept();
    } else {
        m_status->setText("<span style='color:#b00020'>" + error.toHtmlEscaped() + "</span>");
    }
}

}  // namespace attnviz::ui
