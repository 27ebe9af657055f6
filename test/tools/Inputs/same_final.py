"""Prints `equivalent` when two pass ledgers end at the same IR (equal final
fingerprints, weights included), else `different`."""
import json
import sys

a, b = (json.load(open(path))["final"] for path in sys.argv[1:3])
print("equivalent" if a == b else "different")
