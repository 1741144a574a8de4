#!/bin/bash
# req-check.sh SPECDIR TSV: every sentence of the requirements catalogue
# occurs, word for word, in its seed (whitespace, page breaks, line numbers
# and markdown emphasis aside).  Prints the rows that do not; exit 1 then.
set -euo pipefail
dir=${1:?the seeds directory} tsv=${2:?docs/requirements.tsv}
norm() {
    # one line; no page headers/footers; no bidirection-05 line numbers;
    # no markdown emphasis or link targets; single spaces
    tr '\r\n' '  ' | sed -E 's/Lever[^[]*\[Page [0-9]+\]//g; s/Internet-Draft +RPC-over-RDMA[A-Za-z ]+(June|April|March|May|December|October) [0-9]+//g;
        s/\*\*//g; s/\]\(#\)//g; s/\[Section/Section/g; s/ [0-9]{1,3} / /g; s/ [0-9]{1,3} / /g; s/  +/ /g; s/([A-Za-z])- ([A-Za-z])/\1-\2/g'
}
declare -A text
text[V1]=$(norm < "$dir/draft-ietf-nfsv4-rfc5666bis-04.txt")
text[V2]=$(norm < "$dir/draft-cel-nfsv4-rpcrdma-version-two-01.txt")
text[BIDI]=$(norm < "$dir/draft-ietf-nfsv4-rpcrdma-bidirection-05.txt")
text[BIDI-02]=$(norm < "$dir/draft-ietf-nfsv4-rpcrdma-bidirection-02.txt")
bad=0
while IFS=$'\t' read -r id seed _ _ _ sentence _; do
    [[ $id == \#* || -z $id ]] && continue
    s=$(printf '%s' "$sentence" | norm)
    if [[ ${text[$seed]} != *"$s"* ]]; then
        echo "$id: not found in $seed: $sentence"
        bad=1
    fi
done < "$tsv"
exit $bad
