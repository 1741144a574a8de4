# tools/conform: rpcrdma-conform, the responder conformance suite, over the
# transport (tools/transport) with the ECHO ULB; its malformed headers are
# tests/vectors/vectors.txt compiled in (vectors.awk).  Its unit tests: the
# case table, the grading and the report (test_conform), and the whole
# runner against an in-process model responder behind the transport's API
# (test_conform_run, tests/conform/fake_xprt.c), plain and under ASan+UBSan.
CONFORM_VEC_GEN := $(BUILD)/gen/conform_vectors.c
CONFORM_REQS_GEN := $(BUILD)/gen/conform_reqs.c
CONFORM_CASES_GEN := $(BUILD)/gen/conform_cases.c
CONFORM_GEN := $(CONFORM_VEC_GEN) $(CONFORM_REQS_GEN) $(CONFORM_CASES_GEN)
CONFORM_GEN_OBJ := $(BUILD)/obj/gen/conform_vectors.o $(BUILD)/obj/gen/conform_reqs.o \
	$(BUILD)/obj/gen/conform_cases.o
CONFORM_HDRS := $(wildcard tools/conform/*.h)
# the parts that do not touch the transport
CONFORM_PURE := tools/conform/cases.c tools/conform/grade.c tools/conform/report.c \
	tools/conform/target.c tools/conform/target_nfs.c tools/conform/safety.c tools/conform/reqs.c \
	tools/conform/req_cases.c tools/conform/req_fault_cases.c
CONFORM_RUN := tools/conform/run.c tools/conform/run_wait.c tools/conform/run_setup.c tools/conform/run_cases.c tools/conform/obs.c \
	tools/conform/run_chunks.c tools/conform/run_nfs.c \
	tools/conform/req_main.c tools/conform/req_report.c tools/conform/req_nfs.c tools/conform/req_mount.c \
	tools/conform/req_faults.c \
	tools/ulb/echo_respond.c
CONFORM_TEST_SRCS = $(CONFORM_PURE) $(TOOLS_COMMON_SRCS) tools/ulb/echo_ulb.c \
	tools/ulb/nfs3_xdr.c tools/ulb/nfs3_tree.c tools/ulb/nfs3_serve.c
CONFORM_TEST_FLAGS = $(TOOLS_CPPFLAGS) -Itools/conform -Itests/unit -Itests/conform

$(CONFORM_VEC_GEN): tests/vectors/vectors.txt tools/conform/vectors.awk | $(BUILD)/gen/.dir
	awk -f tools/conform/vectors.awk $< > $@.tmp && mv $@.tmp $@

# the requirements catalogue (docs/requirements.tsv) as a C table
$(CONFORM_REQS_GEN): docs/requirements.tsv tools/conform/reqs.awk | $(BUILD)/gen/.dir
	awk -f tools/conform/reqs.awk $< > $@.tmp && mv $@.tmp $@

# the cases written here (tools/conform/cases.tsv) as a C table
$(CONFORM_CASES_GEN): tools/conform/cases.tsv tools/conform/cases.awk | $(BUILD)/gen/.dir
	awk -f tools/conform/cases.awk $< > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/conform_%.o: $(BUILD)/gen/conform_%.c $(CONFORM_HDRS) $(CODEC_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TOOLS_CPPFLAGS) -Itools/conform $(CPPFLAGS) -c -o $@ $<

# The tool links the transport; it is built once the transport on main
# provides what the suite calls.
CONFORM_XPRT_FNS := xprt_send_raw xprt_mem_register xprt_mem_release xprt_connect \
	xprt_connect_opts xprt_loop_create xprt_loop_run xprt_reply xprt_peer
CONFORM_LP := (
CONFORM_XPRT_READY := $(shell cat tools/transport/*.c 2>/dev/null | \
	grep -oE '^[a-z][^;$(CONFORM_LP)]*[ *]xprt_[a-z_]+[$(CONFORM_LP)]' | \
	grep -oE 'xprt_[a-z_]+.$$' | tr -d '$(CONFORM_LP)' | sort -u | \
	grep -cxE '$(subst $(eval) ,|,$(CONFORM_XPRT_FNS))')
ifeq ($(CONFORM_XPRT_READY),$(words $(CONFORM_XPRT_FNS)))
$(eval $(call live_tool,rpcrdma-conform,conform))
rpcrdma-conform_OBJS += $(CONFORM_GEN_OBJ)
$(rpcrdma-conform_BIN): $(CONFORM_GEN_OBJ)
endif

# unit tests (run by tests/suites/10-unit.sh and 11-unit-asan.sh with the rest)
CHECK_DEPS += $(BUILD)/unit/test_conform $(BUILD)/asan/test_conform \
	$(BUILD)/unit/test_conform_run $(BUILD)/asan/test_conform_run

# The test binaries link objects of the tools' object sets (tools/module.mk):
# toolsunit against the libraries, toolsasan with the libraries' sources.
CONFORM_T_SRCS := tests/conform/test_conform.c $(CONFORM_TEST_SRCS) $(CONFORM_GEN) $(UNIT_COMMON)
$(BUILD)/unit/test_conform: $(call os_objs,toolsunit,$(CONFORM_T_SRCS)) $(CODEC_A) | $(BUILD)/unit/.dir
	$(TOOLS_UNIT_CC) -o $@ $^
$(BUILD)/asan/test_conform: $(call os_objs,toolsasan,$(sort $(CONFORM_T_SRCS) $(CODEC_SRCS))) | $(BUILD)/asan/.dir
	$(TOOLS_ASAN_CC) -o $@ $^

CONFORM_RUN_TEST_SRCS = tests/conform/fake_xprt.c tests/conform/fake_model.c $(CONFORM_RUN) \
	$(CONFORM_TEST_SRCS)
CONFORM_RUN_T_SRCS := tests/conform/test_conform_run.c $(CONFORM_RUN_TEST_SRCS) $(CONFORM_GEN) $(UNIT_COMMON)
$(BUILD)/unit/test_conform_run: $(call os_objs,toolsunit,$(CONFORM_RUN_T_SRCS)) $(CODEC_A) | $(BUILD)/unit/.dir
	$(TOOLS_UNIT_CC) -o $@ $^
$(BUILD)/asan/test_conform_run: $(call os_objs,toolsasan,$(sort $(CONFORM_RUN_T_SRCS) $(CODEC_SRCS))) \
		| $(BUILD)/asan/.dir
	$(TOOLS_ASAN_CC) -o $@ $^

# the command line over the model responder, for tests/cli/conform.bats
# (RPCRDMA_FAKE picks its faults; tests/conform/fake_xprt.c)
CONFORM_FAKE_BIN := $(BUILD)/conform/rpcrdma-conform-fake
CHECK_DEPS += $(CONFORM_FAKE_BIN)
$(CONFORM_FAKE_BIN): $(call os_objs,toolsunit,tools/conform/main.c $(CONFORM_RUN_TEST_SRCS) \
		$(CONFORM_GEN)) $(CODEC_A) | $(BUILD)/conform/.dir
	$(TOOLS_UNIT_CC) -o $@ $^

# the runner over the real transport and the fake verbs, against an ECHO
# responder of the same transport in the same loop (once the transport is in)
ifeq ($(CONFORM_XPRT_READY),$(words $(CONFORM_XPRT_FNS)))
CONFORM_XPRT_TEST_SRCS = tests/conform/test_conform_xprt.c tests/conform/xprt_echo.c \
	$(CONFORM_RUN) $(CONFORM_TEST_SRCS) $(FAKE_VERBS_SRCS)
CHECK_DEPS += $(BUILD)/unit/test_conform_xprt $(BUILD)/asan/test_conform_xprt
CONFORM_XPRT_T_SRCS := $(CONFORM_XPRT_TEST_SRCS) $(CONFORM_GEN) $(UNIT_COMMON)
$(eval $(call xprt_test,$(BUILD)/unit/test_conform_xprt,$(BUILD)/asan/test_conform_xprt,$(CONFORM_XPRT_T_SRCS)))

# --requester's responder (req_nfs.c, req_mount.c) over the real transport
# and the fake verbs, a requester of the same transport in the same loop;
# MOUNT over TCP on loopback
CONFORM_REQ_TEST_SRCS = tests/conform/test_conform_req.c tools/conform/req_nfs.c \
	tools/conform/req_mount.c tools/conform/req_main.c tools/conform/req_report.c tools/conform/req_cases.c \
	tools/conform/req_faults.c tools/conform/req_fault_cases.c \
	tools/conform/reqs.c $(CONFORM_REQS_GEN) tools/conform/cases.c tools/conform/grade.c \
	$(CONFORM_VEC_GEN) $(CONFORM_CASES_GEN) $(TOOLS_COMMON_SRCS) $(FAKE_VERBS_SRCS)
CHECK_DEPS += $(BUILD)/unit/test_conform_req $(BUILD)/asan/test_conform_req
CONFORM_REQ_T_SRCS := $(CONFORM_REQ_TEST_SRCS) $(UNIT_COMMON)
$(eval $(call xprt_test,$(BUILD)/unit/test_conform_req,$(BUILD)/asan/test_conform_req,$(CONFORM_REQ_T_SRCS)))
endif

# docs/conformance.md's case table from the table in the code, and
# docs/requirements.md from docs/requirements.tsv and the case table
.PHONY: conform-doc requirements-doc
conform-doc: $(CONFORM_FAKE_BIN) requirements-doc
	$(CONFORM_FAKE_BIN) --list --json > $(BUILD)/conform/list.json
	tools/conform/doc-table.sh $(BUILD)/conform/list.json docs/conformance.md
requirements-doc: $(CONFORM_FAKE_BIN)
	$(CONFORM_FAKE_BIN) --list --json > $(BUILD)/conform/list.json
	tools/conform/req-doc.sh docs/requirements.tsv $(BUILD)/conform/list.json > docs/requirements.md.tmp
	mv docs/requirements.md.tmp docs/requirements.md
