#!/usr/bin/python3
"""A stand-in for journald's native socket, for tests in a private mount
namespace: decodes each datagram (KEY=value lines and the binary form for
values with newlines) and appends it as one JSON object per line to OUT.
After STALL_AFTER records it stops reading (as a hung journald would) until
it gets SIGUSR1, then reads on.

    fake_journald.py SOCKET OUT [STALL_AFTER]
"""
import json
import os
import signal
import socket
import struct
import sys
import time


def decode(data):
    fields, i = {}, 0
    while i < len(data):
        nl = data.index(b"\n", i)
        line = data[i:nl]
        if b"=" in line:
            k, v = line.split(b"=", 1)
            i = nl + 1
        else:  # binary: KEY\n, le64 length, value, \n
            k = line
            (n,) = struct.unpack("<Q", data[nl + 1:nl + 9])
            v = data[nl + 9:nl + 9 + n]
            assert data[nl + 9 + n:nl + 10 + n] == b"\n", "binary field not closed by a newline"
            i = nl + 10 + n
        fields[k.decode()] = v.decode(errors="replace")
    return fields


def main():
    path, out = sys.argv[1], sys.argv[2]
    stall_after = int(sys.argv[3]) if len(sys.argv) > 3 else -1
    resumed = []
    signal.signal(signal.SIGUSR1, lambda *_: resumed.append(1))
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    n = 0
    with open(out, "a", buffering=1) as f:
        while True:
            if n == stall_after and not resumed:
                time.sleep(0.05)
                continue
            data = s.recv(1 << 20)
            f.write(json.dumps(decode(data)) + "\n")
            n += 1


if __name__ == "__main__":
    main()
