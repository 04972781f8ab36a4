// SPDX-License-Identifier: GPL-3.0-or-later
#include "sentence_list.h"

#include <QStringDecoder>
#include <QVBoxLayout>

#include "core/input_limits.h"
#include "workspace_model.h"

namespace attnviz::ui {

SentenceList::SentenceList(QWidget* parent) : QWidget(parent), m_list(new QListWidget) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(m_list);
    m_list->setAlternatingRowColors(true);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0) return;
        const QStringList parts = m_list->item(row)->data(Qt::UserRole).toString().split('\t');
        emit sentenceChosen(parts.value(0), parts.value(1));
    });
}

void SentenceList::follow(WorkspaceModel* workspace) {
    auto show = [this, workspace] {
        const QSignalBlocker b(this), bl(m_list);  // shown, not chosen again
        if (lines() != workspace->sentences()) setLines(workspace->sentences());
        setCurrentIndex(workspace->sentenceIndex());
    };
    connect(workspace, &WorkspaceModel::sentencesChanged, this, show);
    connect(this, &SentenceList::linesChanged, workspace,
            [this, workspace] { workspace->setSentences(lines(), currentIndex()); });
    connect(this, &SentenceList::sentenceChosen, workspace,
            [this, workspace](const QString& source, const QString& target) {
                workspace->setSentences(lines(), currentIndex());
                workspace->setSentence(source, target);
            });
    show();
}

bool SentenceList::loadFile(const QString& path, QString* error) {
    // The engine's reader: a FIFO or device is refused without blocking, the size first.
    QByteArray bytes;
    try {
        bytes = QByteArray::fromStdString(
            readTextFile(path.toStdString(), kMaxSentenceListBytes, "sentence list"));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString text = utf8(bytes);
    if (utf8.hasError()) {
        if (error) *error = tr("'%1' is not valid UTF-8 text").arg(path);
        return false;
    }
    QStringList lines;
    for (QString line : text.split('\n')) {
        if (line.endsWith('\r')) line.chop(1);
        if (!line.trimmed().isEmpty()) lines << line;
    }
    if (lines.isEmpty()) {
        if (error) *error = tr("'%1' has no sentences").arg(path);
        return false;
    }
    setLines(lines);
    return true;
}

void SentenceList::setLines(const QStringList& lines) {
    const QSignalBlocker block(m_list);
    m_list->clear();
    for (const QString& line : lines) {
        auto* item = new QListWidgetItem(QString(line).replace('\t', "  ⇥  "));
        item->setData(Qt::UserRole, line);
        m_list->addItem(item);
    }
    emit linesChanged();
}

QStringList SentenceList::lines() const {
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i) out << m_list->item(i)->data(Qt::UserRole).toString();
    return out;
}

}  // namespace attnviz::ui
