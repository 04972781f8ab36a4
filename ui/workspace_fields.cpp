// SPDX-License-Identifier: GPL-3.0-or-later
#include "workspace_fields.h"

#include <QComboBox>
#include <QLineEdit>

#include "workspace_model.h"

namespace attnviz::ui {

void followSentence(WorkspaceModel* workspace, QLineEdit* source, QLineEdit* target) {
    for (QLineEdit* field : {source, target})
        QObject::connect(field, &QLineEdit::textChanged, workspace,
                         [=] { workspace->setSentence(source->text(), target->text()); });
    QObject::connect(workspace, &WorkspaceModel::sentenceChanged, source, [=] {
        for (auto [field, text] :
             {std::pair{source, workspace->source()}, std::pair{target, workspace->target()}})
            if (field->text() != text) {
                const QSignalBlocker b(field);  // shown, not typed
                field->setText(text);
            }
    });
}

void followModelSet(WorkspaceModel* workspace, QComboBox* box) {
    QObject::connect(workspace, &WorkspaceModel::modelSetChanged, box, [=] {
        const QSignalBlocker b(box);
        box->setCurrentIndex(box->findData(workspace->modelSet()));
    });
}

}  // namespace attnviz::ui
