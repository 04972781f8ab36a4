// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <functional>

#include "render/figure_file.h"

class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QLineEdit;
class QCheckBox;
class QLabel;
class QFontComboBox;

namespace attnviz::ui {

// Export figure: what (the grid as shown: the chosen columns in their order, the view's
// block, layer and heads; one model's panel, the query profile, the loss curves), the page
// (slide 16:9 or 4:3, column, page presets, or a size in points), the PNG's exact pixels and
// DPI, font, label size (points on the page), title, colour bar, the sentence and its
// translation as a caption, and a live preview; the file's extension picks SVG, PDF or PNG.
// Drawing and writing are render/, as for `attnviz-cli render`.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    enum What { Grid, Panel, Profile, Loss };
    // paintFor(what, style) returns a painter function, or sets *error.
    using Source = std::function<std::function<void(QPainter&, const QRectF&)>(
        What, const render::FigureStyle&, int head, QString*)>;
    ExportDialog(Source source, const render::FigureStyle& base, QWidget* parent = nullptr);

    // The caption offered (the sentence and its translation, lines split by "\n"), in the
    // figure's language; empty: none, and the Caption box is disabled.
    void setCaptionSource(std::function<QString(const QString& language)> caption);
    void setCaption(bool on);

    // Writes the current choice to `path` (extension: svg, pdf, png); false with *error.
    bool exportTo(const QString& path, QString* error);
    void setWhat(What w);
    // "slide" (16:9), "slide-4:3", "column", "page" (render::parseFigureSize), or "WxH" points.
    void setSizePreset(const QString& name);
    // A PNG of exactly these pixels at the resolution chosen (the page follows: px * 72 / dpi).
    void setPixels(QSize pixels);
    void setDpi(int dpi);
    void setLabelPoints(double points);
    double labelPoints() const;
    void setOutlineQuery(bool on);  // the query framed (the default) or only labelled
    // The page, the PNG's pixels and resolution that exportTo writes.
    const render::FigureCanvas& canvas() const { return m_canvas; }
    QImage preview() const;
    // The file written by the last successful export, empty before.
    QString writtenPath() const { return m_written; }
    // Folder the file dialog starts in (default: the working directory).
    void setStartFolder(const QString& dir) { m_folder = dir; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void createSizeControls();
    void createStyleControls(const render::FigureStyle& base);
    void layOut();
    void connectSizeControls();
    void connectControls();
    render::FigureStyle style() const;
    // The canvas changed by a control: the other size fields follow it.
    void setCanvas(const render::FigureCanvas& c, bool custom);
    void updatePreview();
    void updateStatus();
    void fitPreview();
    void chooseFile();

    Source m_source;
    std::function<QString(const QString&)> m_captionSource;
    render::FigureStyle m_base;
    render::FigureCanvas m_canvas = render::canvasForPoints({960, 540}, 200);
    QComboBox *m_what, *m_size, *m_language;
    QDoubleSpinBox *m_w, *m_h, *m_fontSize;
    // The label size was chosen (typed, or setLabelPoints): kept; else it follows the page
    // (render::defaultLabelPoints: 12 pt on a slide, 7 on a paper's figure).
    bool m_labelsChosen = false;
    bool paperSize() const;  // a paper's figure is chosen (column, page), not a slide or custom
    QSpinBox *m_dpi, *m_head, *m_pw, *m_ph;
    QFontComboBox* m_font;
    QLineEdit* m_title;
    QCheckBox *m_colorbar, *m_caption, *m_outline;
    QLabel *m_preview = nullptr, *m_status = nullptr;
    QString m_written, m_folder;
    QImage m_image;
};

}  // namespace attnviz::ui
