"""The packages `Scripts/package` writes to dist/: what each holds, that each installs and runs
the way users will (pip, uvx, pipx, the MCPB bundle's entry point), and that the binary in them
needs nothing but the C and C++ runtimes.

Runs when `DBAI_DIST` names the folder (Scripts/test builds it first); skipped otherwise.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import REPO_ROOT, assert_tool_ok, connect

pytestmark = pytest.mark.skipif(not os.environ.get("DBAI_DIST"), reason="DBAI_DIST is not set (run Scripts/package)")

MANIFEST = json.loads((REPO_ROOT / "mcp-manifest.json").read_text())
VERSION = MANIFEST["version"]
SYSTEM_LIBRARIES = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libdl.so.2", "libpthread.so.0"}
MIB = 2**20


@pytest.fixture(scope="module")
def dist() -> Path:
    return Path(os.environ["DBAI_DIST"]).resolve()


def only(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    assert len(found) == 1, f"expected one {pattern} in {dist}, found {[path.name for path in found]}"
    return found[0]


@pytest.fixture(scope="module")
def wheel(dist: Path) -> Path:
    return only(dist, f"dbai_mcp-{VERSION}-py3-none-manylinux_*.whl")


@pytest.fixture(scope="module")
def bundle(dist: Path) -> Path:
    return only(dist, f"dbai-mcp-{VERSION}-linux-*.mcpb")


@pytest.fixture(scope="module")
def bundled_binary(bundle: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The binary the bundle's entry point names, extracted as Claude Desktop would."""
    folder = tmp_path_factory.mktemp("mcpb")
    with zipfile.ZipFile(bundle) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        entry_point = manifest["server"]["entry_point"]
        info = archive.getinfo(entry_point)
        path = folder / entry_point
        path.parent.mkdir(parents=True)
        path.write_bytes(archive.read(info))
        path.chmod(stat.S_IMODE(info.external_attr >> 16))
    return path


def needed_libraries(binary: Path) -> list[str]:
    dynamic = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)


def assert_notices(notices: str) -> None:
    """The licences of what the binary links in travel with it."""
    for needed in ("Runtime Library Exception", "UNICODE LICENSE V3", "SQLite", "Jean-loup Gailly",
                   "GRDB.swift: LICENSE", "swift-sdk: LICENSE", "swift-nio-ssl: NOTICE.txt", "async-http-client"):
        assert needed in notices, f"THIRD-PARTY-NOTICES.txt lacks {needed}"


def test_the_bundle_has_its_manifest_at_the_root_and_the_entry_point_inside(bundle: Path) -> None:
    with zipfile.ZipFile(bundle) as archive:
        names = archive.namelist()
        manifest = json.loads(archive.read("manifest.json"))
        entry_point = manifest["server"]["entry_point"]
        assert "manifest.json" in names and entry_point in names and "LICENSE" in names
        assert_notices(archive.read("THIRD-PARTY-NOTICES.txt").decode())
        mode = archive.getinfo(entry_point).external_attr >> 16
        assert mode & stat.S_IXUSR, f"{entry_point} is not executable in the bundle"
    assert manifest["server"]["type"] == "binary"
    assert manifest["server"]["mcp_config"]["command"] == "${__dirname}/" + entry_point
    assert manifest["compatibility"]["platforms"] == ["linux"]
    # Apart from the platform, the bundle's manifest is mcp-manifest.json (kept equal to tools/list).
    assert {**manifest, "compatibility": MANIFEST["compatibility"]} == MANIFEST


@pytest.mark.anyio
async def test_the_bundled_binary_serves_the_sample_database(bundled_binary: Path, chinook: Path) -> None:
    version = subprocess.run([str(bundled_binary), "--version"], capture_output=True, text=True, timeout=30)
    assert version.stdout.strip() == VERSION
    async with connect(bundled_binary, chinook) as connection:
        assert_tool_ok(await connection.call("describe_schema", {"table": "Album"}))
        result = assert_tool_ok(await connection.call("query", {"sql": "SELECT count(*) FROM Track"}))
        assert result["rows"] == [[3503]]


def test_the_binary_needs_only_the_c_and_cpp_runtimes(bundled_binary: Path) -> None:
    needed = needed_libraries(bundled_binary)
    unexpected = [name for name in needed if name not in SYSTEM_LIBRARIES and not name.startswith("ld-linux")]
    assert not unexpected, f"the binary needs {unexpected}"
    assert not [name for name in needed if re.search(r"swift|Foundation|dispatch|curl|sqlite", name, re.IGNORECASE)]


