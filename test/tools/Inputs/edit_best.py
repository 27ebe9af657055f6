"""Copies a tuning database, setting FIELD of its last `best` record to a
JSON value: edit_best.py IN OUT FIELD VALUE."""
import json
import sys

src, dst, field, value = sys.argv[1:5]
lines = [json.loads(line) for line in open(src) if line.strip()]
best = [r for r in lines if r["kind"] == "best"][-1]
best[field] = json.loads(value)
with open(dst, "w") as f:
    for r in lines:
        f.write(json.dumps(r) + "\n")
