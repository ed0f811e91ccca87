#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds: the project's litmus tests and models, and, when
# ../shared is present, every 50th shared corpus test and herd's models.
set -euo pipefail
cd "$(dirname "$0")"
root=..
shared=../../shared
mkdir -p corpus/litmus_parse corpus/check corpus/cat_parse corpus/cat_check
i=0
while IFS= read -r f; do
    i=$((i + 1))
    cp "$f" "corpus/litmus_parse/local-$i.litmus"
done < <(find "$root/litmus" -name '*.litmus' | sort)
if [ -d "$shared/corpus" ]; then
    i=0
    while IFS= read -r f; do
        i=$((i + 1))
        cp "$f" "corpus/litmus_parse/shared-$i.litmus"
    done < <(find "$shared/corpus" -name '*.litmus' | sort | awk 'NR % 50 == 0')
fi
cp corpus/litmus_parse/* corpus/check/
for f in "$root"/cat/*.cat; do cp "$f" "corpus/cat_parse/litsat-$(basename "$f")"; done
if [ -d "$shared/models/herd" ]; then
    for f in "$shared"/models/herd/*.cat; do cp "$f" "corpus/cat_parse/herd-$(basename "$f")"; done
fi
cp corpus/cat_parse/* corpus/cat_check/
echo "seeded: $(ls corpus/litmus_parse | wc -l) litmus, $(ls corpus/cat_parse | wc -l) cat"
