// SPDX-License-Identifier: GPL-3.0-or-later
#include "figure_file.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#include <QStringList>
#include <QSvgGenerator>
#include <cmath>

#include "core/file_io.h"

namespace attnviz::render {

bool parseFigureSize(const QString& text, QSizeF* size, bool* named, QString* error) {
    *named = true;
    if (text == "slide") {
        *size = QSizeF(960, 540);
    } else if (text == "column") {
        *size = QSizeF(252, 189);
    } else if (text == "page") {
        *size = QSizeF(504, 360);
    } else {
        *named = false;
        const QStringList wh = text.split('x');
        bool okW = false, okH = false;
        const double w = wh.value(0).toDouble(&okW), h = wh.value(1).toDouble(&okH);
        // Written so that NaN (which compares false with everything) fails the range too.
        const bool inRange = w >= 16 && w <= 20000 && h >= 16 && h <= 20000;
        if (wh.size() != 2 || !okW || !okH || !inRange) {
            if (error)
                *error = QString("size '%1' must be slide, column, page or WxH (16 to 20000 each)")
                             .arg(text.size() > 40 ? text.left(40) + QStringLiteral("…") : text);
            return false;
        }
        *size = QSizeF(w, h);
    }
    return true;
}

bool writeFigure(const QString& path, QSizeF size, bool named, int dpi, const FigurePainter& paint,
                 QString* error) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext != "svg" && ext != "pdf" && ext != "png") {
        if (error)
            *error = QString("'%1': the figure format comes from the extension: .svg, .pdf or .png")
                         .arg(path);
        return false;
    }
    if (dpi < 36 || dpi > 2400) {
        if (error) *error = QString("dpi %1 is out of range (36 to 2400)").arg(dpi);
        return false;
    }
    // Rendered in memory, then written by the engine's atomic writer, which checks every
    // write (QSaveFile's buffered flush can hide a full disk).
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    bool ok = true;
    if (ext == "svg") {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size.toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), size));
        svg.setResolution(72);  // 1 unit = 1 point
        svg.setTitle("attnviz figure");
        QPainter p(&svg);
        paint(p, QRectF(QPointF(0, 0), size));
        ok = p.end();
    } else if (ext == "pdf") {
        QPdfWriter pdf(&file);
        pdf.setPageSize(QPageSize(size, QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        pdf.setCreator("attnviz");
        QPainter p(&pdf);
        paint(p, QRectF(QPointF(0, 0), size));
        ok = p.end();
    } else {
        const QSize px = named ? (size * dpi / 72.0).toSize() : size.toSize();
        QImage img(px, QImage::Format_ARGB32);
        // Paint at 72 dpi so that a point is a painter unit, then record the real DPI.
        img.setDotsPerMeterX(int(std::lround(72 / 0.0254)));
        img.setDotsPerMeterY(int(std::lround(72 / 0.0254)));
        img.fill(Qt::white);
        {
            QPainter p(&img);
            // Paint in points: fonts and lines keep their size relative to the page.
            const double scale = dpi / 72.0;
            const QSizeF pt = named ? size : QSizeF(px.width() / scale, px.height() / scale);
            p.scale(double(px.width()) / pt.width(), double(px.height()) / pt.height());
            paint(p, QRectF(QPointF(0, 0), pt));
        }
        img.setDotsPerMeterX(int(std::lround(dpi / 0.0254)));
        img.setDotsPerMeterY(int(std::lround(dpi / 0.0254)));
        ok = img.save(&file, "PNG");
    }
    if (!ok) {
        if (error) *error = QString("cannot render '%1'").arg(path);
        return false;
    }
    try {
        writeFileAtomically(path.toStdString(), file.data().toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

}  // namespace attnviz::render
