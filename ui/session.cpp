// SPDX-License-Identifier: GPL-3.0-or-later
#include "session.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QSettings>
#include <QStandardPaths>
#include <cmath>
#include <cstdint>

#include "column_files.h"
#include "core/error.h"
#include "core/file_io.h"

namespace attnviz::ui {

namespace {

using nlohmann::json;

// Between the engine's JSON and Qt's, for the view and the edited configurations the widgets
// hold. Recursive: the values come from parseJson (at most kMaxJsonDepth deep) or from the
// app's own state.
QJsonValue toQt(const json& v) {
    switch (v.type()) {
        case json::value_t::object: {
            QJsonObject o;
            for (auto it = v.begin(); it != v.end(); ++it)
                o.insert(QString::fromStdString(it.key()), toQt(it.value()));
            return o;
        }
        case json::value_t::array: {
            QJsonArray a;
            for (const json& e : v) a.append(toQt(e));
            return a;
        }
        case json::value_t::string:
            return QString::fromStdString(v.get<std::string>());
        case json::value_t::boolean:
            return v.get<bool>();
        case json::value_t::number_integer:
            return qint64(v.get<int64_t>());
        case json::value_t::number_unsigned:  // above 2^63: as Qt itself would, a double
            return v.get<uint64_t>() <= uint64_t(INT64_MAX) ? QJsonValue(qint64(v.get<uint64_t>()))
                                                            : QJsonValue(v.get<double>());
        case json::value_t::number_float:
            return v.get<double>();
        default:
            return QJsonValue();
    }
}

json fromQt(const QJsonValue& v) {
    if (v.isObject()) {
        json o = json::object();
        const QJsonObject qo = v.toObject();
        for (auto it = qo.begin(); it != qo.end(); ++it) o[it.key().toStdString()] = fromQt(*it);
        return o;
    }
    if (v.isArray()) {
        json a = json::array();
        for (const auto& e : v.toArray()) a.push_back(fromQt(e));
        return a;
    }
    if (v.isString()) return v.toString().toStdString();
    if (v.isBool()) return v.toBool();
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (std::abs(d) < 9e15 && d == double(qint64(d))) return qint64(d);  // as Qt wrote it
        return d;
    }
    return nullptr;
}

std::vector<std::string> toStd(const QStringList& l) {
    std::vector<std::string> out;
    for (const QString& s : l) out.push_back(s.toStdString());
    return out;
}

QStringList toQtList(const std::vector<std::string>& l) {
    QStringList out;
    for (const auto& s : l) out << QString::fromStdString(s);
    return out;
}

}  // namespace

SessionFile Session::toFile() const {
    SessionFile f;
    f.source = source.toStdString();
    f.target = target.toStdString();
    f.sentences = toStd(sentences);
    f.sentenceIndex = sentenceIndex;
    f.columns = toStd(columns);
    for (const auto& c : columnConfigs) f.columnConfigs.push_back(fromQt(c));
    f.modelSet = modelSet.toStdString();
    f.view = fromQt(view.toJson());
    f.image = image;
    return f;
}

Session Session::fromFile(const SessionFile& f) {
    Session s;
    s.source = QString::fromStdString(f.source);
    s.target = QString::fromStdString(f.target);
    s.sentences = toQtList(f.sentences);
    s.sentenceIndex = f.sentenceIndex;
    s.columns = toQtList(f.columns);
    for (const json& c : f.columnConfigs) s.columnConfigs.append(toQt(c));
    s.modelSet = QString::fromStdString(f.modelSet);
    s.view = ViewState::fromJson(toQt(f.view).toObject());
    s.image = f.image;
    return s;
}

bool Session::save(const QString& path, QString* error) const {
    try {
        SessionFile f = toFile();
        storeColumnPaths(f, QFileInfo(path).absolutePath().toStdString());
        writeFileAtomically(path.toStdString(), sessionJson(f));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

bool Session::load(const QString& path, Session* out, QString* error) {
    try {
        SessionFile f = readSessionFile(path.toStdString());  // its messages name the file
        resolveColumnPaths(f, QFileInfo(path).absolutePath().toStdString());
        *out = fromFile(f);
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

std::vector<ModelColumn> Session::openColumns(QStringList* errors) const {
    std::vector<ModelColumn> out;
    for (int i = 0; i < columns.size(); ++i) {
        const QString& p = columns[i];
        QString error;
        auto c = openColumn(p, &error);
        if (!c) {
            if (errors) errors->append(error);
            continue;
        }
        const QJsonValue cfg = columnConfigs.at(i);
        if (cfg.isObject()) {  // settings edited in the app, saved with the workspace
            try {
                c->model->reconfigure(ModelConfig::fromJsonText(fromQt(cfg).dump()));
            } catch (const std::exception& e) {
                if (errors)
                    errors->append(
                        QCoreApplication::translate(
                            "attnviz::ui::Session",
                            "%1: its edited settings in the workspace were not applied: %2")
                            .arg(p, QString::fromUtf8(e.what())));
            }
        }
        out.push_back(std::move(*c));
    }
    return out;
}

bool Session::loadLast(Session* out) {
    const QByteArray text = QSettings().value("lastSession").toByteArray();
    try {  // the same reader and limits as a session file
        SessionFile f = parseSessionJson(std::string_view(text.constData(), size_t(text.size())),
                                         "the last workspace");
        resolveColumnPaths(f, {});
        *out = fromFile(f);
    } catch (const std::exception&) {
        return false;
    }
    return !out->columns.isEmpty();
}

QString Session::lastPastedImagePath() {
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           "/last-pasted-image.png";
}

void Session::saveAsLast() const {
    SessionFile f = toFile();
    storeColumnPaths(f, {});  // bundled models by name: the app may move or be installed
    // The settings file is read whole at every start: a large pasted image (up to 8 MiB) goes
    // to a file of its own, which the last workspace names as its image file.
    if (f.image && f.image->pastedPng.size() > kMaxPastedPngInSettings) {
        const QString path = lastPastedImagePath();
        try {
            if (!QDir().mkpath(QFileInfo(path).path())) throw Error("no folder for it");
            writeFileAtomically(path.toStdString(), f.image->pastedPng);
            f.image->file = f.image->fileAbsolute = path.toStdString();
            f.image->pastedPng.clear();
        } catch (const std::exception&) {
            // Not written (a full disk, a read-only folder): kept inside the settings after all,
            // a slower start rather than a lost image.
        }
    }
    QSettings().setValue("lastSession", QByteArray::fromStdString(f.toJson().dump(
                                            -1, ' ', false, json::error_handler_t::replace)));
}

void Session::setRestoring(bool on) {
    QSettings settings;
    if (on) {
        settings.setValue("restoringLastSession", true);
    } else {
        settings.remove("restoringLastSession");
    }
    settings.sync();  // on disk before anything that could crash
}

bool Session::isRestoring() {
    return QSettings().value("restoringLastSession").toBool();
}

}  // namespace attnviz::ui
