// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How token labels read, on screen and in figures alike: a subword piece that continues the
// word before it is marked, so that "st ·ation" does not read as two words. The app's grid
// marks its panels' labels with markPieces; every figure (gridPainter: the app's exports and
// `attnviz-cli render`) marks its selection the same way.
#include <memory>
#include <string>
#include <vector>

#include "core/selection.h"

namespace attnviz::render {

// Before a token label: the piece continues the word before it (SentencePiece models).
inline constexpr const char* kPieceMark = "\u00B7";

using TokenLabels = std::shared_ptr<const std::vector<std::string>>;
// `labels` with kPieceMark before every piece that continues a word, when they are the
// analysis' own source or target pieces (selectTables shares them) and it records where words
// start; unchanged otherwise (merged words, word-level models where every token starts a
// word, labels of another analysis).
TokenLabels markPieces(const TokenLabels& labels, const Analysis& analysis);
// Every table's query and key labels so marked, each by its own model's analysis.
Selection markPieces(Selection selection);
// A query profile's key labels so marked (by its keyWordStart).
Profile markPieces(Profile profile);

}  // namespace attnviz::render
