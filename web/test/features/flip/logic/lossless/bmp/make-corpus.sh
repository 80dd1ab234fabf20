#!/bin/sh
# Regenerates the BMP corpus with Debian's ImageMagick 6 (apt-get install imagemagick), the
# independent encoder and decoder the BMP rewriter is checked against: each NAME.bmp comes with
# NAME.rgba, ImageMagick's own decode of it (8-bit RGBA, rows top to bottom). Sizes are odd so
# that every row has padding and no size is a multiple of a byte's pixels.
set -eu
cd "$(dirname "$0")/corpus"
im=/usr/bin/convert
$im -size 13x7 -seed 7 plasma:fractal src.png
$im src.png -colors 2 -type palette -compress none BMP3:p1.bmp
$im src.png -colors 16 -type palette -compress none BMP3:p4.bmp
$im src.png -colors 200 -type palette -compress none BMP3:p8.bmp
$im src.png -colors 200 -type palette -compress RLE BMP3:rle8.bmp
$im src.png -type truecolor -compress none BMP3:rgb24.bmp
$im src.png -define bmp:subtype=RGB565 BMP:bf565.bmp
$im src.png -define bmp:subtype=RGB555 BMP:bf555.bmp
$im src.png -alpha set -channel A -fx "j/h" +channel -define bmp:subtype=ARGB4444 BMP:bfa16.bmp
$im src.png -profile /usr/share/color/icc/ghostscript/srgb.icc -type truecolor BMP:icc24.bmp
$im src.png -alpha set -channel A -fx 'i/w' +channel BMP:bfa32.bmp
$im src.png -colors 2 -type palette -compress none BMP2:os2p1.bmp
$im src.png -type truecolor -compress none BMP2:os2rgb24.bmp
rm src.png
for f in *.bmp; do $im "$f" -depth 8 "rgba:${f%.bmp}.rgba"; done
