/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs3_tree.c - the computed read-only tree of nfs3_tree.h.
 */
#include <stdio.h>
#include <string.h>
#include "be.h"
#include "nfs3_tree.h"

#define MANY_DIR 6u
#define MANY_BASE 1000u
#define HELLO_TEXT "Hello from rpcrdma-conform's NFSv3 export.\n"

static const struct {
	const char *name;
	bool dir;
	uint64_t size;
} root_files[] = {
	{ "hello.txt", false, sizeof(HELLO_TEXT) - 1 },
	{ "data-1m.bin", false, 1u << 20 },
	{ "odd-4099.bin", false, 4099 },
	{ "empty", false, 0 },
	{ "many", true, 4096 },
	{ "sink", false, 0 },
};
#define NROOT (sizeof(root_files) / sizeof(root_files[0]))

bool nfs3_tree_get(uint64_t fileid, struct nfs3_node *n)
{
	memset(n, 0, sizeof(*n));
	n->fileid = fileid;
	if (fileid == NFS3_TREE_ROOT) {
		n->parent = NFS3_TREE_ROOT;
		n->dir = true;
		n->size = 4096;
		strcpy(n->name, "/");
		return true;
	}
	if (fileid >= 2 && fileid < 2 + NROOT) {
		n->parent = NFS3_TREE_ROOT;
		n->dir = root_files[fileid - 2].dir;
		n->size = root_files[fileid - 2].size;
		snprintf(n->name, sizeof(n->name), "%s", root_files[fileid - 2].name);
		return true;
	}
	if (fileid >= MANY_BASE && fileid < MANY_BASE + NFS3_TREE_MANY) {
		n->parent = MANY_DIR;
		n->size = 10;
		snprintf(n->name, sizeof(n->name), "entry-%03u", (unsigned)(fileid - MANY_BASE));
		return true;
	}
	return false;
}

uint64_t nfs3_tree_nentries(uint64_t dir)
{
	if (dir == NFS3_TREE_ROOT)
		return 2 + NROOT;
	if (dir == MANY_DIR)
		return 2 + NFS3_TREE_MANY;
	return 0;
}

bool nfs3_tree_entry(uint64_t dir, uint64_t index, char name[NFS3_TREE_NAME_MAX],
		     uint64_t *fileid)
{
	struct nfs3_node n;

	if (index >= nfs3_tree_nentries(dir) || !nfs3_tree_get(dir, &n))
		return false;
	if (index < 2) {
		strcpy(name, index ? ".." : ".");
		*fileid = index ? n.parent : dir;
		return true;
	}
	*fileid = dir == NFS3_TREE_ROOT ? 2 + (index - 2) : MANY_BASE + (index - 2);
	if (!nfs3_tree_get(*fileid, &n))
		return false;
	memcpy(name, n.name, NFS3_TREE_NAME_MAX);
	return true;
}

uint64_t nfs3_tree_lookup(uint64_t dir, const uint8_t *name, size_t len)
{
	char ename[NFS3_TREE_NAME_MAX];
	uint64_t i, n = nfs3_tree_nentries(dir), id;

	if (len >= NFS3_TREE_NAME_MAX)
		return 0;
	/* /many/entry-NNN straight from the name, the rest by walking */
	if (dir == MANY_DIR && len == 9 && !memcmp(name, "entry-", 6)) {
		unsigned k = 0;

		for (i = 6; i < 9; i++) {
			if (name[i] < '0' || name[i] > '9')
				return 0;
			k = k * 10 + (unsigned)(name[i] - '0');
		}
		return k < NFS3_TREE_MANY ? MANY_BASE + k : 0;
	}
	for (i = 0; i < n && i < 2 + NROOT; i++)
		if (nfs3_tree_entry(dir, i, ename, &id) && strlen(ename) == len &&
		    !memcmp(ename, name, len))
			return id;
	return 0;
}

size_t nfs3_tree_read(uint64_t fileid, uint64_t off, size_t len, uint8_t *out, bool *eof)
{
	struct nfs3_node n;
	size_t i, k;

	*eof = true;
	if (!nfs3_tree_get(fileid, &n) || n.dir || off >= n.size)
		return 0;
	if (len > n.size - off)
		len = (size_t)(n.size - off);
	*eof = off + len == n.size;
	if (fileid == 2) {
		memcpy(out, &HELLO_TEXT[off], len);
	} else if (fileid >= MANY_BASE) {
		char text[16];

		snprintf(text, sizeof(text), "entry %03u\n", (unsigned)(fileid - MANY_BASE));
		memcpy(out, text + off, len);
	} else {
		k = (size_t)((off + fileid) % 251);
		for (i = 0; i < len; i++) {
			out[i] = (uint8_t)k;
			if (++k == 251)
				k = 0;
		}
	}
	return len;
}

static const uint8_t fh_magic[8] = { 'r', 'q', 't', 'r', 'e', 'e', '0', '3' };

void nfs3_tree_fh(uint64_t fileid, uint8_t fh[NFS3_TREE_FHLEN])
{
	memcpy(fh, fh_magic, sizeof(fh_magic));
	be32_put(fh + 8, (uint32_t)(fileid >> 32));
	be32_put(fh + 12, (uint32_t)fileid);
}

uint64_t nfs3_tree_fh_fileid(const uint8_t *fh, size_t len, bool *stale)
{
	struct nfs3_node n;
	uint64_t id;

	*stale = false;
	if (len != NFS3_TREE_FHLEN || memcmp(fh, fh_magic, sizeof(fh_magic)))
		return 0;
	id = (uint64_t)be32_get(fh + 8) << 32 | be32_get(fh + 12);
	if (!nfs3_tree_get(id, &n)) {
		*stale = true;
		return 0;
	}
	return id;
}
