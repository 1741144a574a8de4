/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * msgprint_harness.c - drives tools/common (JSON writer, printers) with
 * capture context that --hex cannot supply; built and run by cli.bats.
 *   msgprint_harness escape           strings with quotes, controls, UTF-8
 *   msgprint_harness time SEC USEC    json_time()
 *   msgprint_harness line|json|tree HEX   printers with a capture msg_ctx
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "msgprint.h"

static int unhex(const char *s, uint8_t *out, size_t cap, size_t *len)
{
	size_t n = 0;
	unsigned v;

	while (s[0] && s[1] && n < cap) {
		if (sscanf(s, "%2x", &v) != 1)
			return -1;
		out[n++] = (uint8_t)v;
		s += 2;
	}
	*len = n;
	return 0;
}

int main(int argc, char **argv)
{
	static const char raw[] = "q\"b\\s/\n\t\x01\x1f ok \xc3\xa9 bad \xff\xc3 end";
	struct obuf o;
	struct json j;

	ob_init(&o, stdout);
	json_init(&j, &o);
	if (argc == 2 && strcmp(argv[1], "escape") == 0) {
		json_obj_begin(&j);
		json_kstr(&j, "s", raw);
		json_key(&j, "a");
		json_arr_begin(&j);
		json_u64(&j, UINT64_MAX);
		json_i64(&j, INT64_MIN);
		json_null(&j);
		json_arr_begin(&j);
		json_arr_end(&j);
		json_obj_begin(&j);
		json_obj_end(&j);
		json_bool(&j, false);
		json_arr_end(&j);
		json_obj_end(&j);
		ob_putc(&o, '\n');
		ob_flush(&o);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "time") == 0) {
		json_time(&j, strtoll(argv[2], NULL, 10),
			  (uint32_t)strtoul(argv[3], NULL, 10));
		ob_putc(&o, '\n');
		ob_flush(&o);
		return 0;
	}
	if (argc == 3) {
		static uint8_t buf[4096];
		struct msg_ctx c = {
			.in_capture = true, .frame = 12, .ts_sec = 1700000000,
			.ts_usec = 123456, .src = "198.18.0.1:40123",
			.dst = "198.18.0.2:20049", .transport = "rocev2",
			.conversation = 3, .rpc_source = "inline",
			.have_call = true, .call_prog = 100003, .call_vers = 3,
			.call_proc = 6, .call_frame = 7,
		};
		struct rpcrdma_msg m;
		size_t len;

		if (unhex(argv[2], buf, sizeof(buf), &len))
			return 2;
		rpcrdma_decode(buf, len, &m);
		if (strcmp(argv[1], "line") == 0)
			msgprint_line(stdout, &m, &c);
		else if (strcmp(argv[1], "json") == 0)
			msgprint_json(stdout, &m, &c);
		else
			msgprint_tree(stdout, &m, &c);
		return 0;
	}
	return 2;
}
