#!/bin/sh
# Regenerates the WebP corpus with Debian's webp tools (cwebp, img2webp, gif2webp, webpmux) and
# ImageMagick 6 (apt-get install webp imagemagick). The tools' outputs are free to redistribute.
# NAME.info is webpmux -info of NAME.webp: the structure the parser is checked against.
set -eu
cd "$(dirname "$0")/corpus"
im=/usr/bin/convert
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A still lossless image with translucent pixels, ICC, EXIF and XMP.
$im -size 37x23 -seed 3 plasma:fractal -alpha set -channel A -fx 'i/w' +channel "$tmp/still.png"
cwebp -quiet -lossless "$tmp/still.png" -o "$tmp/plain.webp"
printf 'Exif\0\0II*\0\10\0\0\0\0\0' > "$tmp/exif"
printf '<x:xmpmeta xmlns:x="adobe:ns:meta/"/>' > "$tmp/xmp"
webpmux -set icc /usr/share/color/icc/ghostscript/srgb.icc "$tmp/plain.webp" -o "$tmp/icc.webp"
webpmux -set exif "$tmp/exif" "$tmp/icc.webp" -o "$tmp/exif.webp"
webpmux -set xmp "$tmp/xmp" "$tmp/exif.webp" -o still-lossless.webp
cwebp -quiet -q 80 "$tmp/still.png" -o still-lossy.webp

# Frames of odd sizes where a small square moves over a gradient: the encoders store most
# frames as sub-rectangles at (even) offsets, with blending and disposal of their choosing.
for i in 0 1 2 3 4 5; do
  $im -size 29x19 gradient:navy-gold -fill "rgba(255,0,0,0.6)" -draw "rectangle $((i * 3 + 1)),$((i * 2 + 1)) $((i * 3 + 7)),$((i * 2 + 6))" "$tmp/f$i.png"
done
img2webp -loop 3 -lossless -d 70 "$tmp/f0.png" "$tmp/f1.png" -d 120 "$tmp/f2.png" "$tmp/f3.png" -d 40 "$tmp/f4.png" "$tmp/f5.png" -o anim-lossless.webp
img2webp -loop 0 -lossy -q 70 -d 90 "$tmp"/f?.png -o anim-lossy.webp

# A GIF with transparency and disposal to background, through gif2webp.
$im -dispose Background -delay 20 -size 23x17 xc:none -fill blue -draw 'circle 8,8 8,3' \
  -dispose None -delay 30 \( -size 23x17 xc:none -fill green -draw 'rectangle 12,2 20,12' \) \
  -dispose Previous -delay 10 \( -size 23x17 xc:none -fill red -draw 'rectangle 3,9 9,15' \) \
  -loop 5 "$tmp/anim.gif"
gif2webp -quiet "$tmp/anim.gif" -o anim-gif.webp

# Frames put together by hand: lossless and lossy (with ALPH), blended and overwriting, kept and
# disposed, at offsets that a flip or turn makes odd.
$im -size 29x19 gradient:white-teal "$tmp/m0.png"
$im -size 11x9 xc:none -fill "rgba(200,40,90,0.7)" -draw 'circle 5,4 5,0' "$tmp/m1.png"
$im -size 10x7 -seed 5 plasma:fractal "$tmp/m2.png"
$im -size 7x5 xc:"rgba(20,200,60,0.5)" "$tmp/m3.png"
cwebp -quiet -lossless "$tmp/m0.png" -o "$tmp/m0.webp"
cwebp -quiet -q 75 -alpha_q 100 "$tmp/m1.png" -o "$tmp/m1.webp"
cwebp -quiet -lossless "$tmp/m2.png" -o "$tmp/m2.webp"
cwebp -quiet -lossless -exact "$tmp/m3.png" -o "$tmp/m3.webp"
webpmux -frame "$tmp/m0.webp" +100+0+0+0-b -frame "$tmp/m1.webp" +80+4+2+1+b \
  -frame "$tmp/m2.webp" +60+8+6+0-b -frame "$tmp/m3.webp" +50+14+10+0-b -loop 7 -bgcolor 255,10,20,30 -o anim-mux.webp
# The same without the lossy frame, every frame disposed: the lines a flip adds to frames at odd
# offsets are cleared too, and must be put back by the next frame.
webpmux -frame "$tmp/m0.webp" +100+0+0+0-b -frame "$tmp/m2.webp" +80+4+2+1+b \
  -frame "$tmp/m3.webp" +60+8+6+1-b -frame "$tmp/m2.webp" +50+14+10+1+b -frame "$tmp/m3.webp" +40+2+12+0-b \
  -loop 0 -o anim-dispose.webp

for f in *.webp; do webpmux -info "$f" > "${f%.webp}.info"; done
