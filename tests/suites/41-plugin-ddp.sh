#!/usr/bin/env bash
# 41-plugin-ddp: the plugin puts Write chunk data back into NFS replies (one pass and two), keeps two connections apart, and is never worse than the built-in (regression guard).
set -u
: "${TOP:?}" "${BUILD:?}"
. "$TOP/tests/plugin/lib.sh"

SO=$PLUGIN_DIR/$WS_RELEASE/epan/rpcrdma.so
if ! in_ws pkg-config --exists wireshark 2>/dev/null || ! in_ws sh -c "command -v tshark" >/dev/null; then
	# scripts/deps.sh installs them: their absence is a failure
	nok "plugin Write chunk suite: Wireshark here (pkg-config wireshark, tshark; scripts/deps.sh installs them)"
	echo "1..$n"; exit 1
fi
if [ ! -f "$SO" ] || [ ! -x "$BUILD/plugin-test/mkpcap" ]; then
	nok "plugin and mkpcap built" "run make"
	echo "1..$n"; exit 1
fi
chmod -R a+rX "$PLUGIN_DIR"
T=$(mkscratch)
trap 'rm -rf "$T"' EXIT
hexof() { python3 -c 'import sys; t=sys.argv[1]; n=int(sys.argv[2]); print((t*(n//len(t)+1))[:n].encode().hex())' "$1" "$2"; }

# ---- mkpcap --ddp: each case by its XID, one pass and two ----
D=$T/ddp.pcap
"$BUILD/plugin-test/mkpcap" --ddp "$D" "$T/ddp.expect" && chmod a+r "$D"
for pass in "" -2; do
	p=${pass:-one pass}
	ts $pass -r "$D" -Y "rpc.msgtyp == 1" -T fields -E occurrence=a -E aggregator=, \
		-e rpc.xid -e nfs.data -e nfs.readlink.data -e nfs.symlink.linktext -e nfs.fattr4.size \
		-e _ws.expert.message >"$T/ddp.tsv" 2>/dev/null
	ts $pass -r "$D" -Y rpcrdma.xid -T fields -E occurrence=a -E aggregator=, \
		-e rpcrdma.xid -e rpcrdma.direction -e rpc.xid -e _ws.expert.message >"$T/ddp.all" 2>/dev/null
	field() { awk -F'\t' -v x="$1" -v c="$2" '$1 == x {print $c}' "$T/ddp.tsv"; }
	for c in "0x00005001 V1-NFS3-READ: 5093 V1 NFSv3 READ, 3 pad bytes" \
		"0x00005003 V2-NFS41-READ: 6000 V2 NFSv4.1 SEQUENCE PUTFH READ" \
		"0x00005005 V2-MIDDLE: 333 V2 NFSv4 PUTFH READ GETATTR" \
		"0x0000500a LONG-REPLY: 1500 V2 reduced reply in the reply chunk (NOMSG)"; do
		set -- $c; xid=$1 tag=$2 len=$3; shift 3
		if [ "$(field "$xid" 2)" = "$(hexof "$tag" "$len")" ]; then ok "$p: $*: the $len bytes of data are back in the NFS READ reply"
		else nok "$p: $*: the data are back in the NFS READ reply" "got $(field "$xid" 2 | cut -c1-40)... ($(field "$xid" 6))"; fi
	done
	got=$(field 0x00005005 5)
	if [ "$got" = 333 ]; then ok "$p: the GETATTR after the READ decodes from the right place (size $got)"
	else nok "$p: the GETATTR after the READ decodes from the right place" "got '$got'"; fi
	got=$(field 0x00005002 3)
	if [ "$got" = /export/some/where/target ]; then ok "$p: V1 NFSv3 READLINK: path back from the Write chunk"
	else nok "$p: V1 NFSv3 READLINK: path back from the Write chunk" "got '$got'"; fi
	got=$(field 0x00005004 4)
	if [ "$got" = ../target2 ]; then ok "$p: V2 NFSv4.1 READLINK: linktext back from the Write chunk"
	else nok "$p: V2 NFSv4.1 READLINK: linktext back from the Write chunk" "got '$got'"; fi
	# uncertain places: an expert info, and no RPC on a stream that would mis-decode
	for c in "0x00005006 length word differs" "0x00005007 layout of the result before the item is not known"; do
		xid=${c%% *} why=${c#* }
		line=$(awk -F'\t' -v x="$xid" '$1 == x && $2 == 1' "$T/ddp.all")
		case $line in
		*"cannot be put back: "*"$why"*)
			if [ "$(echo "$line" | cut -f3)" = "" ]; then ok "$p: $xid: '$why': expert info, not handed to RPC"
			else nok "$p: $xid: not handed to RPC" "$line"; fi ;;
		*) nok "$p: $xid: expert info says '$why'" "got: $line" ;;
		esac
	done
	line=$(awk -F'\t' '$1 == "0x00005008" && $2 == 1' "$T/ddp.all")
	case $line in
	*"call is not in the capture"*) ok "$p: reply whose call is missing: said so" ;;
	*) nok "$p: reply whose call is missing: said so" "got: $line" ;;
	esac
	got=$(field 0x00005009 2); exp=$(field 0x00005009 6)
	if [ "$got" = "$(printf '0%.0s' $(seq 8200))" ] && case $exp in *"0 of 4100 bytes in the capture"*) true ;; *) false ;; esac; then
		ok "$p: Writes not in the capture: length kept, data zero-filled and flagged"
	else nok "$p: Writes not in the capture: zero-filled and flagged" "got ${got:0:20}... '$exp'"; fi
	# issue 14: two connections between the same hosts, same XID, handles, offsets, PSNs
	got=$(field 0x0000500b 2 | tr '\n' ' ')
	want="$(hexof CONNECTION-ZERO: 3000) $(hexof CONNECTION-ONE: 3000) "
	if [ "$got" = "$want" ]; then ok "$p: two connections with the same handles and PSNs: each reply gets its own connection's data"
	else nok "$p: two connections with the same handles and PSNs keep their data apart" "got $(echo "$got" | cut -c1-60)"; fi
	got=$(ts $pass -r "$D" -Y "rpc.msgtyp == 0 && rpc.xid >= 0x6001" -T fields -e rpc.xid \
		-e infiniband.bth.destqp 2>/dev/null | tr '\t\n' ': ')
	if [ "$got" = "0x00006001:0x000012 0x00006002:0x000112 0x00006003:0x000012 0x00006004:0x000112 " ]; then
		ok "$p: two connections, interleaved two-packet Sends and Long Call reads with equal PSNs and handles: each call on its own connection"
	else nok "$p: two connections: interleaved Sends and Long Calls each on their own connection" "got: $got"; fi
	bad=$(ts $pass -r "$D" -Y "_ws.malformed" -T fields -e frame.number 2>/dev/null | wc -l)
	if [ "$bad" = 0 ]; then ok "$p: no malformed frame in the Write chunk capture"
	else nok "$p: no malformed frame in the Write chunk capture" "$bad frames"; fi
