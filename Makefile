# chromatype: build, demo, tests, install.  GNU make; libraries through pkg-config.
# Missing Debian packages are installed by scripts/install-deps.sh on first use.

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
LUADIR   = $(PREFIX)/share/lua/5.4
LIBDIR   = $(PREFIX)/lib/lua/5.4
DOCDIR   = $(PREFIX)/share/doc/chromatype
FILTERDIR = $(PREFIX)/share/chromatype/filters

PKGS := lua5.4 freetype2 harfbuzz cairo cairo-ft libxml-2.0 zlib libpng librsvg-2.0 gdk-pixbuf-2.0 fontconfig icu-uc fribidi libqpdf lcms2 harfbuzz-subset libwoff2enc libwoff2dec libbrotlidec libwebp libdeflate libseccomp

CC      ?= cc
CFLAGS  ?= -O2 -g
# Lua's and LPeg's warning set, made fatal.  -Wconversion and -Wdouble-promotion are
# left out: FreeType's 26.6 fixed point and cairo's doubles would need a cast on most
# lines, and such casts hide the narrowing bugs the warning exists to find.
WARN    := -Wall -Wextra -Werror -Wshadow -Wundef -Wwrite-strings -Wstrict-prototypes \
           -Wmissing-prototypes -Wold-style-definition -Wformat=2 -Wvla
# Recursive (=): expanded when a recipe runs, after build/deps.stamp installed the packages.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS))
ALL_CFLAGS = -std=c11 -D_DEFAULT_SOURCE -fPIC $(WARN) $(CFLAGS) -Isrc $(PKG_CFLAGS) -MMD -MP \
             -DCT_FILTER_DIR='"$(FILTERDIR)"'
# The PDF pass (src/write/pdf/pdfpass.cc) is C++: qpdf's content-stream tokenizer and token
# filters are in its C++ API only.  The same warnings, less those that are C's alone.
CXX     ?= c++
CXXWARN := -Wall -Wextra -Werror -Wshadow -Wundef -Wwrite-strings -Wformat=2 -Wvla
ALL_CXXFLAGS = -std=c++17 -fPIC $(CXXWARN) $(CFLAGS) -Isrc $(PKG_CFLAGS) -MMD -MP
# libhyphen and giflib ship no pkg-config file (Debian 12): linked by name
LDLIBS    += -lhyphen -lgif -lm -lstdc++

