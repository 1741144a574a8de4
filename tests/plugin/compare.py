#!/usr/bin/env python3
"""compare.py - field-for-field comparison of the plugin's tshark fields with rpcrdma-decode --json, or with the built-in rpcordma.

  compare.py json  PLUGIN.tsv DECODE.jsonl [EXCLUDE]
                                             plugin vs rpcrdma-decode (every frame
                                             but those listed in EXCLUDE), one
                                             message per frame
  compare.py msgs  PLUGIN.pdml DECODE.jsonl [CRC_BAD [SKIPPED]]
                                             the same message by message: every
                                             rpcrdma protocol item of
                                             `tshark -T pdml -J rpcrdma`, in
                                             order, against the JSON lines of
                                             its frame (iWARP frames carry
                                             several Sends); frames the pdml
                                             lists without an rpcrdma item:
                                             Wireshark handed the plugin nothing
                                             there.  Left out and counted: the
                                             CRC_BAD frames, snaplen-cut ones,
                                             retransmissions of either, and
                                             messages in frames the pdml does
                                             not list (e.g. iWARP without its
                                             MPA handshake); all those frames
                                             written to SKIPPED
  compare.py conn PLUGIN.tsv DECODE.jsonl    the plugin's rpcrdma.cm.* (RFC 8797
                                             private data) against the
                                             {"type":"connection"} records:
                                             the responder's in the record's
                                             frame (CM REP, MPA Reply), the
                                             requester's in the one before
  compare.py builtin PLUGIN.tsv BUILTIN.tsv  plugin vs rpcordma (accepted v1 frames)
  compare.py spec PLUGIN.tsv SPEC.jsonl       plugin vs fx_expect.py (a second
                                             decoder from the drafts' XDR): the
                                             keys SPEC states, the same frames
  compare.py experts PLUGIN.pdml [TSV EXP]   every rpcrdma.expert.NAME item's
                                             message starts with "NAME: ";
                                             TSV, EXP: the plugin's fields
                                             and expert messages as -T fields
                                             (check_experts)

PLUGIN.tsv is `tshark -T fields -E occurrence=a -E aggregator=,` with the
fields in PLUGIN_FIELDS order; BUILTIN.tsv likewise with BUILTIN_FIELDS.
Prints one line per disagreement and a summary; exits 1 on any, and when
nothing was compared ("0 frames compared").
"""
import json
import os
import sys
import xml.etree.ElementTree as ET
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
from jsonhex import unhex  # noqa: E402

PLUGIN_FIELDS = [
    "frame.number", "rpcrdma.xid", "rpcrdma.vers", "rpcrdma.credits",
    "rpcrdma.proc", "rpcrdma.direction", "rpcrdma.read_list",
    "rpcrdma.position", "rpcrdma.write_list", "rpcrdma.write_chunk",
    "rpcrdma.reply_chunk", "rpcrdma.segment.handle", "rpcrdma.segment.length",
    "rpcrdma.segment.offset", "rpcrdma.err", "rpcrdma.vers_low",
    "rpcrdma.vers_high", "rpcrdma.optdir", "rpcrdma.opttype",
    "rpcrdma.optinfo_len", "rpcrdma.verdict.action", "rpcrdma.verdict.reason",
    "rpcrdma.verdict.note", "rpcrdma.backward", "rpcrdma.draft",
    # RFC 8797 connection private data (CM REQ/REP, MPA Request/Reply)
    "rpcrdma.cm.magic", "rpcrdma.cm.version", "rpcrdma.cm.remote_invalidate",
    "rpcrdma.cm.send_size", "rpcrdma.cm.recv_size",
]
BUILTIN_FIELDS = [
    "frame.number", "rpcordma.xid", "rpcordma.version",
    "rpcordma.flow_control", "rpcordma.msg_type", "rpcordma.position",
    "rpcordma.rdma_handle", "rpcordma.rdma_length", "rpcordma.rdma_offset",
    "rpcordma.errcode", "rpcordma.vers_low", "rpcordma.vers_high",
]
DIRS = {0: "call", 1: "reply"}
NOTES = []      # said after the summary



def ints(s):
    return [int(x, 0) for x in s.split(",")] if s else []


def one(s):
    v = ints(s)
    return v[0] if v else None


def read_tsv(path, names):
    rows = {}
    with open(path) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            cols += [""] * (len(names) - len(cols))
            r = dict(zip(names, cols))
            if r[names[0]]:
                rows[int(r[names[0]])] = r
    return rows


