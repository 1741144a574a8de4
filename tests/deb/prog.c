/* prog.c - the 10-line program tests/deb/inroot.sh builds against the installed librpcrdma-dev (pkg-config --cflags --libs librpcrdma). */
#include <rpcrdma/codec.h>
#include <stdio.h>
int main(void)
{
	/* V1 §5.2/§5.3: xid 0x11223344, vers 1, credits 32, RDMA_MSG, three empty lists; the RPC call's xid, CALL (0) */
	static const uint8_t h[36] = {0x11, 0x22, 0x33, 0x44, 0, 0, 0, 1, 0, 0, 0, 32, [28] = 0x11, 0x22, 0x33, 0x44};
	struct rpcrdma_msg m;
	enum rpcrdma_action a = rpcrdma_decode(h, sizeof h, &m);
	printf("%s xid=0x%08x vers=%u credits=%u proc=%u\n", a == RPCRDMA_ACCEPT ? "accept" : "reject",
	       (unsigned)m.rdma_xid, (unsigned)m.rdma_vers, (unsigned)m.rdma_credit, (unsigned)m.rdma_proc);
	return a != RPCRDMA_ACCEPT;
}
