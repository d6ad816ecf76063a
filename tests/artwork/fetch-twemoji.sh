#!/bin/sh
# fetch-twemoji.sh DIR: the whole Twemoji SVG set (npm @twemoji/svg 15.0.0, 3,720 files,
# graphics CC-BY 4.0, see tests/artwork/twemoji/LICENSE) unpacked into DIR, the package
# checked against its SHA-256.  The tarball is kept in ~/.cache/chromatype (XDG_CACHE_HOME)
# so a second run needs no network.  Prints DIR on success; exits 1 with one line on stderr
# when npm or the network is missing (the tests then use the committed subset alone).
set -e
dir=${1:?usage: fetch-twemoji.sh DIR}
pkg=@twemoji/svg@15.0.0
tgz=twemoji-svg-15.0.0.tgz
sum=1d2907557a422c7c4e3feca50ef915c39da1db3d76b4a4d7e73fb59bce4403c3
cache=${XDG_CACHE_HOME:-$HOME/.cache}/chromatype
if [ -f "$dir/.complete" ]; then echo "$dir"; exit 0; fi
mkdir -p "$cache"
if [ ! -f "$cache/$tgz" ] || ! echo "$sum  $cache/$tgz" | sha256sum -c - > /dev/null 2>&1; then
  command -v npm > /dev/null 2>&1 || { echo "fetch-twemoji.sh: npm missing (Debian npm)" >&2; exit 1; }
  tmp=$(mktemp -d "$cache/fetch.XXXXXX")
  if ! (cd "$tmp" && npm pack --silent "$pkg" > /dev/null 2>&1); then
    rm -rf "$tmp"; echo "fetch-twemoji.sh: npm pack $pkg failed (no network?)" >&2; exit 1
  fi
  if ! echo "$sum  $tmp/$tgz" | sha256sum -c - > /dev/null 2>&1; then
    rm -rf "$tmp"; echo "fetch-twemoji.sh: $tgz does not match its SHA-256" >&2; exit 1
  fi
  mv "$tmp/$tgz" "$cache/$tgz"; rm -rf "$tmp"
fi
rm -rf "$dir.part"; mkdir -p "$dir.part"
tar -xzf "$cache/$tgz" -C "$dir.part" --strip-components=1 package
n=$(ls "$dir.part"/*.svg | wc -l)
[ "$n" -eq 3720 ] || { echo "fetch-twemoji.sh: $n SVG files in $tgz, want 3720" >&2; exit 1; }
rm -rf "$dir"; mv "$dir.part" "$dir"; : > "$dir/.complete"
echo "$dir"
