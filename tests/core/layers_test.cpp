// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's layers in its own precision (float): what the double-precision gradient
// tests (gradient_test.cpp) cannot see, such as which element vectorised passes pick.
#include "core/layers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace attnviz;

// A prediction is correct when the target is the first largest logit, as Eigen's maxCoeff(&i)
// picks it: ties go to the earlier index, wherever they fall in the vectorised passes, and
// NaNs follow its scalar loop. Rows shorter and longer than a vector register (4, 37 and
// 1000 logits), the maximum in the middle and in the tail.
TEST(CrossEntropy, CountsTheFirstLargestLogit) {
    for (int V : {4, 37, 1000}) {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        Mat logits = Mat::Constant(6, V, -2.0f);
        logits(0, 1) = logits(0, V - 1) = 3;  // a tie: index 1 is the prediction
        logits(1, V - 1) = 3;                 // the last element alone
        logits(2, 1) = -0.0f;                 // zeros of both signs tie: the first wins
        logits(2, V - 1) = 0;
        logits.row(3).setConstant(1.5f);  // all equal but <pad>'s: index 1
        logits(3, 0) = -5;
        logits(4, 0) = nan;  // a NaN first is kept (index 0, never a target)
        logits(4, V - 1) = 3;
        logits(5, 1) = nan;  // a NaN later is passed over
        logits(5, V - 1) = 3;
        for (int row = 0; row < 6; ++row) {
            Eigen::Index want = 0;
            logits.row(row).maxCoeff(&want);
            for (int target : {int(want), int(want) == V - 1 ? 1 : V - 1}) {
                if (target == 0) continue;  // <pad>: not a prediction
                const Mat one = logits.row(row);
                const auto ce = crossEntropy(one, {target}, 0.0f, 1.0f, nullptr);
                EXPECT_EQ(ce.correct, target == want ? 1 : 0)
                    << "V " << V << " row " << row << " target " << target;
                if (row < 4) {
                    EXPECT_TRUE(std::isfinite(ce.nll));
                }
            }
        }
    }
}