def test_the_stripped_binary_fits_in_72_mib(bundled_binary: Path) -> None:
    # The product's limit (issue 45 repeats it): 66.5 MiB since OpenTelemetry's OTLP exporter
    # (SwiftProtobuf and the OTLP messages, docs/benchmarks.md).
    size = bundled_binary.stat().st_size
    assert size <= 72 * MIB, f"the stripped binary is {size / MIB:.2f} MiB (Scripts/size-report says why)"


def test_the_wheel_is_well_formed(wheel: Path) -> None:
    dist_info = f"dbai_mcp-{VERSION}.dist-info"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"{dist_info}/METADATA").decode()
        tag_lines = archive.read(f"{dist_info}/WHEEL").decode()
        record = archive.read(f"{dist_info}/RECORD").decode().splitlines()
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            if name == f"{dist_info}/RECORD":
                continue
            data = archive.read(name)
            expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (expected, len(data)), f"RECORD is wrong for {name}"
        assert {line.rsplit(",", 2)[0] for line in record} == names
        binary = f"dbai_mcp-{VERSION}.data/scripts/dbai-mcp"
        assert archive.getinfo(binary).external_attr >> 16 & stat.S_IXUSR
        assert_notices(archive.read(f"{dist_info}/THIRD-PARTY-NOTICES.txt").decode())
    assert "Name: dbai-mcp\n" in metadata and f"Version: {VERSION}\n" in metadata
    # The MCP registry checks that the package names the server it is published for.
    server = json.loads((REPO_ROOT / "server.json").read_text())
    assert f"mcp-name: {server['name']}" in metadata
    assert [p["identifier"] for p in server["packages"] if p["registryType"] == "pypi"] == ["dbai-mcp"]
    assert f"Tag: {wheel.name.removesuffix('.whl').split('-', 2)[2]}\n" in tag_lines
    assert "Root-Is-Purelib: false\n" in tag_lines


def test_the_platform_tag_is_the_one_auditwheel_finds(wheel: Path) -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "auditwheel", "show", str(wheel)], capture_output=True, text=True, timeout=600)
    assert shown.returncode == 0, shown.stderr
    consistent = re.search(r'consistent with the following platform tag:\s*"([^"]+)"', " ".join(shown.stdout.split()))
    assert consistent, shown.stdout
    assert wheel.name.endswith(f"-py3-none-{consistent.group(1)}.whl"), shown.stdout


def test_pip_puts_dbai_mcp_on_path(wheel: Path, tmp_path: Path, chinook: Path) -> None:
    environment = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(environment)], check=True, timeout=600)
    subprocess.run(
        [str(environment / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-index",
         "--disable-pip-version-check", str(wheel)],
        check=True, timeout=300)
    installed = environment / "bin" / "dbai-mcp"
    assert os.access(installed, os.X_OK)
    for command in ([str(installed)], [str(environment / "bin" / "python"), "-m", "dbai_mcp"]):
        version = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=30)
        assert version.stdout.strip() == VERSION, version.stderr
    described = subprocess.run(
        [str(installed), "--db", str(chinook), "--print-manifest"], capture_output=True, text=True, timeout=30)
    assert json.loads(described.stdout)["version"] == VERSION


def isolated(tmp_path: Path) -> dict[str, str]:
    """An environment whose tool caches and homes live in tmp_path."""
    return {**os.environ, "HOME": str(tmp_path), "UV_CACHE_DIR": str(tmp_path / "uv-cache"),
            "UV_TOOL_DIR": str(tmp_path / "uv-tools"), "PIPX_HOME": str(tmp_path / "pipx"),
            "XDG_CACHE_HOME": str(tmp_path / "cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def test_uvx_runs_the_wheel(wheel: Path, tmp_path: Path) -> None:
    uv = Path(sys.executable).parent / "uv"
    ran = subprocess.run(
        [str(uv), "tool", "run", "--offline", "--from", str(wheel), "dbai-mcp", "--version"],
        capture_output=True, text=True, timeout=300, env=isolated(tmp_path))
    assert ran.stdout.strip() == VERSION, ran.stderr


def test_pipx_runs_the_wheel(wheel: Path, tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "pipx", "run", "--spec", str(wheel), "dbai-mcp", "--version"],
        capture_output=True, text=True, timeout=300, env={**isolated(tmp_path), "PIP_NO_INDEX": "1"})
    assert ran.stdout.strip() == VERSION, ran.stderr
