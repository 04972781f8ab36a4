// SPDX-License-Identifier: GPL-3.0-or-later
#include "column_files.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/safetensors.h"

namespace attnviz::ui {
namespace {

// Reads a JSON string starting after its opening quote at text[i]; returns its decoded
// bytes and moves i past it. \uXXXX becomes its character when ASCII (a bracket written as
// \u005b is still a bracket once the string is parsed), else '?': only ASCII matters here.
std::string readString(std::string_view text, size_t& i) {
    std::string s;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            ++i;
            return s;
        }
        if (c == '\\' && i + 1 < text.size()) {
            const char e = text[++i];
            if (e == 'u' && i + 4 < text.size()) {
                const unsigned long code =
                    std::strtoul(std::string(text.substr(i + 1, 4)).c_str(), nullptr, 16);
                s += code < 0x80 ? char(code) : '?';
                i += 4;
            } else {
                s += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
            }
        } else {
            s += c;
        }
    }
    return s;
}

bool looksLikeJson(const std::string& s) {
    const size_t first = s.find_first_not_of(" \t\r\n");
    return first != std::string::npos && (s[first] == '[' || s[first] == '{');
}

QString withPath(const QString& path, const QString& reason) {
    return reason.contains(path) ? reason : path + ": " + reason;
}

// The nesting of the checkpoint's header and its metadata; empty when within the limit or
// when the file is not a checkpoint at all (the engine then says why).
QString nestingProblem(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    unsigned char size[8];
    if (f.read(reinterpret_cast<char*>(size), 8) != 8) return {};
    uint64_t n = 0;
    for (int b = 7; b >= 0; --b) n = (n << 8) | size[b];
    if (n > SafeTensorsFile::kMaxHeaderBytes) return {};
    const QByteArray header = f.read(qint64(n));
    const int depth = jsonNestingDepth(std::string_view(header.constData(), size_t(header.size())));
    if (depth <= kMaxJsonNesting) return {};
    return QCoreApplication::translate(
               "attnviz::ui::ColumnFiles",
               "its header holds JSON nested %1 levels deep (the app reads at most %2)")
        .arg(depth)
        .arg(kMaxJsonNesting);
}

// The engine reads the training metadata's "kind" as a string when it analyses (on a worker
// thread, where a type error would end the app): a checkpoint where it is not one is refused.
QString trainingProblem(const ModelColumn& c) {
    const auto& t = c.model->training();
    if (t.is_object() && t.contains("kind") && !t["kind"].is_string())
        return QCoreApplication::translate("attnviz::ui::ColumnFiles",
                                           "its training metadata's \"kind\" is not a string");
    return {};
}

// Only a regular file (or a link to one) is read: a FIFO would block the app at start, a
// device would be read without end.
QString fileTypeProblem(const QString& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path.toStdString(), ec);
    if (ec || !std::filesystem::exists(status))
        return QCoreApplication::translate("attnviz::ui::ColumnFiles", "no such file");
    if (!std::filesystem::is_regular_file(status))
        return QCoreApplication::translate("attnviz::ui::ColumnFiles",
                                           "not a regular file (a folder, FIFO or device)");
    return {};
}

}  // namespace

int jsonNestingDepth(std::string_view text) {
    int deepest = 0, depth = 0;
    std::vector<std::string> inner;  // strings holding JSON, scanned after this text
    for (size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '"') {
            ++i;
            std::string s = readString(text, i);
            if (looksLikeJson(s)) inner.push_back(std::move(s));
            continue;
        }
        if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
        if ((c == ']' || c == '}') && depth > 0) --depth;
        ++i;
    }
    for (const auto& s : inner) deepest = std::max(deepest, jsonNestingDepth(s));
    return deepest;
}

std::optional<ModelColumn> openColumn(const QString& path, QString* error) {
    QString problem = fileTypeProblem(path);
    if (problem.isEmpty()) problem = nestingProblem(path);
    if (problem.isEmpty()) {
        try {
            ModelColumn c = loadModelColumn(path.toStdString());
            problem = trainingProblem(c);
            if (problem.isEmpty()) return c;
        } catch (const std::exception& e) {
            problem = QString::fromUtf8(e.what());
        } catch (...) {
            problem = QCoreApplication::translate("attnviz::ui::ColumnFiles",
                                                  "unknown error while reading it");
        }
    }
    if (problem.size() > 600) problem = problem.left(600) + "…";  // a huge value in a message
    if (error) *error = withPath(path, problem);
    return std::nullopt;
}

std::vector<ModelColumn> openColumnsIn(const QString& dir, QStringList* errors) {
    std::vector<ModelColumn> out;
    const QDir d(dir);
    for (const QString& name : d.entryList({"*.safetensors"}, QDir::Files, QDir::Name)) {
        QString error;
        if (auto c = openColumn(d.filePath(name), &error)) {
            out.push_back(std::move(*c));
        } else if (errors) {
            errors->append(error);
        }
    }
    return out;
}

}  // namespace attnviz::ui
