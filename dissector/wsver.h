/* wsver.h - what differs between the Wireshark versions the plugin is built against (4.0, 4.4, 4.6): the one place for it; there is no copy of the plugin per version. */
#ifndef RPCRDMA_WSVER_H
#define RPCRDMA_WSVER_H

#include <ws_version.h>

#define RPCRDMA_WS_AT_LEAST(maj, min) \
	(WIRESHARK_VERSION_MAJOR > (maj) || \
	 (WIRESHARK_VERSION_MAJOR == (maj) && WIRESHARK_VERSION_MINOR >= (min)))

/*
 * The truth type Wireshark's callbacks return and its boolean preferences
 * point at: glib's gboolean (an int) in 4.0, C's bool in 4.4 and 4.6
 * (heur_dissector_t, wmem_user_cb_t, prefs_register_bool_preference()).
 * Built and tested: 4.0 (Debian 12), 4.4 (13), 4.6 (unstable).  Wireshark
 * moved from glib's types to C99's in its 4.1/4.2 cycle: we put 4.2 on the
 * bool side (our reading, not built here).
 */
#if RPCRDMA_WS_AT_LEAST(4, 2)
typedef bool rpcrdma_ws_bool;
#define rpcrdma_tvb_get_u8 tvb_get_uint8
#else
typedef gboolean rpcrdma_ws_bool;
#define rpcrdma_tvb_get_u8 tvb_get_guint8
/*
 * Since 4.2 the loader also asks a plugin what it is (plugin_describe(),
 * WS_PLUGIN_DESC_*: "dissector" in tshark -G plugins); 4.0 has no such
 * symbol (nor wsutil/plugins.h among its headers).
 */
#if RPCRDMA_WS_AT_LEAST(4, 2)
#include <wsutil/plugins.h>
#define RPCRDMA_WS_DESCRIBE 1
#endif

#endif

/*
 * Since 4.2 the loader also asks a plugin what it is (plugin_describe(),
 * WS_PLUGIN_DESC_*: "dissector" in tshark -G plugins); 4.0 has no such
 * symbol (nor wsutil/plugins.h among its headers).
 */
#if RPCRDMA_WS_AT_LEAST(4, 2)
#include <wsutil/plugins.h>
#define RPCRDMA_WS_DESCRIBE 1
#endif

/*
 * tshark -z's init callback (stat_tap_init_cb): returns nothing up to 4.4,
 * whether the tap could start (bool) in 4.6.
 */
#if RPCRDMA_WS_AT_LEAST(4, 6)
typedef bool rpcrdma_tap_init_ret;
#define RPCRDMA_TAP_INIT_RETURN(ok) return (ok)
#else
typedef void rpcrdma_tap_init_ret;
#define RPCRDMA_TAP_INIT_RETURN(ok) do { (void)(ok); return; } while (0)
#endif

#endif
