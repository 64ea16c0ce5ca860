# attn-tutor — build, deps, run, test, bench, install.
# `make run` and `make test` install missing Debian packages first (scripts/deps.sh).

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/attn-tutor
MANDIR  ?= $(PREFIX)/share/man
LOCALEDIR ?= $(PREFIX)/share/locale

CC      ?= cc
PKGS    := ncursesw libcyaml openblas libcjson sleef
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lunistring -lm -lpthread -ldl
# OpenCC and libstemmer (Snowball) are opened by the grader when it first needs them
# (src/quiz/textlibs.h), by the sonames of the libraries found here; OpenCC's data
# folder (t2s.json) is where the grader looks when the library's own lookup fails.
soname = $(shell objdump -p "$$($(CC) -print-file-name=$(1))" 2>/dev/null | awk '/SONAME/ { print $$2 }')
OPENCC_SONAME  := $(or $(call soname,libopencc.so),libopencc.so.1.1)
STEMMER_SONAME := $(or $(call soname,libstemmer.so),libstemmer.so.0d)
# The program itself links OpenBLAS's static library when the package has one (Debian's
# libopenblas-pthread-dev does): loading the shared one, whose DYNAMIC_ARCH tables need
# some 12,000 symbol relocations, cost every start about 8 ms of CPU (measured on this
# project's 2-core machine: a program that calls cblas_sgemm once starts in 13-14 ms
# with the shared library, 5-6 ms with the static one). Tests and benchmarks keep the
# shared library (their binaries would grow by 25 MB each). Only the pthread build's: the
# OpenMP build's static library would need the OpenMP runtime linked in as well.
OPENBLAS_LIBDIR := $(shell pkg-config --variable=libdir openblas 2>/dev/null)
OPENBLAS_A := $(if $(findstring openblas-pthread,$(OPENBLAS_LIBDIR)),$(wildcard $(OPENBLAS_LIBDIR)/libopenblas.a))
BIN_LIBS   := $(if $(OPENBLAS_A),$(patsubst -lopenblas,$(OPENBLAS_A),$(PKG_LIBS)),$(PKG_LIBS))
OPENCC_DIR := $(shell pkg-config --variable=prefix opencc 2>/dev/null || echo /usr)/share/opencc
VERSION := 0.1.0

WARN    := -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c17 $(WARN) $(CFLAGS) $(PKG_CFLAGS) -DNCURSES_WIDECHAR=1 \
             -DAT_VERSION='"$(VERSION)"' -DAT_SRCDIR='"$(CURDIR)"' -DAT_DATADIR='"$(DATADIR)"' \
             -DAT_LOCALEDIR='"$(LOCALEDIR)"' -DAT_OPENCC_DIR='"$(OPENCC_DIR)"' \
             -DAT_OPENCC_SONAME='"$(OPENCC_SONAME)"' -DAT_STEMMER_SONAME='"$(STEMMER_SONAME)"' -Isrc -MMD -MP
