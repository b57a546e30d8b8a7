#!/usr/bin/env python3
"""Packs a release dbai-mcp into dist/: a tarball, an MCPB bundle and a Python wheel.

  dbai-mcp-VERSION-linux-ARCH.tar.gz    the stripped binary, LICENSE, THIRD-PARTY-NOTICES.txt and
                                        README.md
  dbai-mcp-VERSION-linux-ARCH.mcpb      manifest.json at the root, the binary at bin/dbai-mcp
  dbai_mcp-VERSION-py3-none-manylinux_2_N_ARCH.whl
                                        installs dbai-mcp into the environment's bin/ (as ruff
                                        does), so `uvx dbai-mcp` and `pipx run dbai-mcp` run it;
                                        N is the newest glibc symbol version the binary needs

Each package carries LICENSE and THIRD-PARTY-NOTICES.txt: the licences of everything linked into
the binary (the Swift runtime and Foundation, ICU, SQLite, zlib and every Swift package).
Checks that the binary needs no shared library outside the manylinux set (no Swift runtime,
Foundation, dispatch, libcurl or SQLite) and prints every size. Normally started by
`Scripts/package`, which builds the binary first. Standard library only, plus `strip` and
`readelf` from binutils.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGISTRY_NAME = "io.github.swiftdbai/dbai-mcp"
# The libraries every manylinux policy lets a wheel use from the system (PEP 600).
SYSTEM_LIBRARIES = re.compile(
    r"^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libutil\.so\.1|libresolv\.so\.2"
    r"|libstdc\+\+\.so\.6|libgcc_s\.so\.1|ld-linux[-\w.]*\.so\.\d)$")
# Zip entries get this fixed time, so the same binary packs into the same bytes.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)


class PackageError(Exception):
    pass


def section(title: str, text: str) -> str:
    return f"{'=' * 78}\n{title}\n{'=' * 78}\n\n{text.strip()}\n\n"


def third_party_notices(checkouts: Path) -> bytes:
    """The licences and notices of everything the static binary links in."""
    swiftc = Path(shutil.which("swiftc") or "/usr/bin/swiftc").resolve()
    toolchain_license = swiftc.parent.parent / "share" / "swift" / "LICENSE.txt"
    parts = [
        "dbai-mcp is MIT-licensed (LICENSE). Its binary links in the software below, each under its own "
        "licence.\n\n",
    ]
    if not toolchain_license.is_file():
        raise PackageError(f"the Swift toolchain's licence is not at {toolchain_license}")
    parts.append(section(
        "The Swift runtime, Foundation, Dispatch (swift.org; Apache License 2.0 with Runtime Library Exception)",
        toolchain_license.read_text()))
    parts.append(section(
        "ICU, in Foundation (Unicode, Inc. and others; a subset of its data)",
        (ROOT / "Scripts" / "notices" / "ICU-LICENSE.txt").read_text()))
    parts.append(section(
        "SQLite (public domain)",
        "The SQLite source code and documentation have been dedicated to the public domain by their "
        "authors (https://www.sqlite.org/copyright.html)."))
    zlib_header = Path("/usr/include/zlib.h")
    if zlib_header.is_file() and (match := re.search(r"/\*(.*?Copyright.*?)\*/", zlib_header.read_text(), re.S)):
        parts.append(section("zlib", match.group(1)))
    else:
        raise PackageError("zlib's licence (in /usr/include/zlib.h) is missing: install zlib1g-dev")
    packages = sorted(path for path in checkouts.iterdir() if path.is_dir()) if checkouts.is_dir() else []
    if not packages:
        raise PackageError(f"no Swift package checkouts in {checkouts}")
    for package in packages:
        for name in ("LICENSE", "LICENSE.txt", "LICENSE.md", "NOTICE", "NOTICE.txt"):
            if (package / name).is_file():
                parts.append(section(f"{package.name}: {name}", (package / name).read_text(errors="replace")))
    return "".join(parts).encode()


def run(*command: str) -> str:
    try:
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        raise PackageError(f"{command[0]} is missing: install binutils (Debian, Ubuntu: apt-get install binutils)")
    except subprocess.CalledProcessError as error:
        raise PackageError(f"{' '.join(command)} failed: {error.stderr.strip()}")


def needed_libraries(binary: Path) -> list[str]:
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run("readelf", "-d", str(binary)))


def newest_glibc(binary: Path) -> tuple[int, int]:
    versions = {tuple(map(int, found)) for found in re.findall(r"GLIBC_(\d+)\.(\d+)", run("readelf", "-V", str(binary)))}
    if not versions:
        raise PackageError(f"{binary} names no glibc symbol version: is it a Linux glibc binary?")
    return max(versions)


def machine(binary: Path) -> str:
    header = run("readelf", "-h", str(binary))
    if "X86-64" in header:
        return "x86_64"
    if "AArch64" in header:
        return "aarch64"
    raise PackageError(f"{binary}: only x86_64 and aarch64 binaries are packaged")


def mebibytes(size: int) -> str:
    return f"{size:>12,} bytes  {size / 2**20:6.2f} MiB"


def zip_add(archive: zipfile.ZipFile, name: str, data: bytes, executable: bool = False) -> None:
    entry = zipfile.ZipInfo(name, ZIP_TIME)
    entry.external_attr = (0o100755 if executable else 0o100644) << 16
    entry.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(entry, data, compresslevel=9)


def write_mcpb(path: Path, manifest: dict, binary: bytes, notices: bytes) -> None:
    bundle = json.loads(json.dumps(manifest))
    entry_point = bundle["server"]["entry_point"]
    # This bundle carries a Linux binary only.
    bundle["compatibility"] = {**bundle.get("compatibility", {}), "platforms": ["linux"]}
    with zipfile.ZipFile(path, "w") as archive:
        zip_add(archive, "manifest.json", (json.dumps(bundle, indent=2, ensure_ascii=False) + "\n").encode())
        zip_add(archive, entry_point, binary, executable=True)
        zip_add(archive, "LICENSE", (ROOT / "LICENSE").read_bytes())
        zip_add(archive, "THIRD-PARTY-NOTICES.txt", notices)


def wheel_metadata(manifest: dict, version: str, glibc: str) -> str:
    description = f"""# dbai-mcp

