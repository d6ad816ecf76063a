#!/bin/sh
# Installs the Debian packages chromatype needs, only those missing.
#   scripts/install-deps.sh build   libraries and tools to build
#   scripts/install-deps.sh test    the above, plus what the tests use
#   scripts/install-deps.sh bench   the build set, plus Chromium (the peer `make bench` measures)
#   scripts/install-deps.sh fuzz    the build set, plus clang and libFuzzer (`make fuzz`)
#   scripts/install-deps.sh slurm   the build set, plus Slurm and munge (`make test-slurm` runs a
#                                   one-node cluster of its own; the packages' services are
#                                   not used)
# Runs apt-get as root, or through sudo. Called by the Makefile; safe to run again.
set -e
what=${1:-build}
build_pkgs="make gcc g++ pkg-config libseccomp-dev libqpdf-dev liblcms2-dev libwoff-dev libbrotli-dev libwebp-dev libdeflate-dev qpdf ghostscript libgs-common liblua5.4-dev lua5.4 libfreetype-dev libharfbuzz-dev libcairo2-dev libxml2-dev zlib1g-dev libpng-dev librsvg2-dev libgdk-pixbuf-2.0-dev libfontconfig-dev libicu-dev libfribidi-dev libhyphen-dev libgif-dev hyphen-en-us fonts-dejavu-core fonts-lohit-deva"
test_pkgs="qpdf opentype-sanitizer librsvg2-bin libharfbuzz-bin poppler-utils python3-fonttools python3-brotli python3-pil valgrind fonts-noto-color-emoji strace ghostscript hyphen-de parallel ffmpeg chromium"
bench_pkgs="chromium fonts-dejavu-core"
pkgs=$build_pkgs
[ "$what" = test ] && pkgs="$pkgs $test_pkgs"
[ "$what" = bench ] && pkgs="$pkgs $bench_pkgs"
[ "$what" = fuzz ] && pkgs="$pkgs clang libclang-rt-14-dev"
[ "$what" = slurm ] && pkgs="$pkgs slurm-wlm munge"

need=
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
done
[ -z "$need" ] && exit 0

echo "chromatype: installing Debian packages:$need" >&2
if [ "$(id -u)" -eq 0 ]; then
  sudo=
elif command -v sudo >/dev/null 2>&1; then
  sudo=sudo
else
  echo "chromatype: missing packages:$need; run as root: apt-get install$need" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >&2 || true
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $need >&2
