/* fields.c - the plugin's protocol, header fields (rpcrdma.*) and subtrees. */
#include "rpcrdma_plugin.h"

#include <string.h>

int proto_rpcrdma = -1;
struct rpcrdma_hf rpcrdma_hf;
struct rpcrdma_ett rpcrdma_ett;

/* RFC 5531 msg_type; also V2 rdma_direction and rdma_optdir */
static const value_string direction_vals[] = {
	{ 0, "CALL" },
	{ 1, "REPLY" },
	{ 0, NULL },
};

#define HF(id, name, abbrev, type, base, vals, blurb) \
	{ &rpcrdma_hf.id, { name, abbrev, type, base, vals, 0x0, blurb, HFILL } }
/* handle, length and offset of the segments of one list */
#define SEGF(L, abbrev, what) \
	HF(seg_handle[RPCRDMA_LIST_##L], "Handle", "rpcrdma." abbrev ".handle", \
	   FT_UINT32, BASE_HEX, NULL, "rdma_handle of a " what " segment"), \
	HF(seg_length[RPCRDMA_LIST_##L], "Length", "rpcrdma." abbrev ".length", \
	   FT_UINT32, BASE_DEC, NULL, "rdma_length of a " what " segment"), \
	HF(seg_offset[RPCRDMA_LIST_##L], "Offset", "rpcrdma." abbrev ".offset", \
	   FT_UINT64, BASE_HEX, NULL, "rdma_offset of a " what " segment")

void rpcrdma_register_fields(void)
{
	static hf_register_info hf[] = {
		HF(xid, "XID", "rpcrdma.xid", FT_UINT32, BASE_HEX, NULL,
		   "rdma_xid (V1 5.1.3, V2 4.2)"),
		HF(vers, "Version", "rpcrdma.vers", FT_UINT32, BASE_DEC, NULL,
		   "rdma_vers"),
		HF(credits, "Credits", "rpcrdma.credits", FT_UINT32, BASE_DEC,
		   NULL, "rdma_credit: credits requested or granted (V1 4.3.1)"),
		HF(proc, "Procedure", "rpcrdma.proc", FT_UINT32, BASE_DEC, NULL,
		   "rdma_proc (V1 5.1.2, V2 4.2)"),
		HF(direction, "Direction", "rpcrdma.direction", FT_UINT32,
		   BASE_DEC, VALS(direction_vals),
		   "rdma_direction (V2), or the RPC msg_type (V1)"),
		HF(read_list, "Read list", "rpcrdma.read_list", FT_UINT32,
		   BASE_DEC, NULL, "Number of read segments"),
		HF(write_list, "Write list", "rpcrdma.write_list", FT_UINT32,
		   BASE_DEC, NULL, "Number of write chunks"),
		HF(write_chunk, "Write chunk", "rpcrdma.write_chunk", FT_UINT32,
		   BASE_DEC, NULL, "Number of segments in a write chunk"),
		HF(reply_chunk, "Reply chunk", "rpcrdma.reply_chunk", FT_UINT32,
		   BASE_DEC, NULL, "Number of segments in the reply chunk"),
		HF(seg[RPCRDMA_LIST_READ], "Read segment", "rpcrdma.read_segment",
		   FT_NONE, BASE_NONE, NULL, "A read list entry"),
		HF(seg[RPCRDMA_LIST_WRITE], "Write segment",
		   "rpcrdma.write_segment", FT_NONE, BASE_NONE, NULL,
		   "A segment of a write chunk"),
		HF(seg[RPCRDMA_LIST_REPLY], "Reply segment",
		   "rpcrdma.reply_segment", FT_NONE, BASE_NONE, NULL,
		   "A segment of the reply chunk"),
		SEGF(READ, "read_segment", "read list"),
		SEGF(WRITE, "write_segment", "write chunk"),
		SEGF(REPLY, "reply_segment", "reply chunk"),
		HF(segment, "Segment", "rpcrdma.segment", FT_NONE, BASE_NONE,
		   NULL, "Any segment, in wire order (hidden)"),
		HF(position, "Position", "rpcrdma.position", FT_UINT32, BASE_DEC,
		   NULL, "rdma_position: XDR position of a read chunk"),
		HF(handle, "Handle", "rpcrdma.segment.handle", FT_UINT32,
		   BASE_HEX, NULL, "rdma_handle of any segment (hidden)"),
		HF(length, "Length", "rpcrdma.segment.length", FT_UINT32,
		   BASE_DEC, NULL, "rdma_length of any segment (hidden)"),
		HF(offset, "Offset", "rpcrdma.segment.offset", FT_UINT64,
		   BASE_HEX, NULL, "rdma_offset of any segment (hidden)"),
		HF(backward, "Backward direction", "rpcrdma.backward",
		   FT_BOOLEAN, BASE_NONE, NULL,
		   "A call from the server or a reply from the client "
		   "(BIDI 2.4): the endpoint that sent the first call of the "
		   "connection is the client"),
		HF(err, "Error", "rpcrdma.err", FT_UINT32, BASE_DEC, NULL,
		   "rdma_err"),
		HF(vers_low, "Lowest version", "rpcrdma.vers_low", FT_UINT32,
		   BASE_DEC, NULL, "rdma_vers_low"),
		HF(vers_high, "Highest version", "rpcrdma.vers_high", FT_UINT32,
		   BASE_DEC, NULL, "rdma_vers_high"),
		HF(optdir, "Option direction", "rpcrdma.optdir", FT_UINT32,
		   BASE_DEC, VALS(direction_vals), "rdma_optdir (V2 4.2.3)"),
		HF(opttype, "Option type", "rpcrdma.opttype", FT_UINT32,
		   BASE_DEC, NULL, "rdma_opttype (V2 4.2.3)"),
		HF(optinfo_len, "Option info length", "rpcrdma.optinfo_len",
		   FT_UINT32, BASE_DEC, NULL, NULL),
		HF(optinfo, "Option info", "rpcrdma.optinfo", FT_BYTES,
		   BASE_NONE, NULL, "rdma_optinfo"),
		HF(header_len, "Header length", "rpcrdma.header_length",
		   FT_UINT32, BASE_DEC, NULL, "Transport header stream"),
		HF(payload_len, "Payload length", "rpcrdma.payload_length",
		   FT_UINT32, BASE_DEC, NULL, "Bytes after the transport header"),
		HF(action, "Receiver action", "rpcrdma.verdict.action",
		   FT_STRING, BASE_NONE, NULL, "What a receiver must do"),
		HF(reason, "Reason", "rpcrdma.verdict.reason", FT_STRING,
		   BASE_NONE, NULL, "Why (docs/verdicts.md)"),
		HF(note, "Note", "rpcrdma.verdict.note", FT_STRING, BASE_NONE,
		   NULL, "A non-fatal observation (docs/verdicts.md Notes)"),
		HF(draft, "Version Two draft", "rpcrdma.draft", FT_STRING,
		   BASE_NONE, NULL, "The draft family a Version Two message "
		   "was read as: cel-01 (decoded), or a later family it fits "
		   "(not decoded; docs/v2-drafts.md)"),
		HF(rpc_xid, "RPC XID", "rpcrdma.rpc_xid", FT_UINT32, BASE_HEX,
		   NULL, "First word of the payload stream"),
		HF(chunk_frames, "Data in frame", "rpcrdma.chunk_frame",
		   FT_FRAMENUM, BASE_NONE, NULL,
		   "A frame that moved chunk data (hidden; one per frame)"),
		HF(chunk_frame_list, "Data in frames", "rpcrdma.chunk_frames",
		   FT_STRING, BASE_NONE, NULL,
		   "The frames that moved a chunk's data, as ranges"),
		HF(reasm_len, "Reassembled length", "rpcrdma.reassembled.length",
		   FT_UINT32, BASE_DEC, NULL, "RPC message rebuilt from chunks"),
		HF(reasm_from, "Reassembled", "rpcrdma.reassembled", FT_NONE,
		   BASE_NONE, NULL, NULL),
		HF(retx_of, "Retransmission of", "rpcrdma.retransmission_of",
		   FT_FRAMENUM, BASE_NONE, NULL,
		   "The frame that first carried this Send packet (same PSN)"),
	};
	static int *ett[] = {
		&rpcrdma_ett.top, &rpcrdma_ett.read_list,
		&rpcrdma_ett.read_segment, &rpcrdma_ett.write_list,
		&rpcrdma_ett.write_chunk, &rpcrdma_ett.reply_chunk,
		&rpcrdma_ett.segment, &rpcrdma_ett.reasm, &rpcrdma_ett.frames,
	};

	/* ids start at -1: all bits set is -1 for every int member */
	memset(&rpcrdma_hf, 0xff, sizeof rpcrdma_hf);
	memset(&rpcrdma_ett, 0xff, sizeof rpcrdma_ett);
	proto_rpcrdma = proto_register_protocol(
		"RPC-over-RDMA (Versions One and Two)", "RPC-over-RDMA",
		"rpcrdma");
	proto_register_field_array(proto_rpcrdma, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
}
