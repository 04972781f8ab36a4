// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The image set's input (issue 28): a strip of the image task's test images to browse, with a
// class filter (the test images loaded once per task, in the background, by core/image_set.h),
// and a person's own image: Open image…, dropped on the window or pasted. The task is the one
// whose images the models read (setTask; Fashion-MNIST until told otherwise).
//
// An own image is decoded with render/image_file.h's limits and made into the task's input.
// For Fashion-MNIST's 28 × 28 grayscale: by default the garment is cut out of its background,
// cropped, centred and inverted as Fashion-MNIST's items are (core/garment_cutout.h), or the
// whole image is converted (core/image_input.h); invert auto, yes or no; the steps (the garment
// found in the photo, the crop) and the 28 × 28 image are shown beside the strip. For the
// clothing photos' 64 × 64 colour (issue 49) the photo is read as it is, fitted on its mean
// colour exactly as the set's photos were made (prepareColorModelImage): no cut-out, no invert.
// The chosen image goes to the ImageModel.
//
// An own image is decoded off the UI thread (on the app's background pool), so a large or
// hostile file never freezes the window: the request*() functions start it and return; the
// image is shown when it arrives, or refused through problem(), and the image shown before
// stays meanwhile. A newer choice (another file, a paste, a test image) or Cancel gives the
// older one up: its decoder stops at its next read and whatever it still delivers is dropped.
#include <QWidget>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "core/garment_cutout.h"
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
    ~ImageChooser() override;  // gives up an own image still being decoded

    // The task whose images the models read (core/image_set.h imageTaskReadBy; null is ignored).
    // Another task than before drops the test images, a test image still to be chosen and the
    // image shown (its pixels do not fit the models), and makes a person's image shown (or
    // being opened) again for the new task: read again from its file, or its pasted bytes.
    void setTask(const ImageTask* task);
    const ImageTask& task() const { return *m_task; }
    // The task's name for people: "Fashion-MNIST", "clothing-photo" (as in "the %1 test images"),
    // in the installed language.
    QString taskName() const;
    // Loads the task's test images in the background, once per task; the first one is
    // chosen when they arrive and no image was chosen before.
    void loadTestImages();
    // Blocks until the test images are there (tests). False with the reason when they
    // could not be read.
    bool waitForTestImages(QString* error = nullptr);
    const ImageSet& testImages() const { return m_test; }
    // Chooses test image `index` (of the whole test split): the models read it.
    void chooseTestImage(int index);
    // The class filter: -1 every class, else a label of the task's classes.
    void setClassFilter(int label);
    // A person's own image file, decoded in the background (render/image_file.h says what is
    // refused): shown when it arrives, or refused through problem().
    void requestImageFile(const QString& path);
    // Pasted or dropped data: image bytes (PNG, JPEG, …, decoded as a file's are), an image,
    // or the first local file it names, decoded in the background as requestImageFile does.
    // False, the reason in *error and problem(), when it holds none of them.
    bool requestMime(const QMimeData* mime, QString* error = nullptr);
    // Whether an own image is being decoded; cancelOpening() gives it up (the image shown
    // before stays).
    bool opening() const { return m_opening; }
    void cancelOpening();
    // Processes events until no own image is being decoded: false, with the reason in *error,
    // when the last one requested was refused or given up.
    bool waitForImage(QString* error = nullptr);
    // The request and its wait together (tests, scripts): false, the reason in *error and
    // problem(), when it cannot be read.
    bool openImageFile(const QString& path, QString* error = nullptr);
    bool openMime(const QMimeData* mime, QString* error = nullptr);
    void setInvert(InvertMode mode);
    // Cut the garment out (the default) or convert the whole image; an own image shown is
    // made again from what was decoded, nothing is read twice.
    void setPrepare(PrepareMode mode);
    PrepareMode prepare() const { return m_prepare; }
    // The image the models read, for a saved workspace: a test image's index (-1: none), a
    // person's file (absolute; "" when none or pasted) and the invert switch.
    int testIndex() const { return m_testIndex; }
    QString imageFile() const { return m_ownPath; }
    // A pasted image's pixels as PNG bytes (RGB), kept inside a saved workspace ("" when the
    // image is a file's or a test image), and such bytes opened again as the pasted image.
    std::string pastedPng() const;
    void requestPastedPng(const std::string& png);
    bool openPastedPng(const std::string& png, QString* error = nullptr);
    InvertMode invert() const { return m_invert; }
    // Chooses test image `index` now, or as soon as the test images are there; an index
    // outside the test set is refused by problem() (and *error when known at once).
    bool chooseTestImageWhenLoaded(int index, QString* error = nullptr);
    QLabel* modelView() const { return m_seen; }  // the image the model sees (28 × 28, 64 × 64)
    // The own image: its cut-out steps (the garment outlined, the crop, the 28 × 28 image), or
    // the whole image.
    QLabel* stepsView() const { return m_original; }

