#!/usr/bin/env python3
"""Writes the subset of ICU's data that the static release dbai-mcp carries.

Reads the packaged ICU data out of the toolchain's lib_FoundationICU.a (the object that defines
`icudtNN_dat`), drops the items dbai-mcp never uses, and writes a new ICU common-data package
with the same name and header, plus the header file Sources/CStaticBinarySupport/ICUDataSubset.c
includes. Kept: every root-level item (each locale's date, number and calendar data, the
time-zone database, plural rules, supplemental data), normalization, case and property data,
break-iterator rules, collation's root and its base table, and in the display-name trees
(lang, region, curr, unit, zone) the root, English and shared pool items. Dropped: legacy
character-set converters (*.cnv), other collations, word-break dictionaries, transliterators,
spelled-out number rules, and display names in languages other than English.

Standard library only, plus `ar` and `nm` from binutils. Normally started by Scripts/build-release.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

DISPLAY_NAME_TREES = {"lang", "region", "curr", "unit", "zone"}


def keep(item: str) -> bool:
    """Whether the item, named without the package prefix (`coll/root.res`), is kept."""
    parts = item.split("/")
    if len(parts) == 1:
        return not item.endswith(".cnv")
    tree, name = parts[0], parts[-1]
    if tree in DISPLAY_NAME_TREES:
        return name in ("root.res", "pool.res", "res_index.res") or name == "en.res" or name.startswith("en_")
    if tree == "coll":
        return name in ("root.res", "ucadata.icu", "res_index.res") or name.startswith("ucadata")
    if tree == "brkitr":
        return not name.endswith(".dict")
    return tree not in ("translit", "rbnf")


class SubsetError(Exception):
    pass


def elf_sections(data: bytes) -> list[tuple[str, int, int]]:
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise SubsetError("the ICU data object is not a little-endian 64-bit ELF object")
    section_offset = struct.unpack_from("<Q", data, 0x28)[0]
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, section_offset + index * entry_size) for index in range(count)]
    names_offset = headers[names_index][4]

    def name(offset: int) -> str:
        end = data.index(b"\0", names_offset + offset)
        return data[names_offset + offset:end].decode()

    return [(name(header[0]), header[4], header[5]) for header in headers]


def packaged_data(archive: Path) -> tuple[str, bytes]:
    """The data symbol's name and the bytes of the common-data package it labels."""
    symbols = subprocess.run(["nm", "-S", "--defined-only", str(archive)], capture_output=True, text=True, check=True).stdout
    member, symbol = None, None
    for line in symbols.splitlines():
        if line.endswith(".o:"):
            member = line[:-1]
        elif match := re.search(r"\s[RD]\s+(icudt\d+_dat)$", line):
            symbol = match.group(1)
            break
    if not member or not symbol:
        raise SubsetError(f"{archive} defines no icudtNN_dat symbol")
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["ar", "x", str(archive.resolve()), member], cwd=folder, check=True)
        data = (Path(folder) / member).read_bytes()
    for name, offset, size in elf_sections(data):
        blob = data[offset:offset + size]
        if name.startswith(".rodata") and size > 4096 and blob[12:16] == b"CmnD":
            return symbol, blob
    raise SubsetError(f"{member} in {archive} holds no ICU common data")


def subset(blob: bytes) -> tuple[bytes, int, int]:
    header_size = struct.unpack_from("<H", blob, 0)[0]
    count = struct.unpack_from("<I", blob, header_size)[0]
    entries = [struct.unpack_from("<II", blob, header_size + 4 + 8 * index) for index in range(count)]
    items = []
    for index, (name_offset, data_offset) in enumerate(entries):
        end = blob.index(b"\0", header_size + name_offset)
        name = blob[header_size + name_offset:end].decode()
        data_end = entries[index + 1][1] if index + 1 < count else len(blob) - header_size
        items.append((name, blob[header_size + data_offset:header_size + data_end]))
    prefix = items[0][0].split("/", 1)[0] + "/"
    if not all(name.startswith(prefix) for name, _ in items):
        raise SubsetError("the ICU data items do not share one package prefix")
    kept = [(name, data) for name, data in items if keep(name[len(prefix):])]

    # Layout: header, item count, (name offset, data offset) per item, names, then the items,
    # each 16-byte aligned; offsets count from the end of the header.
    table_size = 4 + 8 * len(kept)
    names = b"".join(name.encode() + b"\0" for name, _ in kept)
    position = table_size + len(names)
    position += -position % 16
    name_offsets, data_offsets, body = [], [], bytearray()
    cursor = table_size
    for name, _ in kept:
        name_offsets.append(cursor)
        cursor += len(name) + 1
    for _, data in kept:
        data_offsets.append(position + len(body))
        body += data
        body += b"\0" * (-len(body) % 16)
    table = struct.pack("<I", len(kept)) + b"".join(
        struct.pack("<II", name_offset, data_offset) for name_offset, data_offset in zip(name_offsets, data_offsets))
    out = blob[:header_size] + table + names + b"\0" * (position - table_size - len(names)) + bytes(body)
    return out, len(items), len(kept)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, required=True, help="the toolchain's lib_FoundationICU.a")
    parser.add_argument("--output", type=Path, required=True, help="the folder for the data and its header")
    args = parser.parse_args()
    try:
        symbol, blob = packaged_data(args.archive)
        data, total, kept = subset(blob)
    except (SubsetError, subprocess.CalledProcessError, OSError) as error:
        print(f"icu_data_subset: {error}", file=sys.stderr)
        return 1
    args.output.mkdir(parents=True, exist_ok=True)
    data_path = args.output / f"{symbol.removesuffix('_dat')}-subset.dat"
    if not data_path.exists() or data_path.read_bytes() != data:
        data_path.write_bytes(data)
    header = (f"// Written by Scripts/icu_data_subset.py: {kept} of {total} ICU data items, {len(data)} of "
              f"{len(blob)} bytes.\n// sha256 {hashlib.sha256(data).hexdigest()}\n"
              f"#define DBAI_ICU_DATA_SYMBOL {symbol}\n#define DBAI_ICU_DATA_FILE \"{data_path.resolve()}\"\n")
    header_path = args.output / "dbai_icu_data.h"
    if not header_path.exists() or header_path.read_text() != header:
        header_path.write_text(header)
    print(f"ICU data: {kept} of {total} items, {len(data) / 2**20:.2f} of {len(blob) / 2**20:.2f} MiB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
