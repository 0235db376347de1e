#!/usr/bin/env python3
"""Resident memory of `attnc lsp` per byte of an open document.

Starts the server, opens a generated document of about LINES lines (the generator of
didchange_latency.py), waits for its diagnostics and a documentSymbol answer, and prints the
server's VmRSS before the open, after it (and the ratio of the growth to the text's size), after
one didChange, and after didClose.
Usage: bench/lsp/memory.py [--attnc build/cli/attnc] [--lines 40000]
"""
import argparse, os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from didchange_latency import Client, generate  # noqa: E402


def vm(pid):
    """VmRSS and VmHWM of a process, in KiB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--attnc", default="build/cli/attnc")
    ap.add_argument("--lines", type=int, default=40000)
    args = ap.parse_args()
    text = "\n".join(generate(args.lines)) + "\n"
    c = Client(args.attnc)
    c.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    while c.recv().get("id") != 1:
        pass
    c.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    time.sleep(0.2)
    before = vm(c.p.pid)
    uri = "file:///tmp/attnc-lsp-memory-bench.attn"
    c.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "attn", "version": 1, "text": text}}})
    c.send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
            "params": {"textDocument": {"uri": uri}}})
    while c.recv().get("id") != 2:
        pass
    time.sleep(0.3)
    opened = vm(c.p.pid)
    # One edit: the server analyzes the document again, as it does at each keystroke.
    c.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": uri, "version": 2},
                       "contentChanges": [{"range": {"start": {"line": 1, "character": 0},
                                                     "end": {"line": 1, "character": 0}},
                                           "text": "// edited\n"}]}})
    while True:
        m = c.recv()
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 2:
            break
    time.sleep(1.0)  # a pause in the typing: the server trims its heap when idle (lsp::kIdleAfter)
    edited = vm(c.p.pid)
    c.send({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
    time.sleep(0.5)
    closed = vm(c.p.pid)
    c.p.kill()
    grown = (opened["VmRSS"] - before["VmRSS"]) * 1024
    print(f"text {len(text):,} bytes, {args.lines} lines")
    print(f"VmRSS before open {before['VmRSS'] / 1024:.1f} MiB, open {opened['VmRSS'] / 1024:.1f} MiB "
          f"(+{grown / 2**20:.1f} MiB = {grown / len(text):.0f}x the text), "
          f"after one didChange {edited['VmRSS'] / 1024:.1f} MiB, after didClose {closed['VmRSS'] / 1024:.1f} MiB; VmHWM {opened['VmHWM'] / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
