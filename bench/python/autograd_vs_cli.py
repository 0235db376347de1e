"""The FlexAttention drop-in's autograd path against the attnc command line on the same kernels and
shapes, in one run: forward, and forward + backward, median of each, and the ratio of the Python
path's time to the CLI's (what the Python layer costs: tracing, the operator, autograd's
bookkeeping; the CLI runs the generated kernels directly on its own tensors).

    PYTHONPATH=build/python python bench/python/autograd_vs_cli.py [--len 2048] [--iters 5]

The CLI's kernel is the drop-in's own traced text (to_attn, numbers folded in as the drop-in's
`constants=True` does), so both run the same generated code. CPU, f32, B 1, H 8, D 64.
"""

import argparse
import json
import os
import subprocess
import tempfile

import torch

import attnc._cli
import attnc.torch as at
from timing import median_seconds


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def softcap(score, b, h, q_idx, kv_idx):
    return 30.0 * torch.tanh(score / 30.0)


VARIANTS = {"causal": (causal, None), "causal+softcap": (causal, softcap)}


def cli_ms(binary, text, length, iters, backward):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.attn")
        with open(path, "w") as f:
            f.write(text)
        cmd = [binary, "bench", path, "--shape", f"1,8,{length},64", "--iters", str(iters), "--json"]
        r = subprocess.run(cmd + (["--backward"] if backward else []), capture_output=True, text=True, check=True)
        return json.loads(r.stdout)["ms"]["median"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--len", type=int, default=2048)
    ap.add_argument("--iters", type=int, default=5)
    args = ap.parse_args()
    binary = str(attnc._cli.binary())
    L = args.len
    torch.manual_seed(0)
    q, k, v = (torch.randn(1, 8, L, 64, requires_grad=True) for _ in range(3))
    g = torch.randn(1, 8, L, 64)
    print(f"CPU f32, B 1, H 8, L {L}, D 64; median of {args.iters}; {torch.get_num_threads()} threads")
    print(f"{'variant':<16} {'CLI fwd ms':>10} {'py fwd ms':>10} {'py/CLI':>7} {'CLI f+b ms':>10} {'py f+b ms':>10} "
          f"{'py/CLI':>7}")
    for name, (mask_mod, score_mod) in VARIANTS.items():
        text = at.to_attn(mask_mod, score_mod, constants=True)
        mask = at.create_block_mask(mask_mod, None, None, L, L)

        def forward():
            with torch.no_grad():
                at.flex_attention(q, k, v, score_mod=score_mod, block_mask=mask, constants=True)

        def forward_backward():
            out = at.flex_attention(q, k, v, score_mod=score_mod, block_mask=mask, constants=True)
            out.backward(g)

        py_f = median_seconds(forward, args.iters) * 1e3
        py_fb = median_seconds(forward_backward, args.iters) * 1e3
        cli_f = cli_ms(binary, text, L, args.iters, False)
        cli_fb = cli_ms(binary, text, L, args.iters, True)
        print(f"{name:<16} {cli_f:>10.1f} {py_f:>10.1f} {py_f / cli_f:>6.2f}x {cli_fb:>10.1f} {py_fb:>10.1f} "
              f"{py_fb / cli_fb:>6.2f}x")


if __name__ == "__main__":
    main()