def plugin_view(r):
    """The plugin's row in rpcrdma-decode's JSON shape."""
    if not r["rpcrdma.verdict.action"]:
        return None                      # a Send fragment, no message
    v = {"xid": one(r["rpcrdma.xid"]), "vers": one(r["rpcrdma.vers"]),
         "credits": one(r["rpcrdma.credits"]), "proc": one(r["rpcrdma.proc"])}
    d = one(r["rpcrdma.direction"])
    v["direction"] = DIRS.get(d) if d is not None else None
    pos = ints(r["rpcrdma.position"])
    h, ln, off = (ints(r["rpcrdma.segment." + k])
                  for k in ("handle", "length", "offset"))
    segs = [{"handle": a, "length": b, "offset": c}
            for a, b, c in zip(h, ln, off)]
    nreads = one(r["rpcrdma.read_list"])
    if nreads is not None:
        v["reads"] = [dict(position=p, **s) for p, s in zip(pos, segs[:nreads])]
        segs = segs[nreads:]
    if one(r["rpcrdma.write_list"]) is not None:
        chunks = []
        for n in ints(r["rpcrdma.write_chunk"]):
            chunks.append(segs[:n])
            segs = segs[n:]
        v["writes"] = chunks
    if r["rpcrdma.reply_chunk"]:
        v["reply"] = segs[:one(r["rpcrdma.reply_chunk"])]
    if r["rpcrdma.err"]:
        v["error"] = {"code": one(r["rpcrdma.err"]),
                      "low": one(r["rpcrdma.vers_low"]),
                      "high": one(r["rpcrdma.vers_high"])}
    if r["rpcrdma.optdir"]:
        v["optional"] = {"direction": DIRS.get(one(r["rpcrdma.optdir"])),
                         "type": one(r["rpcrdma.opttype"]),
                         "info_length": one(r["rpcrdma.optinfo_len"])}
    v["verdict"] = {"action": r["rpcrdma.verdict.action"],
                    "reason": r["rpcrdma.verdict.reason"]}
    v["notes"] = sorted(x for x in r["rpcrdma.verdict.note"].split(",") if x)
    if r["rpcrdma.backward"] != "":
        v["backward"] = r["rpcrdma.backward"] in ("1", "True", "true")
    if r["rpcrdma.draft"]:
        v["draft"] = r["rpcrdma.draft"]
    return v


def json_view(o):
    v = {k: o.get(k) for k in ("xid", "vers", "credits", "proc", "direction")}
    for k in ("reads", "writes"):
        if o.get(k) is not None:
            v[k] = o[k]
    if o.get("reply") is not None:
        v["reply"] = o["reply"]
    if o.get("error"):
        e = o["error"]
        v["error"] = {"code": e.get("code"), "low": e.get("low"),
                      "high": e.get("high")}
    if o.get("optional"):
        p = o["optional"]
        v["optional"] = {"direction": p.get("direction"),
                         "type": p.get("type"),
                         "info_length": p.get("info_length")}
    v["verdict"] = {"action": o["verdict"]["action"],
                    "reason": o["verdict"]["reason"]}
    v["notes"] = sorted(o.get("notes") or [])
    if "backward" in o:
        v["backward"] = bool(o["backward"])
    if o.get("draft"):
        v["draft"] = o["draft"]
    if "reads" in v:
        v["reads"] = [{k: s[k] for k in ("position", "handle", "length",
                                          "offset")} for s in v["reads"]]
    return v


def diff(frame, a, b, out):
    for k in sorted(set(a) | set(b)):
        if k == "backward" and k not in b:   # mkpcap's expect files
            continue
        if a.get(k) != b.get(k):
            out.append("frame %d: %s: plugin=%s decode=%s"
                       % (frame, k, json.dumps(a.get(k)),
                          json.dumps(b.get(k))))


def cmp_json(tsv, jsonl, exclude=None):
    mine = {f: plugin_view(r) for f, r in read_tsv(tsv, PLUGIN_FIELDS).items()}
    mine = {f: v for f, v in mine.items() if v is not None}
    theirs = {}
    with open(jsonl) as f:
        for line in f:
            if line.strip():
                o = unhex(json.loads(line))
                if "frame" in o and "type" not in o:   # not a record
                    theirs[o["frame"]] = json_view(o)
    skip = set()
    if exclude:
        with open(exclude) as f:
            skip = {int(x) for x in f.read().split()}
    bad = []
    for fr in sorted((set(mine) | set(theirs)) - skip):
        if fr not in mine:
            bad.append("frame %d: decoded by rpcrdma-decode, not claimed by "
                       "the plugin" % fr)
        elif fr not in theirs:
            bad.append("frame %d: claimed by the plugin, absent from "
                       "rpcrdma-decode" % fr)
        else:
            diff(fr, mine[fr], theirs[fr], bad)
    return len((set(mine) | set(theirs)) - skip), bad


