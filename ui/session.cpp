// SPDX-License-Identifier: GPL-3.0-or-later
#include "session.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

#include "column_files.h"
#include "core/error.h"
#include "core/input_limits.h"
#include "core/safetensors.h"

namespace attnviz::ui {

QJsonObject Session::toJson() const {
    return {{"attnviz_session", 1},
            {"source", source},
            {"target", target},
            {"sentences", QJsonArray::fromStringList(sentences)},
            {"sentence_index", sentenceIndex},
            {"columns", QJsonArray::fromStringList(columns)},
            {"model_set", modelSet},
            {"column_configs", columnConfigs},
            {"view", view.toJson()}};
}

Session Session::fromJson(const QJsonObject& o, QString* error) {
    Session s;
    if (o.value("attnviz_session").toInt() != 1) {
        if (error)
            *error = QCoreApplication::translate(
                "attnviz::ui::Session", "not an attnviz session (no \"attnviz_session\": 1)");
        return s;
    }
    s.source = o.value("source").toString();
    s.target = o.value("target").toString();
    for (const auto& v : o.value("sentences").toArray()) s.sentences << v.toString();
    s.sentenceIndex = o.value("sentence_index").toInt(-1);
    for (const auto& v : o.value("columns").toArray()) s.columns << v.toString();
    s.modelSet = o.value("model_set").toString();
    s.columnConfigs = o.value("column_configs").toArray();
    s.view = ViewState::fromJson(o.value("view").toObject());
    return s;
}

bool Session::save(const QString& path, QString* error) const {
    try {
        writeFileAtomically(path.toStdString(), QJsonDocument(toJson()).toJson().toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

bool Session::load(const QString& path, Session* out, QString* error) {
    // The engine's reader applies the limits of docs/limits.md (size, nesting, repeated keys)
    // before Qt sees the text.
    QJsonDocument doc;
    try {
        const std::string text = readTextFile(path.toStdString(), kMaxSessionBytes, "session");
        const nlohmann::json j = parseJson(text, "the session", kMaxSessionBytes);
        if (!j.is_object()) {
            throw Error(
                (j.is_array()
                     ? QCoreApplication::translate("attnviz::ui::Session",
                                                   "the JSON is an array, not an object")
                     : QCoreApplication::translate("attnviz::ui::Session",
                                                   "the JSON is a single value, not an object"))
                    .toStdString());
        }
        doc = QJsonDocument::fromJson(QByteArray::fromStdString(text));
    } catch (const std::exception& e) {
        if (error)
            *error =
                QCoreApplication::translate("attnviz::ui::Session", "'%1' is not a session: %2")
                    .arg(path, QString::fromUtf8(e.what()));
        return false;
    }
    QString e;
    Session s = fromJson(doc.object(), &e);
    if (!e.isEmpty()) {
        if (error) *error = path + ": " + e;
        return false;
    }
    *out = s;
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
                c->model->reconfigure(ModelConfig::fromJsonText(
                    QJsonDocument(cfg.toObject()).toJson(QJsonDocument::Compact).toStdString()));
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
    const QByteArray json = QSettings().value("lastSession").toByteArray();
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    if (!doc.isObject()) return false;
    QString error;
    *out = Session::fromJson(doc.object(), &error);
    return error.isEmpty() && !out->columns.isEmpty();
}

void Session::saveAsLast() const {
    QSettings().setValue("lastSession", QJsonDocument(toJson()).toJson(QJsonDocument::Compact));
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
