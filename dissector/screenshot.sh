#!/usr/bin/env bash
# screenshot.sh [BUILD] [OUT.png] - Wireshark (Qt, under Xvfb) showing the plugin's details for a v2 message with chunks.
#
# Needs Debian's wireshark-qt, xvfb, xdotool, imagemagick.  Runs Wireshark as
# an unprivileged user with the plugin from BUILD/plugins, opens the plugin
# test capture filtered to frame 6 (an RDMA2_MSG call with a write list of
# two chunks and a reply chunk), expands the RPC-over-RDMA subtree, grabs the
# screen with `import -window root` and crops it to the window.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
out=${2:-$top/docs/img/wireshark-plugin-v2.png}
frame=${FRAME:-6}
for t in wireshark Xvfb xdotool import; do
	command -v "$t" >/dev/null || { echo "screenshot.sh: $t missing (apt-get install wireshark-qt xvfb xdotool imagemagick)" >&2; exit 1; }
done
tmp=$(mktemp -d /tmp/rpcrdma-shot.XXXXXX)
chmod 777 "$tmp"
xpid= wpid=
cleanup() {
	[ -n "$wpid" ] && kill "$wpid" 2>/dev/null
	[ -n "$xpid" ] && kill "$xpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
"$build/plugin-test/mkpcap" "$tmp/v2-chunks.pcap"
chmod -R a+rX "$build/plugins" "$tmp"

# Wireshark's remembered layout: packet list and details, no bytes pane
mkdir -p "$tmp/home/.config/wireshark"
cat >"$tmp/home/.config/wireshark/recent_common" <<'EOF'
gui.geometry_main_x: 0
gui.geometry_main_y: 0
gui.geometry_main_width: 1200
gui.geometry_main_height: 900
gui.geometry_main_maximized: FALSE
privs.warn_if_elevated: FALSE
gui.update.enabled: FALSE
EOF
cat >"$tmp/home/.config/wireshark/recent" <<'EOF'
gui.packet_list_show: TRUE
gui.tree_view_show: TRUE
gui.byte_view_show: FALSE
gui.statusbar_show: TRUE
gui.geometry_main_upper_pane: 110
EOF
chmod -R a+rwX "$tmp/home"

disp=:$((90 + RANDOM % 9))
Xvfb "$disp" -screen 0 1200x900x24 -nolisten tcp -ac >/dev/null 2>&1 &
xpid=$!
sleep 2
user=(env)
[ "$(id -u)" = 0 ] && user=(setpriv --reuid=65534 --regid=65534 --clear-groups env)
"${user[@]}" HOME="$tmp/home" DISPLAY="$disp" XDG_RUNTIME_DIR="$tmp" \
	WIRESHARK_PLUGIN_DIR="$build/plugins" QT_QPA_PLATFORM=xcb \
	wireshark -r "$tmp/v2-chunks.pcap" -Y "frame.number == $frame" \
	-o gui.ask_unsaved:FALSE -o rpcrdma.reassemble:TRUE >"$tmp/ws.log" 2>&1 &
wpid=$!
win=
for _ in $(seq 1 60); do
	win=$(DISPLAY=$disp xdotool search --onlyvisible --name "v2-chunks" 2>/dev/null | head -1) || true
	[ -n "$win" ] && break
	sleep 1
done
[ -n "$win" ] || { echo "screenshot.sh: no Wireshark window" >&2; cat "$tmp/ws.log" >&2; exit 1; }
sleep 3
export DISPLAY=$disp
xdotool windowactivate --sync "$win" 2>/dev/null || true
xdotool windowmove "$win" 0 0 windowsize "$win" 1200 900
sleep 1
# Click the sixth row of the details pane (Frame, Ethernet, IPv4, UDP,
# InfiniBand, RPC-over-RDMA: rows 17 px apart from y=213 in this layout)
# and expand its subtrees (Shift+Right).
xdotool mousemove --window "$win" 200 $((213 + 5 * 17)) click 1
sleep 1
xdotool key shift+Right
sleep 2
import -window root "$tmp/full.png"
convert "$tmp/full.png" -crop 1200x900+0+0 +repage -colors 64 -strip "$out"
echo "screenshot.sh: wrote $out ($(stat -c %s "$out") bytes)"
