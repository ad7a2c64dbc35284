"""The parser's tables are kept in the compiler's cache (lowering/frontend/tokens.py): a
fresh process writes them, the next reads them, and an unreadable file is rebuilt."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PARSE = ("from lowering.frontend.parser import parse_module\n"
         "m = parse_module('func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\\n"
         "  return %a : tensor<4xf32>\\n}\\n', 'x.mlir')\n"
         "print(len(m.functions()))")


def _parse_in_fresh_process(cache):
    env = dict(os.environ, AOTC_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", PARSE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def test_tables_are_cached_and_a_damaged_file_is_rebuilt(tmp_path):
    tables = tmp_path / "grammar.lark-tables"
    first = _parse_in_fresh_process(tmp_path)
    assert first.returncode == 0 and first.stdout.strip() == "1", first.stderr
    assert tables.stat().st_size > 1000
    tables.write_bytes(b"not the tables\n")
    again = _parse_in_fresh_process(tmp_path)
    assert again.returncode == 0 and again.stdout.strip() == "1" and not again.stderr, again.stderr
    assert tables.stat().st_size > 1000  # written anew
