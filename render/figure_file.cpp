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

namespace {

struct NamedSize {
    const char* name;
    QSizeF points;
};
const NamedSize kNamedSizes[] = {
    {"slide", {960, 540}}, {"slide-4:3", {720, 540}}, {"column", {252, 189}}, {"page", {504, 360}}};

// The largest PNG side: 20000 x 20000 ARGB pixels are 1.6 GB of memory already.
constexpr int kMaxPixels = 20000;

bool fail(QString* error, const QString& why) {
    if (error) *error = why;
    return false;
}

}  // namespace

QStringList figureSizeNames() {
    QStringList names;
    for (const auto& n : kNamedSizes) names << n.name;
    return names;
}

bool parseFigureSize(const QString& text, QSizeF* size, bool* named, QString* error) {
    *named = true;
    for (const auto& n : kNamedSizes)
        if (text == n.name) {
            *size = n.points;
            return true;
        }
    *named = false;
    const QStringList wh = text.split('x');
    bool okW = false, okH = false;
    const double w = wh.value(0).toDouble(&okW), h = wh.value(1).toDouble(&okH);
    // Written so that NaN (which compares false with everything) fails the range too.
    const bool inRange = w >= 16 && w <= 20000 && h >= 16 && h <= 20000;
    if (wh.size() != 2 || !okW || !okH || !inRange)
        return fail(error, QString("size '%1' must be %2 or WxH (16 to 20000 each)")
                               .arg(text.size() > 40 ? text.left(40) + QStringLiteral("…") : text,
                                    figureSizeNames().join(", ")));
    *size = QSizeF(w, h);
    return true;
}

FigureCanvas canvasForPoints(QSizeF points, int dpi) {
    const double scale = dpi / 72.0;
    return {
        points,
        QSize(int(std::lround(points.width() * scale)), int(std::lround(points.height() * scale))),
        dpi};
}

FigureCanvas canvasForPixels(QSize pixels, int dpi) {
    return {QSizeF(pixels) * (72.0 / dpi), pixels, dpi};
}

namespace {

QByteArray svgBytes(const FigureCanvas& c, const FigurePainter& paint, bool* ok) {
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(c.points.toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), c.points));
    svg.setResolution(72);  // 1 unit = 1 point
    svg.setTitle("attnviz figure");
    QPainter p(&svg);
    paint(p, QRectF(QPointF(0, 0), c.points));
    *ok = p.end();
    return file.data();
}

QByteArray pdfBytes(const FigureCanvas& c, const FigurePainter& paint, bool* ok) {
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&file);
    pdf.setPageSize(QPageSize(c.points, QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setResolution(72);
    pdf.setCreator("attnviz");
    QPainter p(&pdf);
    paint(p, QRectF(QPointF(0, 0), c.points));
    *ok = p.end();
    return file.data();
}

QByteArray pngBytes(const FigureCanvas& c, const FigurePainter& paint, bool* ok) {
    QImage img(c.pixels, QImage::Format_ARGB32);
    if (img.isNull()) {  // no memory for it
        *ok = false;
        return {};
    }
    // Painted at 72 dpi so that a point is a painter unit, then the real DPI recorded.
    img.setDotsPerMeterX(int(std::lround(72 / 0.0254)));
    img.setDotsPerMeterY(int(std::lround(72 / 0.0254)));
    img.fill(Qt::white);
    {
        QPainter p(&img);
        // The page in points stretched onto the pixels: fonts and lines keep their size
        // relative to the page.
        p.scale(c.pixels.width() / c.points.width(), c.pixels.height() / c.points.height());
        paint(p, QRectF(QPointF(0, 0), c.points));
    }
    img.setDotsPerMeterX(int(std::lround(c.dpi / 0.0254)));
    img.setDotsPerMeterY(int(std::lround(c.dpi / 0.0254)));
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    *ok = img.save(&file, "PNG");
    return file.data();
}

}  // namespace

bool writeFigure(const QString& path, QSizeF size, bool named, int dpi, const FigurePainter& paint,
                 QString* error) {
    const bool png = QFileInfo(path).suffix().toLower() == "png";
    FigureCanvas canvas = canvasForPoints(size, dpi);
    if (png && !named) canvas = canvasForPixels(size.toSize(), dpi);
    return writeFigure(path, canvas, paint, error);
}

bool writeFigure(const QString& path, const FigureCanvas& c, const FigurePainter& paint,
                 QString* error) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext != "svg" && ext != "pdf" && ext != "png")
        return fail(error,
                    QString("'%1': the figure format comes from the extension: .svg, .pdf or .png")
                        .arg(path));
    if (c.dpi < 36 || c.dpi > 2400)
        return fail(error, QString("dpi %1 is out of range (36 to 2400)").arg(c.dpi));
    // Written so that NaN fails too.
    if (!(c.points.width() >= 1 && c.points.height() >= 1 && c.points.width() <= 1e5 &&
          c.points.height() <= 1e5))
        return fail(error, QString("a page of %1 x %2 pt is out of range")
                               .arg(c.points.width())
                               .arg(c.points.height()));
    if (ext == "png" && (c.pixels.width() < 1 || c.pixels.height() < 1 ||
                         c.pixels.width() > kMaxPixels || c.pixels.height() > kMaxPixels))
        return fail(error, QString("a PNG of %1 x %2 px is out of range (1 to %3 a side): a "
                                   "smaller size or resolution")
                               .arg(c.pixels.width())
                               .arg(c.pixels.height())
                               .arg(kMaxPixels));
    // Rendered in memory, then written by the engine's atomic writer, which checks every
    // write (QSaveFile's buffered flush can hide a full disk).
    bool ok = true;
    const QByteArray bytes = ext == "svg"   ? svgBytes(c, paint, &ok)
                             : ext == "pdf" ? pdfBytes(c, paint, &ok)
                                            : pngBytes(c, paint, &ok);
    if (!ok) {
        if (error) *error = QString("cannot render '%1'").arg(path);
        return false;
    }
    try {
        writeFileAtomically(path.toStdString(), bytes.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

}  // namespace attnviz::render
