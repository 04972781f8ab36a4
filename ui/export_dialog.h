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

// Export figure: what (the grid, one model's panel, the query profile, the loss curves),
// size preset or custom size, DPI for PNG, font, title, colour bar, and a live preview; the
// file's extension picks SVG, PDF or PNG. Drawing is render/, as for `attnviz-cli render`.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    enum What { Grid, Panel, Profile, Loss };
    // paintFor(what, style) returns a painter function, or sets *error.
    using Source = std::function<std::function<void(QPainter&, const QRectF&)>(
        What, const render::FigureStyle&, int head, QString*)>;
    ExportDialog(Source source, const render::FigureStyle& base, QWidget* parent = nullptr);

    // Writes the current choice to `path` (extension: svg, pdf, png); false with *error.
    bool exportTo(const QString& path, QString* error);
    void setWhat(What w);
    void setSizePreset(const QString& name);  // "slide", "column", "page", or "WxH"
    QImage preview() const;
    // The file written by the last successful export, empty before.
    QString writtenPath() const { return m_written; }
    // Folder the file dialog starts in (default: the working directory).
    void setStartFolder(const QString& dir) { m_folder = dir; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void createControls(const render::FigureStyle& base);
    void layOut();
    void connectControls();
    render::FigureStyle style() const;
    QSizeF pageSize(bool* named) const;
    void updatePreview();
    void fitPreview();
    void chooseFile();

    Source m_source;
    render::FigureStyle m_base;
    QComboBox *m_what, *m_size, *m_language;
    QDoubleSpinBox *m_w, *m_h, *m_fontSize;
    QSpinBox *m_dpi, *m_head;
    QFontComboBox* m_font;
    QLineEdit* m_title;
    QCheckBox* m_colorbar;
    QLabel *m_preview, *m_status;
    QString m_written, m_folder;
    QImage m_image;
};

}  // namespace attnviz::ui
