#!/usr/bin/env bash
# Draws the pictures of pages in the README and docs/diagrams.md from the
# samples: run from the top of the project, with hexhop[article]
# installed and pdftoppm (poppler-utils) on the PATH.
set -euo pipefail
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
good=samples/good
hexhop render "$good/hexalit-kassel-1998.hxl" --format article --plies 4,13,42 \
    --columns 2 --page a4 --out-dir "$out/article" -q
hexhop puzzles "$good" --format pdf --page a4 --out-dir "$out/puzzles" -q
hexhop render "$good/trigeo-goettingen-1999.trg" --format sheet-pdf --page a4 \
    --out-dir "$out/sheet" -q
pdftoppm -png -r 70 -f 1 -l 1 -singlefile "$out/article/game001-article.pdf" docs/images/article-page
pdftoppm -png -r 72 -f 1 -l 1 -singlefile "$out/puzzles/puzzles.pdf" docs/images/puzzle-sheet-a4
pdftoppm -png -r 72 -f 1 -l 1 -singlefile "$out/sheet/game001-sheet.pdf" docs/images/sheet-a4
# 64 colours keep the pictures small in the repository
python - <<'PY'
from PIL import Image
for name in ("article-page", "puzzle-sheet-a4", "sheet-a4"):
    path = f"docs/images/{name}.png"
    Image.open(path).convert("RGB").quantize(64).save(path, optimize=True)
PY
