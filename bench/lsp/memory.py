#!/usr/bin/env python3
"""Resident memory of `attnc lsp` on a large generated document: after didOpen's analysis, after a
documentSymbol request (a large reply), after didClose; printed as MB and as a multiple of the text.

    python3 bench/lsp/memory.py build/cli/attnc --units 11000    # a 1.9 MB document
"""
import argparse
import json
import subprocess
import time


def document(units):
    lines = ["import std.masks;"]
    for i in range(units):
        lines.append(f"mask m{i}(w: int) = causal && q - kv < w + {i % 7};")
        lines.append(f"score s{i}(c: float) = c * tanh(score / c) + float(q - kv) * 0.001;")
        lines.append(f"kernel k{i} {{ mask = m{i}(64); score = s{i}(30.0); }}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("attnc")
    ap.add_argument("--units", type=int, default=11000, help="mask + score + kernel triples")
    a = ap.parse_args()
    text = document(a.units)
    p = subprocess.Popen([a.attnc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)

    def send(msg):
        body = json.dumps(msg).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        p.stdin.flush()

    def receive():
        n = 0
        while True:
            line = p.stdout.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            if line.lower().startswith(b"content-length"):
                n = int(line.split(b":")[1])
        return json.loads(p.stdout.read(n))

    def resident():
        with open(f"/proc/{p.pid}/status") as f:
            return {k: int(v.split()[0]) / 1024 for k, v in (l.split(":", 1) for l in f) if k in ("VmRSS", "VmHWM")}

    uri = "file:///bench/memory.attn"
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    receive()
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    base = resident()["VmRSS"]
    size = len(text.encode()) / 2**20
    print(f"document {size:.2f} MiB; server at rest {base:.0f} MiB")

    def report(step):
        r = resident()
        print(f"{step:<22} resident {r['VmRSS']:7.0f} MiB ({(r['VmRSS'] - base) / size:5.0f}x the text above rest), "
              f"peak {r['VmHWM']:.0f} MiB")

    send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
          "params": {"textDocument": {"uri": uri, "languageId": "attn", "version": 1, "text": text}}})
    t0 = time.time()
    while receive().get("method") != "textDocument/publishDiagnostics":
        pass
    report(f"didOpen ({time.time() - t0:.1f} s)")
    send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": uri}}})
    receive()
    report("documentSymbol")
    send({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
    time.sleep(0.3)
    report("didClose")
    send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    receive()
    send({"jsonrpc": "2.0", "method": "exit"})
    p.wait()


if __name__ == "__main__":
    main()
