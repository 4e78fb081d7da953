#!/usr/bin/env bash
# s46: the row pipelines' vector and alignment weights (suite/rows.cpp) swept: for each setting
# the CLI rebuilt, every shipped table's leave-one-out (../far/loo.sh) and the H100's held-out
# cases picked again offline (heldout.py: s46's c1/ c2/ and s42's c1/, 137 cases). suite/rows.cpp
# is restored at the end.   bash results/runs/2026-12-07-gpu-s46/vector_weight/sweep.sh
set -uo pipefail
S=results/runs/2026-12-07-gpu-s46
V=$S/vector_weight
export PATH=$PWD/.venv/bin:$PATH
cp suite/rows.cpp /tmp/rows.cpp.orig
for setting in "0.25 1.0" "0.125 0.5" "0.125 1.0"; do
    read -r align vec <<< "$setting"
    cp /tmp/rows.cpp.orig suite/rows.cpp
    sed -i "s/w.choice_align_weights = {0.25, 0.0};/w.choice_align_weights = {$align, 0.0};/; s/w.choice_vector_weights = {0.5, 0.0};/w.choice_vector_weights = {$vec, 0.0};/" suite/rows.cpp
    grep -n "choice_align_weights =\|choice_vector_weights =" suite/rows.cpp
    ninja -C build cli/fuselab > /dev/null || exit 1
    cp build/cli/fuselab /tmp/fuselab_a${align}_v$vec
    bash $S/far/loo.sh $V/a${align}_v$vec /tmp/fuselab_a${align}_v$vec
    python3 $V/heldout.py /tmp/fuselab_a${align}_v$vec results/h100.json $S/c1/choice_check_460{1,2}.json \
        $S/c1/choice_check_4691.json $S/c2/choice_check_4603.json \
        results/runs/2026-12-06-gpu-s42/c1/choice_check_4201.json > $V/a${align}_v$vec/heldout_h100.txt
    echo "align $align vector $vec: $(tail -1 $V/a${align}_v$vec/heldout_h100.txt)"
done
cp /tmp/rows.cpp.orig suite/rows.cpp
ninja -C build cli/fuselab > /dev/null
