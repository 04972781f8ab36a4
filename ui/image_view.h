// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The window's image mode (issue 28), shown in place of the sentence fields, view bar and
// grid while the Models box holds the image set: the image input (ImageChooser), a bar of
// what the panels show (layer, heads, opacity, colour map) and the ImageGrid. Images dropped
// on it or pasted (Ctrl+V) are read as a person's own.
#include <QWidget>

#include "export_dialog.h"

class QComboBox;
class QLabel;
class QScrollArea;
class QSlider;
class QSpinBox;

namespace attnviz::ui {

class ImageChooser;
class ImageGrid;
class ImageModel;

class ImageView : public QWidget {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);
    ImageModel* model() const { return m_model; }
    ImageChooser* chooser() const { return m_chooser; }
    ImageGrid* grid() const { return m_grid; }
    QComboBox* headsBox() const { return m_heads; }
    QSpinBox* layerBox() const { return m_layer; }
    // A head asked for (the Heads dock): its layer with every head, scrolled to its panel.
    void showHead(int column, int layer, int head);

protected:
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* createControls();
    void retranslateUi();
    void applyControls();   // the bar's values into the model's request
    void columnsChanged();  // the layer box's range: the deepest model's layers
    ImageModel* m_model;
    ImageChooser* m_chooser;
    ImageGrid* m_grid;
    QScrollArea* m_scroll;
    QSpinBox* m_layer;
    QComboBox *m_heads, *m_query, *m_colormap;
    QSlider* m_opacity;
    QLabel *m_layerLabel, *m_headsLabel, *m_opacityLabel, *m_colormapLabel, *m_queryLabel;
};

// The export dialog's source in image mode: the panels shown, as render's image figure (the
// same overlay drawing, each panel on its own scale as on screen); the other kinds of figure
// are for text models.
ExportDialog::Source imageExportSource(const ImageModel* model);

}  // namespace attnviz::ui
