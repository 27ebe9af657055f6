"""Damages every entry of a dlc compile cache: `truncate` cuts its payload,
`flip` changes one payload byte, `identity` rewrites the line naming the
compiler build that wrote it; `objects` deletes the object entries, leaving
the models' entries (lists of object keys) behind."""
import os
import re
import sys

cache, how = sys.argv[1], sys.argv[2]
for name in os.listdir(cache):
    if not name.endswith(".dlcobj"):
        continue
    path = os.path.join(cache, name)
    data = open(path, "rb").read()
    header_end = 0
    for _ in range(5):  # magic, key, identity, size, checksum
        header_end = data.index(b"\n", header_end) + 1
    if how == "objects":
        if not re.fullmatch(rb"([0-9a-f]{64}\n)+", data[header_end:]):
            os.remove(path)
        continue
    if how == "truncate":
        data = data[:header_end + 10]
    elif how == "flip":
        i = header_end + (len(data) - header_end) // 2
        data = data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1:]
    else:
        lines = data[:header_end].split(b"\n")
        lines[2] = b"dlc 0.0.0 llvm 21.0.0"
        data = b"\n".join(lines) + data[header_end:]
    open(path, "wb").write(data)
