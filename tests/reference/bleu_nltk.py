#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""CTest driver: attnviz's corpus BLEU against NLTK's corpus_bleu (Debian python3-nltk).

Several corpora of hypothesis/reference pairs, including edge cases: an empty hypothesis,
no 4-gram match, no match at all, hypotheses longer and shorter than their references,
repeated n-grams (clipping). NLTK is run without smoothing, as attnviz; both must agree
within 1e-9.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import warnings

from nltk.translate.bleu_score import corpus_bleu

CORPORA = {
    "typical": [("the cat sat on the mat", "the cat sat on a mat"),
                ("mo volo na de banof te irer", "mo volo na de banof te irer"),
                ("there is a cat on the mat", "the cat is on the mat")],
    "empty hypothesis among others": [("", "a b c d"), ("a b c d e", "a b c d e")],
    "all empty hypotheses": [("", "a b c d")],
    "no 4-gram match": [("a b c x d e f", "a b c y d e f")],
    "no match at all": [("x y z w", "a b c d")],
    "longer hypothesis": [("a b c d e f g h", "a b c d e")],
    "clipping": [("the the the the the the the", "the cat is on the mat")],
    "short": [("a b", "a b c d e f g h i j")],
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    args = ap.parse_args()
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, pairs in CORPORA.items():
            hyp, ref = os.path.join(tmp, "hyp"), os.path.join(tmp, "ref")
            with open(hyp, "w") as f:
                f.write("".join(h + "\n" for h, _ in pairs))
            with open(ref, "w") as f:
                f.write("".join(r + "\n" for _, r in pairs))
            ours = json.loads(subprocess.run([args.cli, "bleu", "--hyp", hyp, "--ref", ref], check=True,
                                             capture_output=True, text=True).stdout)["bleu"]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # NLTK warns about zero n-gram counts
                theirs = corpus_bleu([[r.split()] for _, r in pairs], [h.split() for h, _ in pairs])
            diff = abs(ours - theirs)
            worst = max(worst, diff)
            print(f"{name:32s} attnviz {ours:.12f}  nltk {theirs:.12f}")
            if diff > 1e-9:
                sys.exit(f"FAIL {name}: attnviz {ours} vs NLTK {theirs}")
    print(f"OK {len(CORPORA)} corpora, max |difference| {worst:.1e}")


if __name__ == "__main__":
    main()
