#!/bin/sh
# Remakes the GIF corpus with ImageMagick (Debian's imagemagick package, /usr/bin/convert) from
# its built-in patterns and shapes drawn here: nothing in it comes from anywhere else, so it is
# as free to redistribute as the rest of the repository. The files are committed; the tests do
# not run this.
set -eu
cd "$(dirname "$0")"
convert=/usr/bin/convert

# Six frames of a ball crossing a gradient, optimised by ImageMagick into frames of their
# changed rectangles at offsets, with transparency; looped forever.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in 0 1 2 3 4 5; do
  x=$((10 + i * 14))
  $convert -size 96x64 gradient:skyblue-navy -fill orange -draw "circle $x,32 $((x + 9)),32" \
    -fill white -draw "rectangle 0,56 $((i * 16 + 10)),63" "$work/ball$i.png"
done
$convert -delay 8 -loop 0 "$work"/ball?.png -layers Optimize ball.gif

# Four seeded plasma frames, interlaced, each with its own colour table, restored to the
# background after each, looped three times.
$convert -seed 7 -delay 10 -loop 3 -dispose Background \
  -size 80x60 plasma:red-yellow plasma:green-blue plasma:purple-white plasma:black-orange \
  -interlace GIF plasma-interlaced.gif

# Frames at offsets, each restored to the previous picture after it.
$convert -delay 25 -loop 0 -size 70x50 xc:lightgrey -dispose Previous \
  \( -size 20x10 xc:red -repage +5+5 \) \( -size 12x30 xc:green -repage +40+12 \) \
  \( -size 30x8 xc:blue -repage +30+40 \) previous.gif

# A still two-colour image in GIF87a.
$convert -size 33x21 pattern:checkerboard -colors 2 GIF87:still87.gif

# A still 256-colour image, larger, for the size ratio.
$convert -seed 3 -size 240x160 plasma:fractal -colors 256 still256.gif

# Two lossless transforms by gifsicle (Debian's gifsicle package), a second opinion on where
# each frame goes: the tests compare their frames with ours.
mkdir -p gifsicle
/usr/bin/gifsicle --rotate-90 ball.gif > gifsicle/ball-r1.gif
/usr/bin/gifsicle --flip-vertical plasma-interlaced.gif > gifsicle/plasma-interlaced-r2m.gif