B := build
# The core, one folder per pipeline stage, bottom up (docs/ARCHITECTURE.md): a folder
# includes only the doors of the folders before it (tools/layers.lua checks, in make check).
STAGES   := base font text paint glyph/svg glyph/artwork glyph page write/png write/pdf write motion fontmake fontmake/artwork
CORE_SRC := $(foreach d,$(STAGES),$(wildcard src/$(d)/*.c))
CORE_CXX := $(foreach d,$(STAGES),$(wildcard src/$(d)/*.cc))
LUA_SRC  := $(wildcard src/lua/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
LUA_LIB  := $(wildcard lua/chromatype/*.lua lua/chromatype/*/*.lua)
CORE_OBJ := $(CORE_SRC:%.c=$(B)/%.o) $(CORE_CXX:%.cc=$(B)/%.o)
BIND_OBJ := $(LUA_SRC:%.c=$(B)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
# the executable's Lua library: its sources embedded and the loader serving them
EMBED_OBJ := $(B)/src/embedded_lua.o $(B)/src/cli/embed/preload.o
# unit tests of the core, in folders as the stages are (tests/c/STAGE/test_*.c)
TEST_C   := $(patsubst tests/c/%.c,$(B)/tests/%,$(wildcard tests/c/*/test_*.c))
TOOLS    := $(B)/tests/imgcmp $(B)/tests/ctgrid $(B)/tests/ctimg $(B)/tests/ctsep
# the fuzz targets; make check replays their seeds through gcc-built drivers (defined
# here, before `check` names them: a prerequisite list is expanded where it is read)
FUZZ_TARGETS := font svg xml cli fontbuild svgtime image
FUZZ_DRIVERS := $(FUZZ_TARGETS:%=$(B)/tests/fuzz-%)

.PHONY: all demo demo-run check test-slurm check-asan check-tsan check-valgrind bench install uninstall clean deps test-deps fonts refs fuzz fuzz-build fuzz-regress

all: $(B)/chromatype $(B)/lua/chromatype/core.so

$(B)/deps.stamp: scripts/install-deps.sh
	@scripts/install-deps.sh build
	@mkdir -p $(B) && touch $@

deps: $(B)/deps.stamp
test-deps:
	@scripts/install-deps.sh test

$(B)/%.o: %.c | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/%.o: %.cc | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_CXXFLAGS) -c $< -o $@

$(B)/src/embedded_lua.c: tools/embed.lua $(LUA_LIB) | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	lua5.4 tools/embed.lua $@ $(foreach f,$(LUA_LIB),$(patsubst chromatype.%.init,chromatype.%,$(subst /,.,$(patsubst lua/%.lua,%,$(f))))=$(f))

$(B)/src/embedded_lua.o: $(B)/src/embedded_lua.c
	$(CC) $(ALL_CFLAGS) -Isrc/cli/embed -c $< -o $@

$(B)/chromatype: $(CLI_OBJ) $(EMBED_OBJ) $(BIND_OBJ) $(CORE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# The same core as a Lua C module, for a plain lua5.4 (require "chromatype").
$(B)/lua/chromatype/core.so: $(BIND_OBJ) $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -o $@ $^ $(filter-out -llua5.4,$(PKG_LIBS)) $(LDLIBS)

# Tests that compile a core file themselves, with small limits: TEST,FILE
define self_test
$(B)/tests/$(1): tests/c/$(1).c src/$(2).c $(filter-out $(B)/src/$(2).o,$(CORE_OBJ)) | $(B)/deps.stamp
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_CFLAGS) -Itests/c -o $$@ $$< $(filter-out $(B)/src/$(2).o,$(CORE_OBJ)) $$(PKG_LIBS) $$(LDLIBS)
endef
$(eval $(call self_test,page/test_limits,page/canvas))
$(eval $(call self_test,font/test_woffcache,font/font))
$(eval $(call self_test,write/test_inks,write/output))
$(eval $(call self_test,paint/test_intern,paint/intern))

$(B)/tests/%: tests/c/%.c $(CORE_OBJ) | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/c -o $@ $< $(CORE_OBJ) $(PKG_LIBS) $(LDLIBS)

demo: all
	@$(MAKE) --no-print-directory demo-run

# The demo's renders with any executable (DEMO_CT=...), into out/: tools/same-output.sh
# runs it with two builds and compares what they wrote.
DEMO_CT ?= $(B)/chromatype
demo-run:
	@mkdir -p out
	@for f in examples/*.lua; do \
	  echo "demo: $$f"; \
	  $(DEMO_CT) $$f || exit 1; \
	done
	@for f in examples/*.xml; do \
	  echo "demo: $$f"; \
	  $(DEMO_CT) $$f -o out/$$(basename $$f .xml).pdf || exit 1; \
	  $(DEMO_CT) $$f -o out/$$(basename $$f .xml).png || exit 1; \
	done
	@echo "demo: examples/motion-poster.xml in motion, out/motion-poster.webp and .gif (docs/motion.md)"
	@$(DEMO_CT) examples/motion-poster.xml -o out/motion-poster.webp
	@$(DEMO_CT) examples/motion-poster.xml -o out/motion-poster.gif
	@echo "demo: view --animate, a variable COLRv1 font's sweep axis and palettes, out/view-animate.gif"
	@$(DEMO_CT) view tests/fonts/ct-colr1-var.ttf "$$(printf '\356\200\203\356\200\201\356\200\202')" \
	  --font-size 96 --animate SWPS=0:360 --animate palette=0:1:0 --ease in-out --duration 2 --fps 20 -o out/view-animate.gif
	@if command -v ffmpeg >/dev/null 2>&1; then echo "demo: examples/motion.lua as video, out/motion.mp4"; \
	  $(DEMO_CT) examples/motion.lua out/motion.mp4 >/dev/null || exit 1; fi
	@echo "demo: examples/riso-poster.xml in three spot inks, plates in out/riso-plates/"
	@$(DEMO_CT) examples/riso-poster.xml -o out/riso-poster.pdf --inks-only --plates out/riso-plates
	@echo "demo: the poster's <stack> as a color font, out/riso-chromatic.woff2 (docs/fonts.md)"
	@$(DEMO_CT) font examples/riso-poster.xml --palette 'Night:0=#1d3557,1=#f1faee,2=#e63946' \
	  --palette-type dark -o out/riso-chromatic.woff2
	@$(DEMO_CT) view out/riso-chromatic.woff2 'RISO PRINT' --font-size 120 -o out/riso-chromatic.png
	@if command -v ots-sanitize >/dev/null 2>&1; then \
	  ots-sanitize out/riso-chromatic.woff2 /dev/null >/dev/null && echo "demo: ots-sanitize accepts the font"; fi
	@# every PDF must be valid for preflight tools and RIPs, not only for readers
	@for f in out/*.pdf out/riso-plates/*.pdf; do \
	  qpdf --check "$$f" >/dev/null 2>&1 || { echo "demo: $$f fails qpdf --check:"; qpdf --check "$$f"; exit 1; }; \
	done; echo "demo: qpdf --check passes on every PDF"
	@echo "demo: images are in out/"

check: all test-deps $(TEST_C) $(TOOLS) $(FUZZ_DRIVERS)
	@CT_BUILD=$(B) CT_ASAN=$(CT_ASAN) sh tests/run.sh

# The Slurm job array of docs/batch.md on a one-node Slurm cluster of the test's own (root;
# Debian's slurm-wlm and munge, installed here when missing; one line says why it is skipped
# where they cannot be).  CI runs it after check.
test-slurm: all
	@if scripts/install-deps.sh slurm >$(B)/install-slurm.log 2>&1; then \
	  CT_BUILD=$(B) sh tests/slurm/run.sh; \
	else \
	  echo "slurm: skipped: slurm-wlm and munge could not be installed ($$(tail -1 $(B)/install-slurm.log))"; \
	fi

check-asan:
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 $(MAKE) B=build-asan CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	  LDLIBS="-lhyphen -lgif -lm -lstdc++ -fsanitize=address,undefined" CT_ASAN=1 check

# The threaded raster path (bands.c, png.c, deflate.c) under ThreadSanitizer: the threads
# suite, any race fails it (tests/tsan.supp: cairo's lock-free pools).  Focused: the whole
# suite under TSan would take hours.  The same suite under ASan/UBSan:
#   make B=build-asan CFLAGS=... (check-asan's) all && CT_BUILD=build-asan sh tests/cli/test_threads.sh
check-tsan:
	$(MAKE) B=build-tsan CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=thread" \
	  LDLIBS="-lhyphen -lgif -lm -lstdc++ -fsanitize=thread" all
	TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 exitcode=66" CT_BUILD=build-tsan \
	  sh tests/cli/test_threads.sh

# Speed against headless Chromium, glyphs/s cold and warm, batch pages/s, PDF bytes per
# repeated glyph, peak memory (bench/run.sh; docs/performance.md says what bounds them).
bench: all
	@scripts/install-deps.sh bench
	@sh bench/run.sh

check-valgrind: all $(TEST_C)
	@CT_BUILD=$(B) sh tests/valgrind.sh

# ---- fuzzing (docs/fuzzing.md) ---------------------------------------------------------------
# make fuzz FUZZ_SECONDS=N: libFuzzer targets (clang, ASan + UBSan) in build-fuzz/, each run
# for N seconds on a scratch copy of its seeds; a crash stops with the input saved in
# build-fuzz/crash-TARGET-*.  (The option parser's target does not look for leaks: its
# allocations live until the process exits, and die() leaves through longjmp.)  make check replays the seeds and the committed crashers
# (tests/fuzz/regress/) through gcc-built drivers, so it needs no clang.
FUZZ_SECONDS ?= 60
FZ := build-fuzz
FUZZ_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
               -fno-sanitize-recover=undefined $(PKG_CFLAGS) -Isrc -Isrc/cli/embed -I$(B)/src \
               -DCT_FILTER_DIR='"$(FILTERDIR)"'
FUZZ_OBJ := $(CORE_SRC:%.c=$(FZ)/%.o) $(CORE_CXX:%.cc=$(FZ)/%.o) $(LUA_SRC:%.c=$(FZ)/%.o) $(FZ)/src/embedded_lua.o $(FZ)/src/cli/embed/preload.o
fuzz_seeds_font := tests/fonts examples/fonts tests/fuzz/regress/font
fuzz_seeds_svg  := tests/fuzz/corpus/svg tests/fuzz/regress/svg
fuzz_seeds_xml  := tests/fuzz/corpus/xml tests/fuzz/regress/xml
fuzz_seeds_cli  := tests/fuzz/corpus/cli tests/fuzz/regress/cli
# the seeds of a target: fuzz_seeds_TARGET, else its corpus and regress folders
fuzz_seeds = $(or $(fuzz_seeds_$(1)),tests/fuzz/corpus/$(1) tests/fuzz/regress/$(1))
# An input that takes longer than this many seconds is a finding (libFuzzer's -timeout);
# FUZZ_TIMEOUT_TARGET=N sets one target's.
fuzz_timeout = $(or $(FUZZ_TIMEOUT_$(1)),1)
# The picture target reads pictures of at most 512 K pixels (CT_MAX_IMAGE_FILE_PIXELS), so
# that its budget measures the work per byte, not the size a picture may have (a 2.6 M
# pixel GIF of 155 bytes took 2 s, most of it encoding the PNG of the SVG output).
FUZZ_IMAGE_CAP := -DCT_MAX_IMAGE_FILE_PIXELS='(512.0 * 1024)'

$(FZ)/%.o: %.c | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
# the PDF pass is C++: without vptr and function checks, whose runtime the C driver that links does not bring
$(FZ)/%.o: %.cc | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	clang++ -std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize=vptr,function -fno-sanitize-recover=undefined \
	  -Isrc $(PKG_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FZ)/src/embedded_lua.o: $(B)/src/embedded_lua.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
# the command line's files with CT_FUZZ_CLI (no main(); die() jumps back to the target)
FUZZ_CLI_OBJ := $(CLI_SRC:src/cli/%.c=$(FZ)/cli-fuzz/%.o)
$(FZ)/cli-fuzz/%.o: src/cli/%.c src/cli/cli.h | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -DCT_FUZZ_CLI -fsanitize=fuzzer-no-link -c $< -o $@
$(FZ)/fuzz-cli: tests/fuzz/fuzz_cli.c $(FUZZ_CLI_OBJ) $(FUZZ_OBJ)
	clang $(FUZZ_CFLAGS) -DCT_FUZZ_CLI -fsanitize=fuzzer -o $@ tests/fuzz/fuzz_cli.c $(FUZZ_CLI_OBJ) $(FUZZ_OBJ) $(PKG_LIBS) $(LDLIBS)
$(FZ)/fuzz-%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	clang $(FUZZ_CFLAGS) -DCT_FUZZ_ROOT='"$(CURDIR)"' -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(PKG_LIBS) $(LDLIBS)
FUZZ_IMAGE_OBJ := $(filter-out $(FZ)/src/page/image.o,$(FUZZ_OBJ)) $(FZ)/capped/src/page/image.o
$(FZ)/capped/src/page/image.o: src/page/image.c | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) $(FUZZ_IMAGE_CAP) -fsanitize=fuzzer-no-link -c $< -o $@
$(FZ)/fuzz-image: tests/fuzz/fuzz_image.c $(FUZZ_IMAGE_OBJ)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_IMAGE_OBJ) $(PKG_LIBS) $(LDLIBS)

fuzz-build: all
	@scripts/install-deps.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=$(FZ)/fuzz-%)

fuzz: fuzz-build
	@$(foreach t,$(FUZZ_TARGETS),t=$(t); seeds="$(call fuzz_seeds,$(t))"; timeout=$(call fuzz_timeout,$(t)); \
	  mkdir -p $(FZ)/corpus-$$t; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s ($$timeout s an input)"; \
	  leaks=1; [ $$t = cli ] && leaks=0; \
	  ASAN_OPTIONS=detect_leaks=$$leaks LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  $(FZ)/fuzz-$$t $(FZ)/corpus-$$t $$seeds -max_total_time=$(FUZZ_SECONDS) -timeout=$$timeout -rss_limit_mb=2048 \
	    -max_len=262144 -close_fd_mask=3 -print_final_stats=1 -artifact_prefix=$(FZ)/crash-$$t- \
	    2>$(FZ)/fuzz-$$t.log || { tail -40 $(FZ)/fuzz-$$t.log; exit 1; }; \
	  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" $(FZ)/fuzz-$$t.log;) true

# the gcc-built replay drivers (make check runs them on the seeds and the regressions)
DRIVER_CLI_OBJ := $(CLI_SRC:src/cli/%.c=$(B)/cli-fuzz/%.o)
$(B)/cli-fuzz/%.o: src/cli/%.c | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_FUZZ_CLI -c $< -o $@
$(B)/tests/fuzz-cli: tests/fuzz/fuzz_cli.c tests/fuzz/driver.c $(DRIVER_CLI_OBJ) $(EMBED_OBJ) $(BIND_OBJ) $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_FUZZ_CLI -o $@ tests/fuzz/fuzz_cli.c tests/fuzz/driver.c $(DRIVER_CLI_OBJ) $(EMBED_OBJ) $(BIND_OBJ) $(CORE_OBJ) $(PKG_LIBS) $(LDLIBS)
$(B)/tests/fuzz-%: tests/fuzz/fuzz_%.c tests/fuzz/driver.c $(EMBED_OBJ) $(BIND_OBJ) $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DCT_FUZZ_ROOT='"$(CURDIR)"' -o $@ $< tests/fuzz/driver.c $(EMBED_OBJ) $(BIND_OBJ) $(CORE_OBJ) $(PKG_LIBS) $(LDLIBS)
DRIVER_IMAGE_OBJ := $(filter-out $(B)/src/page/image.o,$(CORE_OBJ)) $(B)/capped/src/page/image.o
$(B)/capped/src/page/image.o: src/page/image.c | $(B)/deps.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(FUZZ_IMAGE_CAP) -c $< -o $@
$(B)/tests/fuzz-image: tests/fuzz/fuzz_image.c tests/fuzz/driver.c $(EMBED_OBJ) $(BIND_OBJ) $(DRIVER_IMAGE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/fuzz/driver.c $(EMBED_OBJ) $(BIND_OBJ) $(DRIVER_IMAGE_OBJ) $(PKG_LIBS) $(LDLIBS)

fuzz-regress: $(FUZZ_DRIVERS)
	@$(if $(FUZZ_BUDGET),CT_FUZZ_BUDGET=$(FUZZ_BUDGET); export CT_FUZZ_BUDGET;) $(foreach t,$(FUZZ_TARGETS),$(B)/tests/fuzz-$(t) fuzz-$(t) $(call fuzz_seeds,$(t)) || exit 1;) true

# Regenerate the committed test fonts and the Chromium reference images.
fonts:
	/usr/bin/python3 tests/fonts/make_fonts.py tests/fonts
	/usr/bin/python3 tests/fonts/make_layout_fonts.py tests/fonts
	/usr/bin/python3 tests/fonts/make_axes_font.py tests/fonts
refs:
	sh tests/render/ref/make_refs.sh
	sh tests/realfonts/make_refs.sh

# The Lua library is replaced whole: a module of an older install that became a folder
# (document.lua -> document/init.lua) would be found first by lua5.4's ?.lua.
install: all
	rm -rf $(DESTDIR)$(LUADIR)/chromatype
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LUADIR)/chromatype $(DESTDIR)$(LIBDIR)/chromatype $(DESTDIR)$(DOCDIR)
	install -m 755 $(B)/chromatype $(DESTDIR)$(BINDIR)/chromatype
	for f in $(LUA_LIB); do install -D -m 644 $$f $(DESTDIR)$(LUADIR)/$${f#lua/}; done
	install -m 755 $(B)/lua/chromatype/core.so $(DESTDIR)$(LIBDIR)/chromatype/core.so
	install -m 644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(FILTERDIR)
	if ls filters/*.lua >/dev/null 2>&1; then install -m 644 filters/*.lua $(DESTDIR)$(FILTERDIR)/; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/chromatype $(DESTDIR)$(LIBDIR)/chromatype/core.so
	rm -rf $(DESTDIR)$(LUADIR)/chromatype $(DESTDIR)$(DOCDIR) $(DESTDIR)$(FILTERDIR)

clean:
	rm -rf build build-asan out tests/out

-include $(shell find $(B) -name '*.d' 2>/dev/null)