{manifest["long_description"]}

A single self-contained binary (no Python code runs it): installing this wheel puts `dbai-mcp` on
your PATH.

```sh
uvx dbai-mcp --db app.sqlite                 # read-only
pipx run dbai-mcp --db app.sqlite --allow standard
```

Register it with an MCP client as the command `uvx` with the arguments
`["dbai-mcp", "--db", "/absolute/path/app.sqlite"]`. Linux with glibc {glibc} or newer.

<!-- mcp-name: {REGISTRY_NAME} -->
mcp-name: {REGISTRY_NAME}
"""
    headers = [
        ("Metadata-Version", "2.1"),
        ("Name", "dbai-mcp"),
        ("Version", version),
        ("Summary", manifest["description"]),
        ("License", "MIT"),
        ("Keywords", ",".join(manifest.get("keywords", []) + ["mcp"])),
        ("Requires-Python", ">=3.8"),
        ("Classifier", "License :: OSI Approved :: MIT License"),
        ("Classifier", "Operating System :: POSIX :: Linux"),
        ("Classifier", "Topic :: Database"),
        ("Classifier", "Environment :: Console"),
        ("Description-Content-Type", "text/markdown"),
    ]
    return "".join(f"{name}: {value}\n" for name, value in headers) + "\n" + description


LAUNCHER = '''"""`python -m dbai_mcp`: runs the dbai-mcp binary this wheel installed."""

import os
import sys
import sysconfig


def binary() -> str:
    """The installed dbai-mcp: in this environment's scripts folder, the user's, or on PATH."""
    folders = [sysconfig.get_path("scripts")]
    user_scheme = f"{os.name}_user"
    if user_scheme in sysconfig.get_scheme_names():
        folders.append(sysconfig.get_path("scripts", scheme=user_scheme))
    folders += os.environ.get("PATH", "").split(os.pathsep)
    for folder in folders:
        candidate = os.path.join(folder, "dbai-mcp")
        if folder and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise SystemExit("dbai-mcp: the binary is not installed next to this Python package; reinstall dbai-mcp.")


def main() -> None:
    path = binary()
    os.execv(path, [path, *sys.argv[1:]])


if __name__ == "__main__":
    main()
'''


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def write_wheel(
    path: Path, version: str, tag: str, glibc: str, manifest: dict, binary: bytes, notices: bytes
) -> None:
    dist_info = f"dbai_mcp-{version}.dist-info"
    files: list[tuple[str, bytes, bool]] = [
        ("dbai_mcp/__init__.py", f'"""dbai-mcp: a stdio MCP server for SQLite."""\n\n__version__ = "{version}"\n'.encode(), False),
        ("dbai_mcp/__main__.py", LAUNCHER.encode(), False),
        (f"dbai_mcp-{version}.data/scripts/dbai-mcp", binary, True),
        (f"{dist_info}/METADATA", wheel_metadata(manifest, version, glibc).encode(), False),
        (f"{dist_info}/WHEEL", (
            "Wheel-Version: 1.0\nGenerator: dbai-mcp Scripts/make_packages.py\nRoot-Is-Purelib: false\n"
            f"Tag: {tag}\n").encode(), False),
        (f"{dist_info}/LICENSE", (ROOT / "LICENSE").read_bytes(), False),
        (f"{dist_info}/THIRD-PARTY-NOTICES.txt", notices, False),
    ]
    record = "\n".join([record_line(name, data) for name, data, _ in files] + [f"{dist_info}/RECORD,,"]) + "\n"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data, executable in files:
            zip_add(archive, name, data, executable)
        zip_add(archive, f"{dist_info}/RECORD", record.encode())


def write_tarball(path: Path, folder: str, binary: bytes, notices: bytes) -> None:
    def add(archive: tarfile.TarFile, name: str, data: bytes, mode: int) -> None:
        info = tarfile.TarInfo(f"{folder}/{name}")
        info.size, info.mode, info.mtime = len(data), mode, 1577836800
        archive.addfile(info, io.BytesIO(data))

    with tarfile.open(path, "w:gz", compresslevel=9) as archive:
        add(archive, "dbai-mcp", binary, 0o755)
        add(archive, "LICENSE", (ROOT / "LICENSE").read_bytes(), 0o644)
        add(archive, "THIRD-PARTY-NOTICES.txt", notices, 0o644)
        add(archive, "README.md", (ROOT / "README.md").read_bytes(), 0o644)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, type=Path, help="the release dbai-mcp (Scripts/build-release)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument(
        "--checkouts", type=Path, default=ROOT / ".build-release" / "checkouts",
        help="the Swift packages the binary was built from, for their licences")
    args = parser.parse_args()

    manifest = json.loads((ROOT / "mcp-manifest.json").read_text())
    version = manifest["version"]
    reported = run(str(args.binary), "--version").strip()
    if reported != version:
        raise PackageError(f"{args.binary} says it is {reported}, mcp-manifest.json says {version}: run Scripts/update-manifest")

    unexpected = [name for name in needed_libraries(args.binary) if not SYSTEM_LIBRARIES.match(name)]
    if unexpected:
        raise PackageError(
            f"{args.binary} needs {', '.join(unexpected)} at run time: build it with Scripts/build-release")
    arch = machine(args.binary)
    glibc_major, glibc_minor = newest_glibc(args.binary)

    args.dist.mkdir(parents=True, exist_ok=True)
    for old in [*args.dist.glob("dbai-mcp-*"), *args.dist.glob("dbai_mcp-*.whl")]:
        old.unlink()  # earlier packages, so dist/ holds one of each
    stripped_path = args.dist / f"dbai-mcp-{version}-linux-{arch}.bin"
    shutil.copyfile(args.binary, stripped_path)
    run("strip", "--strip-all", str(stripped_path))
    stripped = stripped_path.read_bytes()
    stripped_path.unlink()

    folder = f"dbai-mcp-{version}-linux-{arch}"
    tarball = args.dist / f"{folder}.tar.gz"
    bundle = args.dist / f"{folder}.mcpb"
    tag = f"py3-none-manylinux_{glibc_major}_{glibc_minor}_{arch}"
    wheel = args.dist / f"dbai_mcp-{version}-{tag}.whl"
    notices = third_party_notices(args.checkouts)
    write_tarball(tarball, folder, stripped, notices)
    write_mcpb(bundle, manifest, stripped, notices)
    write_wheel(wheel, version, tag, f"{glibc_major}.{glibc_minor}", manifest, stripped, notices)

    print(f"dbai-mcp {version}, linux {arch}, needs glibc {glibc_major}.{glibc_minor}+ and "
          f"{', '.join(needed_libraries(args.binary))}")
    print(f"  binary, as built      {mebibytes(args.binary.stat().st_size)}")
    print(f"  binary, stripped      {mebibytes(len(stripped))}")
    for path in (tarball, bundle, wheel):
        print(f"  {path.name:<{max(len(p.name) for p in (tarball, bundle, wheel))}}  {mebibytes(path.stat().st_size)}")
    print(f"written to {args.dist}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except PackageError as error:
        print(f"package: {error}", file=sys.stderr)
        sys.exit(1)
