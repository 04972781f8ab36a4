// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Marks an engine text that people read in the app (a model set's or task's name, a
// variant's summary, the help of a live-editable option) for translation, where it is
// written. The core knows no translations: the macro is the text itself. lupdate reads the
// marks (scripts/update-translations: -tr-function-alias QT_TRANSLATE_NOOP+=ATTNVIZ_TR), and
// the app translates the text when it shows it (ui/language.h engineText). The context is
// always "attnviz::Engine", the one the app looks the texts up in:
//     v.summary = ATTNVIZ_TR("attnviz::Engine", "Dot-product attention (…)");
// Preset labels live in resources/models/configs/*.json, which scripts/update-translations
// reads itself.
#define ATTNVIZ_TR(context, text) text