class Pdml:
    """what `tshark -T pdml -J rpcrdma` says of each frame it lists"""
    def __init__(self):
        self.msgs = {}      # frame -> [plugin_view of each message item]
        self.listed = set() # every frame listed
        self.cut = set()    # frames cut by the snap length
        self.retx = {}      # frame -> the frame it retransmits


def read_pdml(path):
    p = Pdml()
    for _, pkt in ET.iterparse(path):
        if pkt.tag != "packet":
            continue
        num = None
        for proto in pkt.findall("proto"):
            if proto.get("name") == "geninfo":
                g = {f.get("name"): int(f.get("show"))
                     for f in proto.findall("field")
                     if f.get("name") in ("num", "len", "caplen")}
                num = g.get("num")
                if num is None:
                    continue
                # the pdml also lists frames with rpcrdma.cm alone (iWARP
                # MPA Request/Reply): handed to the plugin are those with
                # one of these protocols
                if any(x.get("name") in ("rpcrdma", "infiniband",
                                         "iwarp_ddp_rdmap")
                       for x in pkt.iter("proto")):
                    p.listed.add(num)
                    if g.get("caplen", 0) < g.get("len", 0):
                        p.cut.add(num)
            if proto.get("name") != "rpcrdma" or num is None:
                continue
            row = {k: "" for k in PLUGIN_FIELDS}
            for f in proto.iter("field"):
                k = f.get("name")
                if k in row:
                    row[k] = (row[k] + "," if row[k] else "") + f.get("show", "")
                elif k == "rpcrdma.retransmission_of":
                    p.retx[num] = int(f.get("show"))
            v = plugin_view(row)
            if v is not None:
                p.msgs.setdefault(num, []).append(v)
        pkt.clear()
    return p


def cmp_msgs(pdml, jsonl, crc_bad=None, skipped_out=None):
    """Out of the comparison, counted: frames rpcrdma-decode dropped as
    corrupt at the link layer (CRC_BAD: bad ICRC or MPA CRC, which
    Wireshark 4.0 does not verify, so the plugin is handed them), frames
    cut by the snap length (Wireshark's InfiniBand dissector stops at them
    and calls no heuristic), the plugin's retransmissions of either (it saw
    the corrupt copy first), and messages in frames Wireshark does not hand
    the plugin at all.  SKIPPED_OUT: all those frames, one a line."""
    p = read_pdml(pdml)
    mine = p.msgs
    theirs = {}
    with open(jsonl) as f:
        for line in f:
            if line.strip():
                o = unhex(json.loads(line))
                if "frame" in o and "type" not in o:   # not a record
                    theirs.setdefault(o["frame"], []).append(json_view(o))
    bad_crc = set()
    if crc_bad:
        with open(crc_bad) as f:
            bad_crc = {int(x) for x in f.read().split()}
    cut = p.cut - bad_crc
    retx = {f for f, orig in p.retx.items() if orig in bad_crc | cut}
    skip = bad_crc | cut | retx
    undelivered = {fr for fr in set(theirs) - skip if fr not in p.listed}
    if skipped_out:
        with open(skipped_out, "w") as f:
            f.write("".join("%d\n" % x for x in sorted(skip | undelivered)))
    for k, what in ((bad_crc, "CRC-corrupt frames"),
                    (cut, "snaplen-cut frames"),
                    (retx, "retransmissions of them")):
        if k:
            NOTES.append("%d %s excluded" % (len(k), what))
    if undelivered:
        NOTES.append("%d messages of rpcrdma-decode in %d frames Wireshark "
                     "does not hand to the plugin (first: frame %d)"
                     % (sum(len(theirs[f]) for f in undelivered),
                        len(undelivered), min(undelivered)))
    bad, n = [], 0
    for fr in sorted((set(mine) | set(theirs)) - skip - undelivered):
        a, b = mine.get(fr, []), theirs.get(fr, [])
        n += max(len(a), len(b))
        if len(a) != len(b):
            bad.append("frame %d: %d messages from the plugin, %d from "
                       "rpcrdma-decode" % (fr, len(a), len(b)))
        for x, y in zip(a, b):
            diff(fr, x, y, bad)
    return n, bad


