"""`attnc run --dout` against PyTorch autograd: a kernel the project has never seen (a learnable
relative-bias table read at two indices per score, a softcap, a sliding window, GQA, value_dim !=
head_dim, dLSE), its gradients from the reference target and from torch.autograd in float64 with
the mask materialized. Usage: torch_autograd.py ATTNC_BINARY"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

KERNEL = """
kernel unseen(table: tensor<f32>[heads, 32]) {
  mask = q >= kv && q - kv < 5;
  score = 6.0 * tanh((score + table[h, q - kv] - 0.5 * table[h, q - kv + 1]) / 6.0);
  lse = true;
}
"""
B, HQ, HKV, LQ, LKV, D, DV = 2, 4, 2, 9, 9, 8, 5


def main(attnc):
    rng = np.random.default_rng(0)
    arrays = {
        "q": rng.standard_normal((B, HQ, LQ, D)),
        "k": rng.standard_normal((B, HKV, LKV, D)),
        "v": rng.standard_normal((B, HKV, LKV, DV)),
        "table": rng.standard_normal((HQ, 32)) * 0.5,
        "dout": rng.standard_normal((B, HQ, LQ, DV)),
        "dlse": rng.standard_normal((B, HQ, LQ)),
    }
    arrays = {n: a.astype(np.float32) for n, a in arrays.items()}
    with tempfile.TemporaryDirectory() as tmp:
        path = lambda n: os.path.join(tmp, n + ".npy")
        for n, a in arrays.items():
            np.save(path(n), a)
        with open(os.path.join(tmp, "k.attn"), "w") as f:
            f.write(KERNEL)
        command = [attnc, "run", os.path.join(tmp, "k.attn"), "unseen", "--arg", "table=" + path("table"),
                   "-o", path("out"), "--grad", "table=" + path("dtable"), "--threads", "2", "-t", "reference"]
        for flag in ("q", "k", "v", "dout", "dlse", "dq", "dk", "dv"):
            command += ["--" + flag, path(flag)]
        subprocess.run(command, check=True)
        got = {n: np.load(path(n)) for n in ("dq", "dk", "dv", "dtable")}

    t = {n: torch.tensor(a, dtype=torch.float64, requires_grad=n in ("q", "k", "v", "table"))
         for n, a in arrays.items()}
    group = HQ // HKV
    k = t["k"].repeat_interleave(group, dim=1)
    v = t["v"].repeat_interleave(group, dim=1)
    s = t["q"] @ k.transpose(-1, -2) / D ** 0.5
    qi = torch.arange(LQ).view(LQ, 1)
    ki = torch.arange(LKV).view(1, LKV)
    rel = (qi - ki).clamp(min=0, max=30)  # the clamp only keeps masked positions in range
    bias = t["table"][:, rel] - 0.5 * t["table"][:, rel + 1]
    s = 6.0 * torch.tanh((s + bias.unsqueeze(0)) / 6.0)
    keep = (qi >= ki) & (qi - ki < 5)
    s = s.masked_fill(~keep, float("-inf"))
    out = torch.softmax(s, dim=-1) @ v
    lse = torch.logsumexp(s, dim=-1)
    ((out * t["dout"]).sum() + (lse * t["dlse"]).sum()).backward()
    want = {"dq": t["q"].grad, "dk": t["k"].grad, "dv": t["v"].grad, "dtable": t["table"].grad}
    worst = 0.0
    for n in want:
        w = want[n].numpy()
        err = float(np.max(np.abs(got[n] - w)) / (1 + np.max(np.abs(w))))
        print(f"{n}: max error {err:.2e} (relative to 1 + max |grad| = {1 + np.max(np.abs(w)):.3f})")
        worst = max(worst, err)
    if worst > 1e-5:
        sys.exit(f"gradients differ from torch.autograd by {worst:.2e}")


if __name__ == "__main__":
    main(sys.argv[1])
