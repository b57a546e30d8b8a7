#!/usr/bin/env python3
"""What a linked binary's size is made of, from the linker's map file (GNU ld or gold).

Adds up the input sections that end up in the file (code, constants, data, Swift metadata;
not debug sections, not .bss) by where they came from: a module of this package or of a
dependency (`NAME.build/`), a Swift runtime or Foundation archive (`libNAME.a`), SQLite, and the
rest. The linker's own sections (symbol tables, relocations, unwind tables) are listed apart.
Normally started by `Scripts/size-report`. Standard library only.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys

ENTRY = re.compile(r"^ (\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$")
SKIPPED = (".debug", ".bss", ".tbss", ".comment", ".note", ".swift1_autolink_entries")


def origin(path: str) -> str:
    if match := re.search(r"/([^/]+)\.build/", path):
        if match.group(1) == "CStaticBinarySupport" and "ICUDataSubset" in path:
            return "_FoundationICU (data subset, CStaticBinarySupport)"
        return match.group(1)
    if match := re.search(r"lib([^/(]+)\.a\(", path):
        member = re.search(r"\(([^)]+)\)", path)
        if match.group(1) == "_FoundationICU" and member and member.group(1).startswith("icu_packaged_data"):
            return "_FoundationICU (data)"
        return match.group(1)
    return path.rsplit("/", 1)[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map", help="the linker map file (-Xlinker -Map=FILE)")
    parser.add_argument("--top", type=int, default=25, help="how many origins to list")
    args = parser.parse_args()

    lines = open(args.map, encoding="utf-8", errors="replace").read().split("\n")
    try:
        start = next(index for index, line in enumerate(lines) if line.startswith(("Memory map", "Linker script and memory map")))
    except StopIteration:
        print(f"{args.map} is not a GNU ld or gold map file", file=sys.stderr)
        return 1
    by_origin: collections.Counter[str] = collections.Counter()
    output_section = ""
    pending_name = ""
    for line in lines[start:]:
        if line and not line.startswith(" "):
            output_section = line.split()[0]
            continue
        stripped = line.strip()
        if line.startswith(" ") and not line.startswith(" **") and stripped and " " not in stripped:
            pending_name = stripped  # a long section name, its numbers on the next line
            continue
        match = ENTRY.match(line)
        name, pending_name = (match.group(1) if match else "") or pending_name, ""
        if not match or output_section.startswith(SKIPPED):
            continue
        by_origin[origin(match.group(4))] += int(match.group(3), 16)

    total = sum(by_origin.values())
    print(f"{total / 2**20:7.2f} MiB from input sections (stripped binaries add the symbol, relocation and unwind tables)")
    for name, size in by_origin.most_common(args.top):
        print(f"{size / 2**20:7.2f} MiB  {100 * size / total:5.1f}%  {name}")
    rest = total - sum(size for _, size in by_origin.most_common(args.top))
    if rest:
        print(f"{rest / 2**20:7.2f} MiB  {100 * rest / total:5.1f}%  ({len(by_origin) - args.top} more)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