ISA_FLAGS = $(if $(findstring _avx2,$<),-mavx2 -mfma)$(if $(findstring _avx512,$<),-mavx512f -mavx512dq -mavx512bw -mavx512vl -mavx2 -mfma)
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# Every .c under src/ except main.c goes into the core library; files named *_avx2.c
# are built with -mavx2 -mfma, *_avx512.c with AVX-512 as well (chosen at run time,
# see src/engine/vexp.c and src/engine/mha.c).
LIB_SRC  := $(filter-out src/main.c,$(shell find src -name '*.c' | sort))
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_HELPERS := $(filter-out $(TEST_SRC),$(wildcard tests/unit/*.c))

define objs
$(patsubst %.c,build/$(1)/%.o,$(2))
endef

BIN       := build/attn-tutor
# UI translations: po/<lang>.po → build/locale/<lang>/LC_MESSAGES/attn-tutor.mo
MO        := $(patsubst po/%.po,build/locale/%/LC_MESSAGES/attn-tutor.mo,$(wildcard po/*.po))
LIB       := build/rel/libattn.a
LIB_ASAN  := build/asan/libattn.a
UNIT_BINS := $(patsubst tests/unit/%.c,build/rel/tests/%,$(TEST_SRC))
UNIT_ASAN := $(patsubst tests/unit/%.c,build/asan/tests/%,$(TEST_SRC))
# libFuzzer targets (tests/fuzz/fuzz_<name>.c) and their replay drivers for `make test`
FUZZ_ALL := lesson compute tokenizer answer formula rubric progress safetensors bpe wordpiece code
FUZZ_REPLAY := $(patsubst %,build/asan/fuzz/replay_%,$(FUZZ_ALL))

.SECONDARY:
.PHONY: all deps grade-report run test unit bench bench-ui model model-check install uninstall clean lint-lessons fuzz po
all: $(BIN) $(MO)

deps:
	@scripts/deps.sh

build/rel/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $<"; $(CC) $(ALL_CFLAGS) $(ISA_FLAGS) -c $< -o $@
build/asan/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $< (asan)"; $(CC) $(ALL_CFLAGS) -O1 $(SAN) $(ISA_FLAGS) -c $< -o $@

$(LIB): $(call objs,rel,$(LIB_SRC))
	@rm -f $@; ar rcs $@ $^
$(LIB_ASAN): $(call objs,asan,$(LIB_SRC))
	@rm -f $@; ar rcs $@ $^

$(BIN): build/rel/src/main.o $(LIB)
	@echo "  LD  $@"; $(CC) $(CFLAGS) -o $@ $^ $(BIN_LIBS)
build/asan/attn-tutor: build/asan/src/main.o $(LIB_ASAN)
	@echo "  LD  $@"; $(CC) $(CFLAGS) $(SAN) -o $@ $^ $(PKG_LIBS)

build/locale/%/LC_MESSAGES/attn-tutor.mo: po/%.po
	@mkdir -p $(dir $@)
	@echo "  MSGFMT $<"; msgfmt --check -o $@ $<

# The messages of the program (UI, grader, commands) into po/attn-tutor.pot, merged into
# every po/<lang>.po (scripts/messages.sh). A new language: msginit -l LL_CC -i
# po/attn-tutor.pot -o po/LL_CC.po, translate, make.
po:
	scripts/messages.sh po/attn-tutor.pot src
	@for p in po/*.po; do echo "  MSGMERGE $$p"; \
	  msgmerge --quiet --update --backup=none --no-fuzzy-matching --add-location=file $$p po/attn-tutor.pot || exit 1; \
	  msgattrib --no-obsolete --output-file=$$p $$p || exit 1; \
	  msgfmt --check --statistics -o /dev/null $$p; done

build/rel/tests/%: build/rel/tests/unit/%.o $(call objs,rel,$(TEST_HELPERS)) $(LIB)
	@echo "  LD  $@"; $(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lcmocka
build/asan/tests/%: build/asan/tests/unit/%.o $(call objs,asan,$(TEST_HELPERS)) $(LIB_ASAN)
	@echo "  LD  $@"; $(CC) $(CFLAGS) $(SAN) -o $@ $^ $(PKG_LIBS) -lcmocka

# The benchmarks are built (not run) with the tests, so they cannot rot (bench_peers links
# oneDNN, libdnnl-dev, which scripts/deps.sh installs; attn-tutor does not link it).
BENCH_BINS := $(patsubst bench/%.c,build/bench/%,$(wildcard bench/*.c))
unit: $(BIN) $(MO) build/asan/attn-tutor $(UNIT_BINS) $(UNIT_ASAN) $(FUZZ_REPLAY) $(BENCH_BINS)

# Every suite prints TAP lines; tests/run.sh counts them and ends with "N passed, N failed".
test: deps
	@$(MAKE) --no-print-directory unit
	@tests/run.sh

# Agreement of the grader with a teacher's blind verdicts on a labelled corpus of student
# answers (tests/grading/corpus.tsv; CORPUS=FILE for another set of the same format).
grade-report: $(BIN) $(MO)
	@AT_BIN=$(CURDIR)/$(BIN) tests/grading/grade.sh --report $(CORPUS)

run: deps
	@$(MAKE) --no-print-directory $(BIN) $(MO)
	@$(BIN); rc=$$?; \
	  echo "The tutor is $(CURDIR)/$(BIN): run it again as $(BIN) (e.g. $(BIN) lab), or put"; \
	  echo "attn-tutor on your PATH: make install PREFIX=~/.local and export PATH=\"\$$HOME/.local/bin:\$$PATH\""; \
	  exit $$rc

bench: deps $(BIN)
	@scripts/deps.sh bench
	@$(MAKE) --no-print-directory build/bench/bench_attention build/bench/bench_memory \
	    build/bench/bench_peers
	bench/run.sh

# The mini-model: trained from models/corpus.yaml by the project's own trainer, one
# thread, fixed seed (the same file comes out bit for bit); it prints the held-out
# evaluation it stores in the file.
model: deps
	@$(MAKE) --no-print-directory build/train-model
	OPENBLAS_NUM_THREADS=1 build/train-model models/corpus.yaml models/mini.safetensors

# Trains into build/ and checks that the result is byte for byte the shipped file, then
# prints the held-out evaluation the shipped file carries (its metadata "evaluation").
model-check: deps
	@$(MAKE) --no-print-directory build/train-model
	OPENBLAS_NUM_THREADS=1 build/train-model models/corpus.yaml build/mini-check.safetensors
	@cmp build/mini-check.safetensors models/mini.safetensors && \
	  echo "models/mini.safetensors reproduced byte for byte"
	@build/train-model --report models/mini.safetensors

build/train-model: build/rel/models/train_main.o $(LIB)
	@echo "  LD  $@"; $(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)

# Fuzzing with libFuzzer (clang, ASan+UBSan): `make fuzz FUZZ_SECONDS=60` runs every
# target for that long (`make fuzz FUZZ_TARGETS=answer` just one). Seeds come from
# tests/fuzz/corpus/<target>/ and tests/fuzz/regress/<target>/ (the lesson target also
# takes the shipped lessons, the safetensors target the shipped model); the growing
# corpus stays in build/fuzz/corpus/<target>/, crashing inputs go to build/fuzz/.
# `make test` replays both corpora through the ASan build (tests/cli/fuzz_regress.sh).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
# seconds one input may take before libFuzzer calls it a hang (raise it on a loaded machine)
FUZZ_TIMEOUT ?= 10
FUZZ_TARGETS ?= lesson compute tokenizer answer formula rubric progress safetensors bpe wordpiece code
FUZZ_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer
build/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $< (fuzz)"; $(FUZZ_CC) $(filter-out -Werror,$(ALL_CFLAGS)) -O1 -g \
	    $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(ISA_FLAGS) -c $< -o $@
build/fuzz/fuzz_%: build/fuzz/tests/fuzz/fuzz_%.o $(call objs,fuzz,$(LIB_SRC))
	@echo "  LD  $@"; $(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)
build/asan/fuzz/replay_%: build/asan/tests/fuzz/fuzz_%.o build/asan/tests/fuzz/replay_main.o $(LIB_ASAN)
	@mkdir -p $(dir $@)
	@echo "  LD  $@"; $(CC) $(CFLAGS) $(SAN) -o $@ $^ $(PKG_LIBS)
fuzz: deps
	@scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory $(patsubst %,build/fuzz/fuzz_%,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  c=build/fuzz/corpus/$$t; mkdir -p $$c; \
	  for f in tests/fuzz/corpus/$$t/* tests/fuzz/regress/$$t/*; do [ -f "$$f" ] && cp "$$f" $$c/; done; \
	  max=4096; dict=; \
	  case $$t in \
	    lesson) max=65536; dict=-dict=tests/fuzz/lesson.dict; \
	      for f in lessons/*/*.yaml tests/lint/*.yaml; do cp "$$f" "$$c/$$(echo "$$f" | tr / _)"; done ;; \
	    compute) max=16384; dict=-dict=tests/fuzz/lesson.dict ;; \
	    code) dict=-dict=tests/fuzz/code.dict ;; \
	    safetensors) max=1048576; cp models/*.safetensors $$c/ ;; \
	  esac; \
	  echo "== fuzz_$$t ($(FUZZ_SECONDS) s)"; \
	  build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$$max -timeout=$(FUZZ_TIMEOUT) \
	    -rss_limit_mb=2048 -artifact_prefix=build/fuzz/$$t- -print_final_stats=1 $$dict $$c || exit 1; \
	done

# UI latency of the lab: keystroke → screen update, start-up → first frame.
bench-ui: deps
	@$(MAKE) --no-print-directory $(BIN) build/bench/ui_latency
	bench/ui_latency.sh

build/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC  $< (bench)"; $(CC) $(ALL_CFLAGS) -o $@ $(filter %.c %.a,$^) $(PKG_LIBS)

# The engine's peers (bench/peers/): oneDNN (-ldnnl, linked here only), a plain OpenBLAS
# user, and llm.c's loop built with llm.c's own flags.
PEER_OBJS := build/bench/peers/dnnl_peer.o build/bench/peers/openblas_plain.o \
             build/bench/peers/llmc_loop.o
build/bench/peers/llmc_loop.o: bench/peers/llmc_loop.c
	@mkdir -p $(dir $@)
	@echo "  CC  $< (llm.c's flags)"; $(CC) -std=c17 $(WARN) -Ofast -march=native -g -MMD -MP -c $< -o $@
build/bench/peers/%.o: bench/peers/%.c
	@mkdir -p $(dir $@)
	@echo "  CC  $< (bench)"; $(CC) $(ALL_CFLAGS) -c $< -o $@
build/bench/bench_peers: bench/bench_peers.c $(PEER_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC  $< (bench)"; $(CC) $(ALL_CFLAGS) -Ibench -o $@ $(filter %.c %.o %.a,$^) $(PKG_LIBS) -ldnnl

# `make install PREFIX=/usr DESTDIR=/tmp/stage`: the program finds its data through
# <bin>/../share/attn-tutor, so a staged or moved install works as it is.
install: deps
	@$(MAKE) --no-print-directory $(BIN) $(MO)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/lessons/zh $(DESTDIR)$(DATADIR)/lessons/en \
	    $(DESTDIR)$(DATADIR)/models $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/attn-tutor
	install -m 644 lessons/zh/*.yaml $(DESTDIR)$(DATADIR)/lessons/zh/
	install -m 644 lessons/en/*.yaml $(DESTDIR)$(DATADIR)/lessons/en/
	install -m 644 models/*.safetensors $(DESTDIR)$(DATADIR)/models/
	install -m 644 docs/attn-tutor.1 $(DESTDIR)$(MANDIR)/man1/attn-tutor.1
	for mo in $(MO); do l=$${mo#build/locale/}; l=$${l%%/*}; \
	  install -d $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES; \
	  install -m 644 $$mo $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES/attn-tutor.mo; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/attn-tutor $(DESTDIR)$(MANDIR)/man1/attn-tutor.1
	rm -rf $(DESTDIR)$(DATADIR)
	for mo in $(MO); do l=$${mo#build/locale/}; l=$${l%%/*}; \
	  rm -f $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES/attn-tutor.mo; done

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
