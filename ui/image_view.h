// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The window's image mode (issue 28), shown in place of the sentence fields, view bar and
// grid while the Models box holds the image set: the image input (ImageChooser), a bar of
// what the panels show (layer, heads, query, opacity, colour map, shared scale) and the
// ImageGrid, with the shared scale's colour bar beside it while every panel uses it. Images dropped
// on it or pasted (Ctrl+V) are read as a person's own.
#include <QWidget>

#include "core/rollout.h"
#include "core/session_file.h"
#include "export_dialog.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;
class QSlider;
class QSpinBox;

namespace attnviz::ui {

class ColorBar;
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
    QCheckBox* sharedBox() const { return m_shared; }
    ColorBar* colorBar() const { return m_colorBar; }  // the shared scale, shown with it
    // A head asked for (the Heads dock): its layer with every head, scrolled to its panel.
    void showHead(int column, int layer, int head);
    // Image mode as a workspace keeps it (core/session_file.h "image"): the image chosen (a
    // test image or a file; a pasted one has none) and what the panels show.
    SessionImage state() const;
    // Restores `s` into the models' columns already set: the bar, the query, then the image
    // (a test image once they are loaded, or the file, read as Open image… reads it: refused
    // through the chooser's problem()). Returns what could not be restored, each with what
    // is shown instead: an unknown colour map, a layer no model has, a query patch outside a
    // model's grid or "cls" on a model without class token.
    QStringList restore(const SessionImage& s);

protected:
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* createControls();
    void retranslateUi();
    static QString patchText(const QString& query);  // "patch (row 4, column 4)" for "3,3"
    void applyControls();                            // the bar's values into the model's request
    void columnsChanged();  // the layer box's range: the deepest model's layers
    void updateColorBar();
    ImageQuery checkedQuery(const QString& query, QStringList* problems) const;
    ImageModel* m_model;
    int m_pendingLayer = -1;  // a restored layer, set once the models' layers are known
    ImageChooser* m_chooser;
    ImageGrid* m_grid;
    QScrollArea* m_scroll;
    QSpinBox* m_layer;
    QComboBox *m_heads, *m_query, *m_colormap;
    QSlider* m_opacity;
    QCheckBox* m_shared;
    ColorBar* m_colorBar;
    QLabel *m_layerLabel, *m_headsLabel, *m_opacityLabel, *m_colormapLabel, *m_queryLabel;
};

// The export dialog's source in image mode: the panels shown, as render's image figure (the
// same overlay drawing, on one shared scale or each panel on its own, as on screen); the
// other kinds of figure are for text models.
ExportDialog::Source imageExportSource(const ImageModel* model);
// Export data in image mode, by the extension of `path`: .csv or .npy the panels shown, each
// panel's whole table (render::imageDataBytes: rows the queries, columns the keys, "cls" then
// the patches row-major), .json each model's image dump (core/dump.h imageAttentionDump).
// False with a message naming the path when nothing is analysed yet or writing fails.
bool writeImageDataExport(const ImageModel* model, const QString& path, QString* error);

}  // namespace attnviz::ui
