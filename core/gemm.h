// SPDX-License-Identifier: GPL-3.0-or-later
// The library behind the engine's matrix products, chosen at build time (CMake option
// ATTNVIZ_GEMM; the measurements behind the default are in docs/training.md).
#pragma once

namespace attnviz {

// "openblas", "blis", "onednn" (dnnl_sgemm for products, OpenBLAS for the rest) or "eigen".
const char* gemmBackend();

// Makes every product run on the calling thread: parallelism comes from the trainer's own
// threads, and a product's result must not depend on how many threads a library happened
// to use. Idempotent and thread-safe; Network's constructor calls it.
void singleThreadedGemm();

}  // namespace attnviz
