"""jsonhex.py - rpcrdma-decode --json writes xids, handles and offsets as
"0x..." strings (exact through jq); the comparisons read them as numbers."""


def unhex(o, key=None):
    if isinstance(o, dict):
        return {k: unhex(v, k) for k, v in o.items()}
    if isinstance(o, list):
        return [unhex(v, key) for v in o]
    if key in ("xid", "handle", "offset") and isinstance(o, str) \
            and o.startswith("0x"):
        return int(o, 16)
    return o