def pdml_rows(pkt):
    """what `-T fields` says of a pdml packet: (frame, has an rpcrdma item,
    has rpcrdma.cm, {field: [shows in tree order]}) for PLUGIN_FIELDS and
    _ws.expert.message (the fields of the protocols -J lists)"""
    num, has_rpcrdma, has_cm = None, False, False
    vals = {k: [] for k in PLUGIN_FIELDS[1:] + ["_ws.expert.message"]}
    for el in pkt.iter():
        name = el.get("name")
        if el.tag == "proto" and name == "rpcrdma":
            has_rpcrdma = True
        elif el.tag == "field":
            if name == "num" and num is None:
                num = el.get("show")
            elif name == "rpcrdma.cm":
                has_cm = True
            if name in vals:
                vals[name].append(el.get("show", ""))
    return num, has_rpcrdma, has_cm, vals


def check_experts(pdml, tsv_out=None, exp_out=None):
    """TSV_OUT: the PLUGIN_FIELDS of every frame with an rpcrdma item or
    rpcrdma.cm, as `tshark -Y "rpcrdma || rpcrdma.cm" -T fields -E
    occurrence=a -E aggregator=,` would print them; EXP_OUT: frame number
    and expert messages of every frame with an rpcrdma item (as `-Y rpcrdma
    -e frame.number -e _ws.expert.message`), both from the pdml of
    plugin_pdml (one tshark run instead of three)"""
    n, bad = 0, []
    tsv = open(tsv_out, "w") if tsv_out else None
    exp = open(exp_out, "w") if exp_out else None
    for _, el in ET.iterparse(pdml):
        name = el.get("name") or ""
        if el.tag == "field" and name.startswith("rpcrdma.expert."):
            n += 1
            short = name[len("rpcrdma.expert."):]
            text = el.get("showname") or ""
            if not text.startswith(short + ": "):
                bad.append("%s: %s" % (name, text))
        elif el.tag == "packet":
            if tsv or exp:
                num, has_rpcrdma, has_cm, vals = pdml_rows(el)
                if tsv and (has_rpcrdma or has_cm):
                    tsv.write("\t".join([num] + [",".join(vals[k]) for k in
                                                 PLUGIN_FIELDS[1:]]) + "\n")
                if exp and has_rpcrdma:
                    exp.write("%s\t%s\n" % (num, ",".join(
                        vals["_ws.expert.message"])))
            el.clear()
    for f in (tsv, exp):
        if f:
            f.close()
    return n, bad


def conn_view(r):
    """a plugin row's RFC 8797 fields in rpcrdma-decode's shape"""
    if not r["rpcrdma.cm.send_size"]:
        return None
    return {"rfc8797": one(r["rpcrdma.cm.magic"]) == 0xf6ab0e18,
            "version": one(r["rpcrdma.cm.version"]),
            "remote_invalidate": r["rpcrdma.cm.remote_invalidate"] in
            ("1", "True", "true"),
            "max_send_size": one(r["rpcrdma.cm.send_size"]),
            "max_recv_size": one(r["rpcrdma.cm.recv_size"])}


def cmp_conn(tsv, jsonl):
    rows = {f: conn_view(r) for f, r in read_tsv(tsv, PLUGIN_FIELDS).items()}
    rows = {f: v for f, v in rows.items() if v is not None}
    recs = []
    with open(jsonl) as f:
        for line in f:
            if line.strip():
                o = json.loads(line)
                if o.get("type") == "connection":
                    recs.append(o)
    bad, n, used = [], 0, set()
    for rec in sorted(recs, key=lambda o: o["frame"]):
        fr = rec["frame"]
        for end in ("responder", "requester"):
            pd = (rec.get(end) or {}).get("private_data")
            if not pd or not pd.get("rfc8797"):
                continue
            want = {k: pd.get(k) for k in ("rfc8797", "version",
                                           "remote_invalidate",
                                           "max_send_size", "max_recv_size")}
            if end == "responder":
                at = fr if fr in rows else None
            else:
                at = max((f for f in rows if f < fr and f not in used),
                         default=None)
            n += 1
            if at is None or at in used:
                bad.append("connection of frame %d: the %s's private data "
                           "is not shown by the plugin" % (fr, end))
                continue
            used.add(at)
            if rows[at] != want:
                bad.append("frame %d (%s): plugin=%s decode=%s"
                           % (at, end, json.dumps(rows[at]),
                              json.dumps(want)))
    for f in sorted(set(rows) - used):
        bad.append("frame %d: private data shown by the plugin, in no "
                   "connection record of rpcrdma-decode" % f)
    NOTES.append("%d connection records" % len(recs))
    return n, bad