done
got=$(ts -r "$D" -o rpcrdma.chunk_memory_mb:0 -Y "rpc.xid == 0x5001 && rpc.msgtyp == 1" -T fields -e nfs.data -e _ws.expert.message 2>/dev/null)
case $got in
0000000000*"not kept"*"chunk_memory_mb"*) ok "memory limit 0: data zero-filled, flagged, the reply still decodes" ;;
*) nok "memory limit 0: data zero-filled and flagged" "got: ${got:0:60}" ;;
esac

# ---- real captures: every NFS READ reply shows its length and data ----
# (issue 13) NFSv3 and NFSv4.1, rxe and siw; the -reads- captures hold
# smaller READs (inline) and larger ones (data by RDMA Write into a Write
# chunk).  One tshark run per capture and pass: the READ replies and, for
# the second, the WRITE calls too; the same run gives the regression
# guard below its frames of the plugin's (-Y _ws.malformed: $b.gwith).
RW="(rpc.msgtyp == 1 && (nfs.procedure_v3 == 6 || nfs.opcode == 25)) || (rpc.msgtyp == 0 && (nfs.procedure_v3 == 7 || nfs.opcode == 38))"
# rw_split RW GWITH < the fields below: the frames -Y "$RW" selects (their
# fields as -T fields -e rpc.msgtyp -e frame.number -e nfs.count3 -e
# nfs.read.data_length -e nfs.data -e rpcrdma.write_chunk prints them) and
# those -Y _ws.malformed selects (-e frame.number -e _ws.malformed): a frame
# not of $RW is there by _ws.malformed; one of $RW also when _ws.malformed
# shows (the guard reads its text, "[Malformed Packet: ...]", in any case).
# $RW as awk: a field == v holds when any of its occurrences is v.
rw_split() {
	awk -F'\t' -v rw="$1" -v gw="$2" '
		BEGIN { printf "" >rw; printf "" >gw }
		function any(l, v,   a, n, i) { n = split(l, a, ","); for (i = 1; i <= n; i++) if (a[i] != "" && a[i] == v) return 1; return 0 }
		{ sel = (any($3, 1) && (any($4, 6) || any($5, 25))) || (any($3, 0) && (any($4, 7) || any($5, 38)))
		  if (sel) print $3 "\t" $1 "\t" $6 "\t" $7 "\t" $8 "\t" $9 >rw
		  if (!sel || $2 != "") print $1 "\t" $2 >gw }'
}
for c in "$TOP"/tests/captures/*.pcap "$TOP"/tests/captures/nohandshake/*.pcap; do
	b=$(basename "$c")
	cp "$c" "$T/$b" && chmod a+r "$T/$b"
	for pass in "" -2; do
		p=${pass:-one pass}
		ts $pass -r "$T/$b" -Y "_ws.malformed || $RW" -T fields -E occurrence=a -E aggregator=, \
			-e frame.number -e _ws.malformed -e rpc.msgtyp -e nfs.procedure_v3 -e nfs.opcode -e nfs.count3 \
			-e nfs.read.data_length -e nfs.data -e rpcrdma.write_chunk 2>/dev/null |
			rw_split "$T/rw" "$T/$b.gwith$pass"
		awk -F'\t' '$1 == 1' "$T/rw" | cut -f2- >"$T/reads"
		nr=$(wc -l <"$T/reads")
		[ "$nr" -gt 0 ] || continue
		bad=$(awk -F'\t' '($2 == "" && $3 == "") || length($4) != 2 * ($2 != "" ? $2 : $3) {print $1}' "$T/reads" | tr '\n' ' ')
		# smaller and larger than the 4 KiB inline threshold, a length not a
		# multiple of 4 (XDR padding); inline or by Write chunk (the Linux
		# client advertises a Write chunk for every READ of a page or more)
		sizes=$(awk -F'\t' '{ l = ($2 != "" ? $2 : $3) + 0; if ($5 == "") i++; else w++
			if (l < 4096) sm++; else if (l > 4096) lg++; if (l % 4) odd++ }
			END { printf "%d under 4096 bytes, %d over, %d unaligned; %d inline, %d by Write chunk", sm, lg, odd, i, w }' "$T/reads")
		case $b in
		*-reads-*) case $sizes in "0 under"* | *" 0 over"* | *" 0 unaligned"*) bad="$bad (a size class missing: $sizes)" ;; esac ;;
		esac
		if [ -z "$bad" ]; then ok "$b ($p): all $nr NFS READ replies show their length and that many bytes of data ($sizes)"
		else nok "$b ($p): every NFS READ reply shows its length and data" "frames: $bad"; fi
	done
	# two passes: what was read back is what was written (guest-nfs-rw.sh):
	# every byte of every WRITE call's data comes back in the READ replies,
	# in one READ (6.1, 6.12) or in pieces (7.2 reads a 128 KiB file back
	# in five READs of 16 and 32 KiB: docs/kernels.md, 7.3); a piece counts
	# where it sits in the written data, at a whole byte
	nw=$(awk -F'\t' '$1 == 0 && $5 != ""' "$T/rw" | wc -l)
	if [ "$nw" -gt 0 ]; then
		missing=$(awk -F'\t' '$1 == 0 && $5 != "" { w[++nw] = $5 } $1 == 1 && $5 != "" { r[++nr] = $5 }
			END { m = 0
			      for (i = 1; i <= nw; i++) {
				delete c
				for (j = 1; j <= nr; j++)
					if ((p = index(w[i], r[j])) > 0 && p % 2 == 1)
						for (k = p; k < p + length(r[j]); k += 2) c[k] = 1
				for (k = 1; k <= length(w[i]); k += 2) if (!(k in c)) { m++; break }
			      }
			      print m }' "$T/rw")
		if [ "$missing" = 0 ]; then ok "$b: the data of each WRITE call comes back in the READ replies ($nw WRITEs)"
		else nok "$b: the data of each WRITE call comes back in the READ replies" "$missing WRITEs not covered"; fi
	fi
done
for b in nfs3-reads-rocev2-rxe.pcap nfs41-reads-iwarp-siw.pcap; do
	[ -f "$T/$b" ] || continue
	got=$(ts -r "$T/$b" -Y "rpc.msgtyp == 1 && (nfs.readlink.data || nfs.symlink.linktext)" -T fields \
		-e nfs.readlink.data -e nfs.symlink.linktext 2>/dev/null | tr -d '\t' | head -1)
	case $got in
	../some/where/*/target-of-a-symbolic-link) ok "$b: READLINK reply shows the link's target" ;;
	*) nok "$b: READLINK reply shows the link's target" "got '$got'" ;;
	esac
