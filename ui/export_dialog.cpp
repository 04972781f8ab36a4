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
    createControls(base);
    layOut();
    connectControls();
    // A large preview where the screen allows; the preview follows the dialog's size.
    resize(sizeHint().expandedTo(QSize(1000, 430)).boundedTo(screen()->availableSize() * 0.9));
    updatePreview();
}

void ExportDialog::createControls(const render::FigureStyle& base) {
    m_what = new QComboBox;
    // In the order of What: the index is the choice.
    m_what->addItems({tr("Whole grid"), tr("One panel (clicked model)"), tr("Query profile"),
                      tr("Loss curves")});
    m_head = new QSpinBox;
    m_head->setRange(0, 63);
    m_head->setToolTip(tr("Head of the clicked model for “One panel”"));
    m_size = new QComboBox;
    m_size->addItem(tr("Slide 16:9 (960 × 540 pt)"), "slide");
    m_size->addItem(tr("Single column 3.5 in (252 × 189 pt)"), "column");
    m_size->addItem(tr("Double column 7 in (504 × 360 pt)"), "page");
    //: Figure size: a size typed in
    m_size->addItem(tr("Custom"), "custom");
    m_w = new QDoubleSpinBox;
    m_h = new QDoubleSpinBox;
    for (auto* s : {m_w, m_h}) {
        s->setRange(16, 20000);
        s->setDecimals(0);
        //: Spin box suffix: the unit of the figure's width and height
        s->setSuffix(tr(" pt / px"));
    }
    m_w->setValue(960);
    m_h->setValue(540);
    m_dpi = new QSpinBox;
    m_dpi->setRange(36, 2400);
    m_dpi->setValue(200);
    //: Spin box suffix: the resolution of PNG files
    m_dpi->setSuffix(tr(" dpi (PNG)"));
    m_font = new QFontComboBox;
    m_font->setCurrentFont(QFont(base.fontFamily.isEmpty() ? render::figureFontFamily(base.language)
                                                           : base.fontFamily));
    m_fontSize = new QDoubleSpinBox;
    m_fontSize->setRange(3, 48);
    m_fontSize->setValue(base.fontSize);
    //: Spin box suffix: the unit of the font size (points)
    m_fontSize->setSuffix(tr(" pt"));
    m_title = new QLineEdit(base.title);
    m_colorbar = new QCheckBox(tr("Colour bar"));
    m_colorbar->setChecked(base.colorbar);
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
    //: Form label: what the figure shows
    form->addRow(tr("&Figure"), m_what);
    //: Form label: the attention head
    form->addRow(tr("&Head"), m_head);
    //: Form label: the figure's page size
    form->addRow(tr("&Size"), m_size);
    form->addRow("", sizeRow);
    form->addRow(tr("&Resolution"), m_dpi);
    form->addRow(tr("F&ont"), m_font);
    form->addRow(tr("Font si&ze"), m_fontSize);
    //: Form label: the figure's title
    form->addRow(tr("&Title"), m_title);
    form->addRow("", m_colorbar);
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

void ExportDialog::connectControls() {
    connect(m_size, &QComboBox::currentIndexChanged, this, [this] {
        const QString key = m_size->currentData().toString();
        QSizeF s;
        bool named = false;
        if (key != "custom" && render::parseFigureSize(key, &s, &named, nullptr)) {
            const QSignalBlocker b1(m_w), b2(m_h);
            m_w->setValue(s.width());
            m_h->setValue(s.height());
        }
        updatePreview();
    });
    for (auto* s : {m_w, m_h, m_fontSize})
        connect(s, &QDoubleSpinBox::valueChanged, this, [this] {
            if (sender() != m_fontSize) {
                const QSignalBlocker b(m_size);
                m_size->setCurrentIndex(3);
            }
            updatePreview();
        });
    connect(m_what, &QComboBox::currentIndexChanged, this, &ExportDialog::updatePreview);
    connect(m_head, &QSpinBox::valueChanged, this, &ExportDialog::updatePreview);
    connect(m_font, &QFontComboBox::currentFontChanged, this, &ExportDialog::updatePreview);
    connect(m_title, &QLineEdit::textChanged, this, &ExportDialog::updatePreview);
    connect(m_colorbar, &QCheckBox::toggled, this, &ExportDialog::updatePreview);
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

render::FigureStyle ExportDialog::style() const {
    render::FigureStyle s = m_base;
    s.fontFamily = m_font->currentFont().family();
    s.fontSize = m_fontSize->value();
    s.title = m_title->text();
    s.colorbar = m_colorbar->isChecked();
    s.language = m_language->currentData().toString();
    return s;
}

QSizeF ExportDialog::pageSize(bool* named) const {
    *named = m_size->currentData().toString() != "custom";
    return {m_w->value(), m_h->value()};
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
    if (render::parseFigureSize(name, &s, &named, nullptr)) {
        m_w->setValue(s.width());
        m_h->setValue(s.height());
        m_size->setCurrentIndex(3);
    }
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
    QString error;
    const auto paint = m_source(What(m_what->currentIndex()), style(), m_head->value(), &error);
    if (!paint) {
        m_image = QImage();
        m_preview->setText(error);
        m_status->setText(error);
        return;
    }
    bool named = false;
    const QSizeF page = pageSize(&named);
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
    m_status->setText(
        tr("%1 × %2 pt (SVG, PDF); PNG %3 × %4 px")
            .arg(page.width())
            .arg(page.height())
            .arg(named ? int(page.width() * m_dpi->value() / 72) : int(page.width()))
            .arg(named ? int(page.height() * m_dpi->value() / 72) : int(page.height())));
}

bool ExportDialog::exportTo(const QString& path, QString* error) {
    const auto paint = m_source(What(m_what->currentIndex()), style(), m_head->value(), error);
    if (!paint) return false;
    bool named = false;
    const QSizeF page = pageSize(&named);
    return render::writeFigure(path, page, named, m_dpi->value(), paint, error);
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
