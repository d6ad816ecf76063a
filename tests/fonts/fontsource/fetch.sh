#!/bin/sh
# Re-creates this directory's fonts from the npm registry: `npm pack` of the exact package
# versions below, each font file and the package's LICENSE copied unchanged (the LICENSE
# as LICENSE.<package>), then the sha256 sums checked against SHA256SUMS.
# usage: sh tests/fonts/fontsource/fetch.sh   (from the project root; needs npm and network)
set -e
here=tests/fonts/fontsource
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# package@version file-in-package
while read -r pkg file; do
  case "$pkg" in ''|'#'*) continue ;; esac
  name=$(echo "$pkg" | sed 's|^@||; s|/|-|; s|@.*||')
  if [ ! -d "$work/$name" ]; then
    (cd "$work" && npm pack --silent "$pkg" > /dev/null)
    mkdir -p "$work/$name"
    tar xzf "$work"/*.tgz -C "$work/$name"
    rm -f "$work"/*.tgz
    cp "$work/$name/package/LICENSE" "$here/LICENSE.$(echo "$name" | sed 's/^fontsource-variable-//; s/^fontsource-//')"
  fi
  cp "$work/$name/package/files/$file" "$here/$file"
  echo "fetch.sh: $pkg $file"
done <<'LIST'
@fontsource-variable/nabla@5.3.0 nabla-latin-full-normal.woff2
@fontsource-variable/honk@5.3.0 honk-latin-full-normal.woff2
@fontsource-variable/kalnia-glaze@5.3.0 kalnia-glaze-latin-standard-normal.woff2
@fontsource-variable/foldit@5.3.0 foldit-latin-wght-normal.woff2
@fontsource-variable/cairo-play@5.3.0 cairo-play-latin-standard-normal.woff2
@fontsource-variable/reem-kufi-fun@5.3.0 reem-kufi-fun-latin-wght-normal.woff2
@fontsource-variable/bitcount-prop-single-ink@5.3.0 bitcount-prop-single-ink-latin-full-normal.woff2
@fontsource-variable/bitcount-grid-double-ink@5.3.0 bitcount-grid-double-ink-latin-full-normal.woff2
@fontsource-variable/sixtyfour-convergence@5.3.0 sixtyfour-convergence-latin-full-normal.woff2
@fontsource/bungee-tint@5.3.0 bungee-tint-latin-400-normal.woff2
@fontsource/aref-ruqaa-ink@5.3.0 aref-ruqaa-ink-latin-400-normal.woff2
LIST
(cd "$here" && sha256sum -c SHA256SUMS)
