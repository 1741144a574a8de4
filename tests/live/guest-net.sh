#!/bin/bash
# In the guest: two RDMA hosts joined by a cable. A veth pair veth0 <-> veth1,
# one soft RDMA device on each end (rxe or siw), both in the initial network
# namespace (Debian 6.1's rxe works only there). Policy routing makes each end's
# traffic leave through its own veth, so it crosses the cable where tcpdump sees it:
#   end A: veth0 198.18.0.1, device <kind>0    end B: veth1 198.18.0.2, device <kind>1
#   guest-net.sh rxe|siw
# Prints the two device names. Addresses are from 198.18.0.0/15 (benchmarking).
set -euo pipefail

kind=${1:?rxe or siw}
A=198.18.0.1 B=198.18.0.2

case $kind in
rxe) modprobe -q crc32_generic || true; modprobe rdma_rxe ;;
siw) modprobe -q crc32c_generic || true; modprobe siw ;;
*) echo "guest-net: unknown kind $kind" >&2; exit 2 ;;
esac
modprobe -a veth ib_uverbs rdma_ucm

sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
# A veth delivers through the per-CPU backlog; at the default 1000 packets a
# burst overflows it and the cable "loses" packets (TCP retransmits over siw).
sysctl -qw net.core.netdev_max_backlog=30000
# One segment per packet (no GSO super-packets): the capture looks like a real
# cable's, with TCP segments no larger than the MTU.
ip link add veth0 gso_max_segs 1 type veth peer name veth1 gso_max_segs 1
for dev in veth0 veth1; do
    # No IPv6 on the cable: no neighbour discovery noise in the captures.
    sysctl -qw "net.ipv6.conf.$dev.disable_ipv6=1"
    sysctl -qw "net.ipv4.conf.$dev.rp_filter=0" "net.ipv4.conf.$dev.accept_local=1"
done
ip addr add "$A/24" dev veth0
ip addr add "$B/24" dev veth1
ip link set veth0 up
ip link set veth1 up

# Locally generated traffic to B leaves through veth0 with source A, and to A
# through veth1 with source B; the local table is consulted only after that, so
# what arrives on a veth is still delivered locally.
ip route add "$B/32" dev veth0 src "$A" table 101
ip route add "$A/32" dev veth1 src "$B" table 102
ip rule add pref 10 iif lo to "$B/32" lookup 101
ip rule add pref 11 iif lo to "$A/32" lookup 102
ip rule add pref 100 lookup local
ip rule del pref 0
ip neigh replace "$B" lladdr "$(cat /sys/class/net/veth1/address)" dev veth0 nud permanent
ip neigh replace "$A" lladdr "$(cat /sys/class/net/veth0/address)" dev veth1 nud permanent

rdma link add "${kind}0" type "$kind" netdev veth0
rdma link add "${kind}1" type "$kind" netdev veth1

# Wait until both ports are active.
for _ in $(seq 50); do
    if [[ $(cat "/sys/class/infiniband/${kind}0/ports/1/state" 2>/dev/null) == *ACTIVE* &&
          $(cat "/sys/class/infiniband/${kind}1/ports/1/state" 2>/dev/null) == *ACTIVE* ]]; then
        echo "${kind}0 ${kind}1"
        exit 0
    fi
    sleep 0.1
done
echo "guest-net: ${kind}0/${kind}1 did not become active" >&2
rdma link show >&2 || true
exit 1