def cmp_builtin(tsv, builtin_tsv):
    mine = read_tsv(tsv, PLUGIN_FIELDS)
    theirs = read_tsv(builtin_tsv, BUILTIN_FIELDS)
    bad, n = [], 0
    for fr, r in sorted(mine.items()):
        if one(r["rpcrdma.vers"]) != 1 or r["rpcrdma.verdict.action"] != "accept":
            continue
        n += 1
        b = theirs.get(fr)
        if b is None:
            bad.append("frame %d: v1 message not shown by rpcordma" % fr)
            continue
        pairs = [("xid", "rpcrdma.xid", "rpcordma.xid"),
                 ("vers", "rpcrdma.vers", "rpcordma.version"),
                 ("credits", "rpcrdma.credits", "rpcordma.flow_control"),
                 ("proc", "rpcrdma.proc", "rpcordma.msg_type"),
                 ("position", "rpcrdma.position", "rpcordma.position"),
                 ("handle", "rpcrdma.segment.handle", "rpcordma.rdma_handle"),
                 ("length", "rpcrdma.segment.length", "rpcordma.rdma_length"),
                 ("offset", "rpcrdma.segment.offset", "rpcordma.rdma_offset"),
                 ("err", "rpcrdma.err", "rpcordma.errcode"),
                 ("vers_low", "rpcrdma.vers_low", "rpcordma.vers_low"),
                 ("vers_high", "rpcrdma.vers_high", "rpcordma.vers_high")]
        for name, ours, built in pairs:
            if ints(r[ours]) != ints(b[built]):
                bad.append("frame %d: %s: plugin=%s rpcordma=%s"
                           % (fr, name, r[ours], b[built]))
    return n, bad


def cmp_spec(tsv, spec):
    """the plugin against fx_expect.py's independent decode: every key the
    expectation states, frame for frame, and the same set of frames"""
    mine = {f: plugin_view(r) for f, r in read_tsv(tsv, PLUGIN_FIELDS).items()}
    mine = {f: v for f, v in mine.items() if v is not None}
    want = {}
    with open(spec) as f:
        for line in f:
            if line.strip():
                o = json.loads(line)
                want[o.pop("frame")] = o
    bad = []
    for fr in sorted(set(mine) | set(want)):
        if fr not in mine:
            bad.append("frame %d: a message by the spec's XDR, not claimed by "
                       "the plugin" % fr)
        elif fr not in want:
            bad.append("frame %d: claimed by the plugin, no message by the "
                       "spec's XDR" % fr)
        else:
            for k in sorted(want[fr]):
                if mine[fr].get(k) != want[fr][k]:
                    bad.append("frame %d: %s: plugin=%s spec=%s"
                               % (fr, k, json.dumps(mine[fr].get(k)),
                                  json.dumps(want[fr][k])))
    return len(set(mine) | set(want)), bad


def serve(req, resp):
    """compare.py serve REQ RESP: one python for all the calls of a suite
    (tests/plugin/lib.sh pyc; python's start-up was a tenth of a CPU-second
    a call, a call per check and capture): each line of the FIFO REQ is a
    call's arguments, tab-separated (compare.py's, or "stats" and
    stats.py's); to the FIFO RESP go what it prints, stdout and stderr,
    and a line "\\x01END <exit status>".  Every call starts afresh (NOTES)."""
    import contextlib
    import io
    import traceback
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import stats
    rf = open(req)
    wf = open(resp, "w")
    for line in rf:
        args = line.rstrip("\n").split("\t")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            NOTES.clear()
            try:
                if args[0] == "stats":
                    sys.argv = ["stats.py"] + args[1:]
                    rc = stats.main()
                else:
                    sys.argv = ["compare.py"] + args
                    rc = main()
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else 1
            except Exception:
                traceback.print_exc()
                rc = 1
        out = buf.getvalue()
        if out and not out.endswith("\n"):
            out += "\n"
        wf.write(out + "\x01END %d\n" % (rc or 0))
        wf.flush()
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "serve":
        return serve(sys.argv[2], sys.argv[3])
    modes = {"json": cmp_json, "msgs": cmp_msgs, "builtin": cmp_builtin,
             "experts": check_experts, "conn": cmp_conn, "spec": cmp_spec}
    if len(sys.argv) not in (3, 4, 5, 6) or sys.argv[1] not in modes:
        sys.stderr.write(__doc__)
        return 2
    n, bad = modes[sys.argv[1]](*sys.argv[2:])
    for b in bad[:50]:
        print(b)
    print("; ".join(["%d %s compared, %d disagreements"
                     % (n, {"msgs": "messages", "experts": "expert infos",
                            "conn": "private data blocks"}.get(
                         sys.argv[1], "frames"), len(bad))] + NOTES))
    # nothing compared is no agreement: a failure (the caller says when
    # an empty capture is expected)
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
