# animlib.sh: what the animation suites share (test_motion, test_anim_gif, test_anim_video),
# sourced after lib.sh: the binary, a scratch directory (KEEP=1 keeps and prints it), the
# variable COLRv1 test font with three of its glyphs, and whether Python's PIL can read frames.
B=${CT_BUILD:-build}
CT="$B/chromatype"
PY=/usr/bin/python3   # Debian's, with python3-pil (a pyenv python3 on the PATH may lack it)
T=$(mktemp -d)
[ -n "$KEEP" ] || trap 'rm -rf "$T"' EXIT
[ -n "$KEEP" ] && echo "$T"
VAR=tests/fonts/ct-colr1-var.ttf
TXT=$(printf '\356\200\203\356\200\201\356\200\202')   # U+E003 U+E001 U+E002: sweep, linear, radial
have_py=0
$PY -c "import PIL" 2>/dev/null && have_py=1
