/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs3_tree.h - the small tree rpcrdma-conform --requester
 * exports as "/": computed, not stored (no allocation, no global state),
 * so every byte and attribute is a pure function of the file and the same
 * in every run; file handles are stable ("rqtree03" and the fileid).
 *
 *   /                 directory (fileid 1)
 *   /hello.txt        43 bytes of text (2)
 *   /data-1m.bin      1 MiB, byte i = (i + 3) % 251 (3)
 *   /odd-4099.bin     4099 bytes, byte i = (i + 4) % 251 (4)
 *   /empty            0 bytes (5)
 *   /many/            directory of NFS3_TREE_MANY files (6)
 *   /many/entry-NNN   "entry NNN\n" (10 bytes; fileid 1000 + NNN)
 *   /sink             0 bytes, the one file a client may write (7): WRITEs
 *                     are acknowledged and their data dropped, so that a
 *                     client's WRITE (its data in a read chunk) can be
 *                     watched; it stays empty
 *
 * Byte i of a pattern file with fileid f is (i + f) % 251: a page put at
 * the wrong offset shows (251 is prime).  Directories list "." and ".."
 * first; a directory cookie is the index of the next entry.
 */
#ifndef RPCRDMA_NFS3_TREE_H
#define RPCRDMA_NFS3_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NFS3_TREE_ROOT 1u
#define NFS3_TREE_SINK 7u
#define NFS3_TREE_MANY 300u
#define NFS3_TREE_FHLEN 16u
#define NFS3_TREE_NAME_MAX 32u

struct nfs3_node {
	uint64_t fileid;
	uint64_t parent;
	bool dir;
	uint64_t size;
	char name[NFS3_TREE_NAME_MAX];
};

/* the node with this fileid: true, or false when there is none */
bool nfs3_tree_get(uint64_t fileid, struct nfs3_node *n);
/* a directory's entry by name (len bytes, not NUL-terminated): its fileid,
 * or 0 when there is none ("." and ".." included) */
uint64_t nfs3_tree_lookup(uint64_t dir, const uint8_t *name, size_t len);
/* a directory's entries in order: "." and ".." then the children; entry
 * `index` into *name (NUL-terminated) and *fileid; false past the end */
bool nfs3_tree_entry(uint64_t dir, uint64_t index, char name[NFS3_TREE_NAME_MAX],
		     uint64_t *fileid);
/* the number of entries of a directory ("." and ".." included) */
uint64_t nfs3_tree_nentries(uint64_t dir);
/* up to len bytes of a file from off into out: how many; *eof when the
 * file ends there */
size_t nfs3_tree_read(uint64_t fileid, uint64_t off, size_t len, uint8_t *out, bool *eof);
/* the stable handle of a fileid (NFS3_TREE_FHLEN bytes), and back: 0 when
 * the bytes are no handle of ours (*stale: ours, but no such file) */
void nfs3_tree_fh(uint64_t fileid, uint8_t fh[NFS3_TREE_FHLEN]);
uint64_t nfs3_tree_fh_fileid(const uint8_t *fh, size_t len, bool *stale);

#endif
