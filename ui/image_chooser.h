// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The image set's input (issue 28): a strip of Fashion-MNIST test images to browse, with a
// class filter (the test images loaded once, in the background, by core/image_set.h), and a
// person's own image: Open image…, dropped on the window or pasted. An own image is decoded
// with render/image_file.h's limits and made into the model's 28 × 28 input by
// core/image_input.h (invert auto, yes or no); both are shown side by side. The chosen image
// goes to the ImageModel.
#include <QWidget>
#include <optional>

#include "core/image_input.h"
#include "core/image_set.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QMimeData;

namespace attnviz::ui {

class ImageModel;

class ImageChooser : public QWidget {
    Q_OBJECT
public:
    explicit ImageChooser(ImageModel* model, QWidget* parent = nullptr);

    // Loads the test images in the background, once (the first call); the first one is
    // chosen when they arrive and no image was chosen before.
    void loadTestImages();
    // Blocks until the test images are there (tests). False with the reason when they
    // could not be read.
    bool waitForTestImages(QString* error = nullptr);
    const ImageSet& testImages() const { return m_test; }
    // Chooses test image `index` (of the whole test split): the models read it.
    void chooseTestImage(int index);
    // The class filter: -1 every class, else a label 0 … 9.
    void setClassFilter(int label);
    // A person's own image file; false, the reason in *error and problem(), when it cannot be
    // read (render/image_file.h says what is refused).
    bool openImageFile(const QString& path, QString* error = nullptr);
    // Pasted or dropped data: an image, or the first local file it names.
    bool openMime(const QMimeData* mime, QString* error = nullptr);
    void setInvert(InvertMode mode);
    // The image the models read, for a saved workspace: a test image's index (-1: none), a
    // person's file (absolute; "" when none or pasted) and the invert switch.
    int testIndex() const { return m_testIndex; }
    QString imageFile() const { return m_ownPath; }
    // A pasted image's grayscale as PNG bytes, kept inside a saved workspace ("" when the
    // image is a file's or a test image), and such bytes opened again as the pasted image.
    std::string pastedPng() const;
    bool openPastedPng(const std::string& png, QString* error = nullptr);
    InvertMode invert() const { return m_invert; }
    // Chooses test image `index` now, or as soon as the test images are there; an index
    // outside the test set is refused by problem() (and *error when known at once).
    bool chooseTestImageWhenLoaded(int index, QString* error = nullptr);
    QLabel* modelView() const { return m_seen; }  // the 28 × 28 image the model sees

public slots:
    void openImageDialog();  // Open image…

signals:
    // An image could not be opened: a heading and the reason (the Problems panel shows them).
    void problem(const QString& heading, const QString& detail);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    QWidget* createToolbar();
    void fillStrip();                      // the test images of the filter as thumbnails
    QString testImageName(int row) const;  // the strip's item: "Sneaker · #12"
    void showOwnImage();                   // m_own made into the input as m_invert says
    void showPasted();                     // m_own, pasted: shown as showOwnImage does
    void showPreviews(const QImage& own);  // the original (null: none) and the model's view
    bool refuse(const QString& heading, const QString& why, QString* error);
    ImageModel* m_model;
    ImageSet m_test;
    bool m_loading = false, m_loaded = false;
    QString m_loadError;
    std::optional<GrayImage> m_own;  // the person's image, as decoded
    QString m_ownPath;               // its file, "" when pasted
    std::string m_ownName;           // for data files: "file '…'", "the pasted image"
    int m_testIndex = -1;            // the test image chosen, -1 when another image is
    int m_pendingTest = -1;          // chosen when the test images arrive
    InvertMode m_invert = InvertMode::Auto;
    QComboBox *m_filter, *m_invertBox;
    QPushButton* m_open;
    QListWidget* m_strip;
    QLabel *m_original, *m_seen, *m_note, *m_invertLabel;
};

}  // namespace attnviz::ui
