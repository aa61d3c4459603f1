#!/usr/bin/env python3
"""Writes the invalid-UTF-8 seeds of the JSON fuzz targets: for every string field (and every
object key) of the real outputs in fuzz/corpus/<target>/, one seed in which that field holds
ill-formed bytes, so every string path of the parsers starts from an input that reaches it.
One seed per field pattern (array indices folded), named utf8_<field>.json.

    fuzz/make_utf8_seeds.py     # rewrites fuzz/corpus/*/utf8_*.json
"""
import glob
import json
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
TARGETS = ["google_benchmark", "jmh", "hyperfine", "custom", "results_json"]
MARK = "@@NOT_UTF8@@"
# A lone continuation byte, an overlong '/', a surrogate, a code point above U+10FFFF, a
# truncated sequence, Latin-1 'é' and 0xFF.
BAD = b"\x80\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82 caf\xe9 \xff"
# Fields the readers check against a fixed vocabulary or a pattern: corrupting them only tests
# the first refusal, which the per-field seeds of free text are not for.
FIXED = {"sha"}


def paths(node, path=()):
    """Yields (path, kind) for every string value ('value') and object key ('key')."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path + (k,), "key"
            yield from paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, path + (i,))
    elif isinstance(node, str):
        yield path, "value"


def pattern(path, kind):
    parts = ["all" if isinstance(p, int) else re.sub(r"[^A-Za-z0-9_]+", "_", p) for p in path]
    return ".".join(parts) + (".key" if kind == "key" else "")


def corrupted(doc, path, kind):
    doc = json.loads(json.dumps(doc))
    node = doc
    for p in path[:-1]:
        node = node[p]
    last = path[-1]
    if kind == "value":
        node[last] = node[last] + MARK
    else:
        items = list(node.items())
        node.clear()
        for k, v in items:
            node[k + MARK if k == last else k] = v
    text = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")
    return text.replace(MARK.encode(), BAD)


def main():
    for target in TARGETS:
        directory = os.path.join(ROOT, target)
        for old in glob.glob(os.path.join(directory, "utf8_*.json")):
            os.remove(old)
        written = set()
        for seed in sorted(glob.glob(os.path.join(directory, "*.json"))):
            if os.path.basename(seed).startswith(("utf8_", "invalid_utf8")):
                continue
            try:
                with open(seed, encoding="utf-8") as f:
                    doc = json.load(f)
            except (ValueError, UnicodeDecodeError):
                continue
            for path, kind in paths(doc):
                if not path or (kind == "value" and path[-1] in FIXED):
                    continue
                name = pattern(path, kind)
                if name in written:
                    continue
                written.add(name)
                out = os.path.join(directory, "utf8_" + name[:80] + ".json")
                with open(out, "wb") as f:
                    f.write(corrupted(doc, path, kind))
        print(f"{target}: {len(written)} seeds")


if __name__ == "__main__":
    main()
