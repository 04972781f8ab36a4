// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Measures written figures as a reader's program sees them, not as the writer asked: the
// size of each text in points on an SVG or PDF page (font size times the scale of every
// transform around it). For the tests of label sizes (tests/render, tests/ui).
#include <zlib.h>

#include <QByteArray>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QTransform>
#include <QXmlStreamReader>
#include <cmath>
#include <map>
#include <vector>

namespace attnviz::test {

// The scale of a transform's area (rotation-free): sqrt|det|.
inline double scaleOf(const QTransform& t) {
    return std::sqrt(std::abs(t.m11() * t.m22() - t.m12() * t.m21()));
}

// SVG: each <text> element's content and its size in user units (points in our figures: the
// view box is the page in points), font-size inherited from enclosing groups and multiplied
// by every enclosing transform="matrix(...)" or scale.
inline std::multimap<QString, double> svgTextSizes(const QByteArray& svg) {
    std::multimap<QString, double> out;
    QXmlStreamReader xml(svg);
    struct Frame {
        double fontSize;
        QTransform t;
    };
    std::vector<Frame> stack{{0, QTransform()}};
    static const QRegularExpression number(R"([-+]?\d*\.?\d+(?:[eE][-+]?\d+)?)");
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            Frame f = stack.back();
            const auto a = xml.attributes();
            if (a.hasAttribute("font-size"))
                f.fontSize = a.value("font-size").toString().remove("px").remove("pt").toDouble();
            const QString tr = a.value("transform").toString();
            if (tr.startsWith("matrix(")) {
                std::vector<double> m;
                for (auto it = number.globalMatch(tr); it.hasNext();)
                    m.push_back(it.next().captured().toDouble());
                if (m.size() == 6) f.t = QTransform(m[0], m[1], m[2], m[3], m[4], m[5]) * f.t;
            }
            stack.push_back(f);
            if (xml.name() == QLatin1String("text")) {
                const double size = f.fontSize * scaleOf(f.t);
                out.emplace(xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed(),
                            size);
                stack.pop_back();
            }
        } else if (xml.isEndElement()) {
            stack.pop_back();
        }
    }
    return out;
}

// The decompressed content of every FlateDecode stream of a PDF (the pages' drawing).
inline std::vector<QByteArray> pdfStreams(const QByteArray& pdf) {
    std::vector<QByteArray> out;
    for (qsizetype at = 0; (at = pdf.indexOf("stream", at)) >= 0;) {
        qsizetype begin = at + 6;
        if (pdf.mid(begin, 2) == "\r\n")
            begin += 2;
        else if (pdf.mid(begin, 1) == "\n")
            begin += 1;
        const qsizetype end = pdf.indexOf("endstream", begin);
        if (end < 0) break;
        at = end + 9;
        if (pdf.lastIndexOf("FlateDecode", begin) < pdf.lastIndexOf("obj", begin)) {
            out.push_back(pdf.mid(begin, end - begin));  // not compressed
            continue;
        }
        QByteArray raw = pdf.mid(begin, end - begin), text(raw.size() * 20 + 4096, '\0');
        uLongf len = uLongf(text.size());
        while (uncompress(reinterpret_cast<Bytef*>(text.data()), &len,
                          reinterpret_cast<const Bytef*>(raw.constData()),
                          uLong(raw.size())) == Z_BUF_ERROR) {
            text.resize(text.size() * 4);
            len = uLongf(text.size());
        }
        text.resize(qsizetype(len));
        out.push_back(text);
    }
    return out;
}

// PDF: the size of every text shown, in points: the Tf size times the scale of the text
// matrix (Tm) and of the current transformation (cm, within q … Q), as a PDF reader draws
// it. Works for content streams of the operators that Qt's PDF writer uses.
inline std::vector<double> pdfTextSizes(const QByteArray& pdf) {
    std::vector<double> out;
    for (const QByteArray& stream : pdfStreams(pdf)) {
        std::vector<QTransform> ctm{QTransform()};
        QTransform tm;
        double tf = 0;
        std::vector<double> operands;
        for (const QByteArray& token : stream.simplified().split(' ')) {
            bool isNumber = false;
            const double v = token.toDouble(&isNumber);
            if (isNumber) {
                operands.push_back(v);
                continue;
            }
            const auto& o = operands;
            const size_t n = o.size();
            if (token == "q") {
                ctm.push_back(ctm.back());
            } else if (token == "Q") {
                if (ctm.size() > 1) ctm.pop_back();
            } else if (token == "cm" && n >= 6) {
                ctm.back() =
                    QTransform(o[n - 6], o[n - 5], o[n - 4], o[n - 3], o[n - 2], o[n - 1]) *
                    ctm.back();
            } else if (token == "BT") {
                tm = QTransform();
            } else if (token == "Tm" && n >= 6) {
                tm = QTransform(o[n - 6], o[n - 5], o[n - 4], o[n - 3], o[n - 2], o[n - 1]);
            } else if (token == "Tf" && n >= 1) {
                tf = o[n - 1];
            } else if (token == "Tj" || token == "TJ" || token.endsWith("Tj") ||
                       token.endsWith("TJ")) {
                out.push_back(std::abs(tf) * scaleOf(tm * ctm.back()));
            }
            if (!token.startsWith('/') && !token.startsWith('(') && !token.startsWith('<') &&
                !token.startsWith('['))
                operands.clear();
        }
    }
    return out;
}

}  // namespace attnviz::test
