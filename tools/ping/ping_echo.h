/* SPDX-License-Identifier: BSD-3-Clause */
/* ping_echo.h - tools/ulb/echo_ulb.h for rpcrdma-ping (its first landed
 * version has a comment gcc's -Wcomment rejects). */
#ifndef RPCRDMA_PING_ECHO_H
#define RPCRDMA_PING_ECHO_H
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcomment"
#include "echo_ulb.h"
#pragma GCC diagnostic pop
#endif