done

# ---- regression guard: never worse than the built-in ----
# On every test capture, in one pass and in two: no frame that tshark
# without our plugin decodes with neither a malformed nor an error-level
# expert info may be [Malformed Packet] with it (a dissector exception).
# The plugin's own verdicts on faulty headers (bad_discriminant, ...: expert
# infos of the Malformed group, on bytes the built-in does not decode at
# all) are counted apart.  The built-in's view is read, in one pass (it
# judges which frames decode cleanly; a frame that only its second pass
# would find malformed can only make this guard fail, never hide a
# plugin's exception), for a capture in which the plugin has a [Malformed
# Packet] frame, once, and kept for the other pass: a capture with none
# cannot be worse, and its built-in run (some 75 tshark starts in all) was
# most of this suite's time while the plugin had none anywhere.
caps=$(ls "$BUILD"/captures/*.pcap "$BUILD"/captures/*.pcapng "$TOP"/tests/captures/*.pcap \
	"$TOP"/tests/captures/*/*.pcap "$TOP"/tests/oracle/regress/*.pcap 2>/dev/null)
"$BUILD/plugin-test/mkpcap" "$T/fx.pcap" && chmod a+r "$T/fx.pcap"
for pass in "" -2; do
	p=${pass:-one pass}
	ours=0 ncap=0 nmal=0 worse="" verdicts=0 baseline=0
	nreal=0 realmal=""
	for c in $caps "$T/fx.pcap" "$D"; do
		b=$(basename "$c")
		[ -f "$T/$b" ] || { cp "$c" "$T/$b" && chmod a+r "$T/$b"; }
		# the plugin's view (the READ checks' run of the real captures
		# gave it); a file tshark cannot read at all is not counted
		if [ -f "$T/$b.gwith$pass" ]; then cp "$T/$b.gwith$pass" "$T/g.with"
		elif ! ts $pass -r "$T/$b" -Y _ws.malformed -T fields -E occurrence=a -E aggregator=, \
			-e frame.number -e _ws.malformed 2>/dev/null >"$T/g.with" && [ ! -s "$T/g.with" ] &&
			! ts $pass -r "$T/$b" -c 1 -T fields -e frame.number >/dev/null 2>&1; then
			continue
		fi
		ncap=$((ncap + 1))
		grep 'Malformed Packet' "$T/g.with" | cut -f1 | sort >"$T/g.ours"
		verdicts=$((verdicts + $(grep -vc 'Malformed Packet' "$T/g.with")))
		ours=$((ours + $(wc -l <"$T/g.ours")))
		if [ -s "$T/g.ours" ]; then
			nmal=$((nmal + 1))
			if [ ! -f "$T/$b.gplain" ]; then
				ts_plain -r "$T/$b" -T fields -E occurrence=a -E aggregator=, \
					-e frame.number -e _ws.malformed -e _ws.expert.severity >"$T/$b.gplain" 2>/dev/null
				baseline=$((baseline + 1))
			fi
			awk -F'\t' '$2 == "" && $3 !~ /8388608/ {print $1}' "$T/$b.gplain" | sort >"$T/g.clean"
			w=$(comm -12 "$T/g.clean" "$T/g.ours" | sort -n | tr '\n' ' ')
			[ -n "$w" ] && worse="$worse $b: $w;"
		fi
		# the real NFS captures (issue 13): no [Malformed Packet] at all
		case $c in
		"$TOP"/tests/captures/crafted/*) ;;
		"$TOP"/tests/captures/*)
			nreal=$((nreal + 1))
			[ -s "$T/g.ours" ] && realmal="$realmal $b: $(sort -n "$T/g.ours" | tr '\n' ' ');" ;;
		esac
	done
	if [ "$nreal" -gt 0 ] && [ -z "$realmal" ]; then
		ok "real captures ($p): no [Malformed Packet] with the plugin in $nreal captures of tests/captures/"
	elif [ "$nreal" -gt 0 ]; then nok "real captures ($p): no [Malformed Packet] with the plugin" "$realmal"; fi
	summary="$ncap captures: $ours [Malformed Packet] frames with the plugin, in $nmal captures, each set against the built-in's one-pass view ($baseline read in this pass): $( [ -z "$worse" ] && echo 0 || echo "$worse" | grep -o '[0-9]\+ ' | wc -l) of them decoded cleanly by it; $verdicts frames with a faulty header flagged by the plugin"
	echo "# regression guard ($p): $summary"
	if [ "$ncap" -gt 0 ] && [ -z "$worse" ]; then ok "regression guard ($p): $summary"
	else nok "regression guard ($p): no frame the built-in decodes cleanly is malformed with the plugin" "${worse:-no capture read}"; fi
done
echo "1..$n"
