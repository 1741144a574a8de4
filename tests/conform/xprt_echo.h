/* SPDX-License-Identifier: BSD-3-Clause */
/* xprt_echo.h - an ECHO responder on the real transport (xprt_echo.c), for
 * test_conform_xprt. */
#ifndef RPCRDMA_XPRT_ECHO_H
#define RPCRDMA_XPRT_ECHO_H

#include "xprt.h"

extern const struct xprt_handlers xe_handlers;

#endif