public slots:
    void openImageDialog();  // Open image…

signals:
    // An image could not be opened: a heading and the reason (the Problems panel shows them).
    void problem(const QString& heading, const QString& detail);
    // An own image requested was shown (true), or refused or given up (false).
    void openingFinished(bool shown);

protected:
    void changeEvent(QEvent* event) override;

private:
    // A person's image as a background job makes it for one task: decoded, its inputs (gray:
    // the whole image and the cut-out, each as it is and inverted; colour: the photo fitted)
    // and its previews, so that the UI thread only shows them.
    struct Opened;
    using Decode = std::function<ColorImage(const std::atomic<bool>* cancel)>;
    void retranslateUi();
    QWidget* createToolbar();
    void fillStrip();                      // the test images of the filter as thumbnails
    QString testImageName(int row) const;  // the strip's item: "Sneaker · #12"
    // Runs `decode` in the background; the result is shown as the file `path` ("" when
    // pasted), named `ownName` in the model's source; older requests are given up.
    void startOpening(Decode decode, const QString& path, const std::string& ownName);
    bool colour() const { return m_task->channels == 3; }
    // A colour task whose photos were cut out, with "cut out the garment" chosen.
    bool colourCutout() const;
    void fillFilter();  // the task's classes
    void finishOpening(std::shared_ptr<Opened> opened, const QString& path,
                       const std::string& ownName);
    void showOwnImage();  // m_own's input as m_prepare and m_invert say
    // Whether the input shown is inverted: a cut-out unless "no" (core/garment_cutout.h
    // inverts every cut-out on auto), the whole image as InvertMode says.
    bool ownInverted() const;
    void setPreviewTips();                 // the previews' tooltips, in the installed language
    QString seenTip() const;               // "The 28 × 28 grayscale image the models see"
    void showPreviews(const QImage& own);  // the original (null: none) and the model's view
    bool refuse(const QString& heading, const QString& why, QString* error);
    ImageModel* m_model;
    const ImageTask* m_task;  // whose test images the strip shows and whose input is made
    ImageSet m_test;
    int m_loadGeneration = 0;  // counts tasks: test images of an older task are dropped
    bool m_loading = false, m_loaded = false;
    QString m_loadError;
    QString testImageNote() const;        // "Test image 7: Sneaker", in the installed language
    QString m_testNote;                   // that note as last shown
    std::shared_ptr<const Opened> m_own;  // the person's image, as decoded; null when none
    QString m_ownPath;                    // its file, "" when pasted
    std::string m_ownName;                // for data files: "file '…'", "the pasted image"
    bool m_opening = false;               // an own image is being decoded
    QString m_openError;                  // why the last request was refused or given up
    int m_openGeneration = 0;             // counts requests: a result of an older one is dropped
    std::shared_ptr<std::atomic<bool>> m_cancelOpen;  // the running request's cancel switch
    // A request as made (its decode reads the file again, or holds the pasted bytes): the one
    // being opened, and the one whose image is shown; setTask makes the image again from the
    // first while it opens, else from the second.
    struct Request {
        Decode decode;
        QString path;
        std::string name;
    };
    Request m_openingRequest, m_shownRequest;
    int m_testIndex = -1;    // the test image chosen, -1 when another image is
    int m_pendingTest = -1;  // chosen when the test images arrive
    InvertMode m_invert = InvertMode::Auto;
    PrepareMode m_prepare = PrepareMode::Cutout;
    QComboBox *m_filter, *m_invertBox, *m_prepareBox;
    QPushButton *m_open, *m_cancel;
    QListWidget* m_strip;
    QLabel *m_original, *m_seen, *m_note, *m_invertLabel, *m_prepareLabel;
};

}  // namespace attnviz::ui
