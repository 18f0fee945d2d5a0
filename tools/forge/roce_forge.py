#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""roce_forge.py - craft RoCEv2 CNPs, good and hostile, for the tests.

    roce_forge.py send --src IP --dst IP --qpn N --kind KIND [--count N]
    roce_forge.py pcap --src IP --dst IP --qpn N --kind KIND --out F.pcap
    roce_forge.py verify F.pcap      # recompute the ICRC of captured packets

KIND is one of:
    cnp             a well-formed CNP (BTH opcode 0x81, BECN, 16 reserved
                    bytes, correct ICRC) to QP N
    bad_icrc        the same with a wrong ICRC
    bad_tver        BTH transport header version 1
    bad_pkey        partition key 0x0000
    short_payload   BTH and ICRC but no reserved bytes
    truncated_bth   only 7 bytes of BTH
    no_icrc         BTH and reserved bytes, the ICRC cut off

Packets go out through a raw IPv4 socket (IP_HDRINCL), so the IP header the
ICRC covers is exactly the one sent.  Only addresses in 198.18.0.0/15 are
accepted: this tool is for the project's own test hosts.
"""
import argparse
import ipaddress
import socket
import struct
import sys
import time
import zlib

ROCE_PORT = 4791
CNP_OPCODE = 0x81
TEST_NET = ipaddress.ip_network("198.18.0.0/15")
KINDS = ("cnp", "bad_icrc", "bad_tver", "bad_pkey", "short_payload",
         "truncated_bth", "no_icrc")


def ipv4_checksum(hdr):
    s = sum(struct.unpack("!10H", hdr))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4_header(src, dst, payload_len, ident, tos=0):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, tos, 20 + payload_len, ident,
                      0x4000, 64, socket.IPPROTO_UDP, 0,
                      socket.inet_aton(src), socket.inet_aton(dst))
    return hdr[:10] + struct.pack("!H", ipv4_checksum(hdr)) + hdr[12:]


def bth(opcode, qpn, psn=0, pkey=0xFFFF, tver=0, becn=True):
    flags = tver & 0xF                      # SE=0 M=0 PadCnt=0 TVer
    fb = 0x40 if becn else 0x00             # F=0 B=1 resv6
    return struct.pack("!BBHII", opcode, flags, pkey,
                       (fb << 24) | (qpn & 0xFFFFFF), psn & 0xFFFFFF)


def icrc(ip_hdr, udp_hdr, ib_part):
    """The RoCEv2 invariant CRC: CRC-32 over 8 bytes of 0xff (the masked
    LRH), the IP header with TOS, TTL and checksum set to all ones, the UDP
    header with its checksum all ones, the BTH with its resv8a byte (FECN,
    BECN, reserved) all ones, and the rest of the packet.  Sent
    little-endian after the payload."""
    ip = bytearray(ip_hdr)
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10:12] = b"\xff\xff"
    udp = bytearray(udp_hdr)
    udp[6:8] = b"\xff\xff"
    ib = bytearray(ib_part)
    ib[4] = 0xFF
    crc = zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(ib))
    return struct.pack("<I", crc & 0xFFFFFFFF)


def build(src, dst, qpn, kind, ident=1, sport=0xC000):
    if kind not in KINDS:
        raise ValueError("unknown kind %r" % kind)
    head = bth(CNP_OPCODE, qpn,
               pkey=0 if kind == "bad_pkey" else 0xFFFF,
               tver=1 if kind == "bad_tver" else 0)
    body = head + (b"" if kind == "short_payload" else bytes(16))
    if kind == "truncated_bth":
        body = head[:7]
    udp_len = 8 + len(body) + (0 if kind in ("no_icrc", "truncated_bth")
                               else 4)
    ip = ipv4_header(src, dst, udp_len, ident)
    udp = struct.pack("!HHHH", sport, ROCE_PORT, udp_len, 0)
    if kind in ("no_icrc", "truncated_bth"):
        return ip + udp + body
    crc = icrc(ip, udp, body)
    if kind == "bad_icrc":
        crc = bytes(b ^ 0x5A for b in crc)
    return ip + udp + body + crc


def check_test_address(a):
    if ipaddress.ip_address(a) not in TEST_NET:
        sys.exit("roce_forge: %s is outside 198.18.0.0/15: refused" % a)


def send(args):
    check_test_address(args.src)
    check_test_address(args.dst)
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
    for i in range(args.count):
        pkt = build(args.src, args.dst, args.qpn, args.kind, ident=i + 1)
        s.sendto(pkt, (args.dst, 0))
        if args.gap_us:
            time.sleep(args.gap_us / 1e6)
    print("sent %d %s packets to %s qpn %d" % (args.count, args.kind,
                                               args.dst, args.qpn))


def pcap_write(path, packets):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 101))
        for i, p in enumerate(packets):
            f.write(struct.pack("<IIII", i, 0, len(p), len(p)) + p)


def pcap_read(path):
    """(linktype, [packet bytes]) of a classic pcap file."""
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    linktype = struct.unpack(endian + "I", data[20:24])[0]
    off, out = 24, []
    while off + 16 <= len(data):
        incl = struct.unpack(endian + "IIII", data[off:off + 16])[2]
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return linktype, out


def ip_payload_start(linktype, p):
    if linktype == 101:                     # raw IP
        return 0
    if linktype == 1:                       # Ethernet
        return 14
    if linktype == 113:                     # Linux cooked
        return 16
    raise ValueError("unsupported link type %d" % linktype)


def verify(path):
    """Recompute the ICRC of every RoCEv2 packet in a capture."""
    linktype, pkts = pcap_read(path)
    good = bad = 0
    for p in pkts:
        o = ip_payload_start(linktype, p)
        ip = p[o:o + 20]
        if len(ip) < 20 or ip[0] != 0x45 or ip[9] != socket.IPPROTO_UDP:
            continue
        udp = p[o + 20:o + 28]
        if struct.unpack("!H", udp[2:4])[0] != ROCE_PORT:
            continue
        total = struct.unpack("!H", ip[2:4])[0]
        ib = p[o + 28:o + total]
        if len(ib) < 16:
            bad += 1
            continue
        if icrc(ip, udp, ib[:-4]) == ib[-4:]:
            good += 1
        else:
            bad += 1
    print("%d RoCEv2 packets with a correct ICRC, %d without" % (good, bad))
    return 0 if good and not bad else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("send", "pcap"):
        p = sub.add_parser(name)
        p.add_argument("--src", required=True)
        p.add_argument("--dst", required=True)
        p.add_argument("--qpn", type=int, required=True)
        p.add_argument("--kind", choices=KINDS, default="cnp")
        p.add_argument("--count", type=int, default=1)
        p.add_argument("--gap-us", type=int, default=0)
        if name == "pcap":
            p.add_argument("--out", required=True)
    v = sub.add_parser("verify")
    v.add_argument("pcap")
    args = ap.parse_args()
    if args.cmd == "send":
        send(args)
    elif args.cmd == "pcap":
        check_test_address(args.src)
        check_test_address(args.dst)
        pcap_write(args.out, [build(args.src, args.dst, args.qpn, args.kind,
                                    ident=i + 1) for i in range(args.count)])
    else:
        return verify(args.pcap)
    return 0


if __name__ == "__main__":
    sys.exit(main())
