# Shared build settings.  Override on the command line: make CC=clang
# Parallel by default (one job per core) unless the caller chose -j itself.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
BUILD ?= build
BUILD := $(patsubst %/,%,$(BUILD))
BIN := $(BUILD)/bin
LIBDIR_B := $(BUILD)/lib
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
COMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_JOBS ?= 1
FUZZ_MAX_LEN ?= 65536
FUZZ_ONLY ?=
FUZZ_CORPUS ?=

CC ?= cc
CLANG ?= clang
OPT ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat=2
STD := -std=c11 -D_DEFAULT_SOURCE
CFLAGS ?=
CPPFLAGS ?=
LDFLAGS ?=
ALL_CFLAGS = $(STD) $(OPT) $(WARN) $(CFLAGS)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

ALL_TARGETS :=
CHECK_DEPS :=
FUZZ_TARGETS :=
BENCH_DEPS :=
INSTALL_TARGETS :=

$(BUILD)/%/.dir:
	@mkdir -p $(@D) && touch $@
# directory markers are not intermediate files: keep them (and keep make
# quiet after the test summary line)
.PRECIOUS: $(BUILD)/%/.dir

# Object sets: a source that several binaries of one flavour (compiler and
# flags) link is compiled once per flavour into $(BUILD)/os/SET/ (was once per
# binary: hundreds of compiles of the same files, minutes of make check).
#   $(call objset,SET,SOURCES,COMPILE COMMAND,HEADERS) defines $(SET_OBJS);
#   $(call os_objs,SET,SOURCES) names the objects of SOURCES in SET (any
#   source: the pattern rule builds what a binary asks for)
define objset
$(1)_OBJS := $$(patsubst %.c,$$(BUILD)/os/$(1)/%.o,$(2))
.SECONDARY: $$($(1)_OBJS)
$$(BUILD)/os/$(1)/%.o: %.c $(4)
	@mkdir -p $$(@D)
	$(3) -c -o $$@ $$<
endef
os_objs = $(patsubst %.c,$(BUILD)/os/$(1)/%.o,$(2))

# $(eval $(call xprt_test,UNIT_BIN,ASAN_BIN,SOURCES[,LIBS])): a test program
# over the transport, built twice as the tools' are: of the toolsunit
# objects against the transport's and the codec's libraries, and of the
# toolsasan objects with their sources (ASan+UBSan); LIBS after the
# transport's (-lm).  The object sets are defined in tools/module.mk.
define xprt_test
$(1): $$(call os_objs,toolsunit,$(3)) $$(XPRT_A) $$(CODEC_A) | $$(dir $(1)).dir
	$$(TOOLS_UNIT_CC) -o $$@ $$^ $$(XPRT_LIBS) $(4)
$(2): $$(call os_objs,toolsasan,$$(sort $(3) $$(XPRT_SRCS) $$(CODEC_SRCS))) | $$(dir $(2)).dir
	$$(TOOLS_ASAN_CC) -o $$@ $$^ $$(XPRT_LIBS) $(4)
endef

# the unit tests' TAP and vector helpers (tests/unit), linked by the tools'
# test binaries too: here, before the tools' module.mk files read them
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_COMMON := $(filter-out $(UNIT_SRCS),$(wildcard tests/unit/*.c))
UNIT_HDRS := $(wildcard tests/unit/*.h)
# the in-process fake verbs (tests/transport) that tools' tests link
FAKE_VERBS_SRCS := tests/transport/fake_verbs.c tests/transport/fake_verbs_qp.c
FAKE_VERBS_CPPFLAGS := -Itests/transport
