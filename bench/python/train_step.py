"""One CPU training step (forward, backward, AdamW) of samples/python/train_tiny.py's model with
attnc's causal kernel, SDPA and flex_attention, side by side in one run:

    PYTHONPATH=build/python:samples/python python bench/python/train_step.py [--steps 20]

Every attention gets the same initial weights and batches; the median step time of `--steps` steps
after `--warmup` steps is printed, with its ratio to SDPA. flex_attention has no CPU backward in
some torch versions (NotImplementedError): it prints n/a then.
"""

import argparse
import time

import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

import train_tiny


def step_times(attention, steps, warmup):
    torch.manual_seed(0)
    model = train_tiny.Model(attention)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    times = []
    for i, tokens in enumerate(train_tiny.batches(steps + warmup)):
        t0 = time.perf_counter()
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if i >= warmup:
            times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2] * 1e3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    a = parser.parse_args()
    length = 63  # train_tiny feeds tokens[:, :-1] of 64
    mask = create_block_mask(lambda b, h, q, kv: q >= kv, None, None, length, length, device="cpu")
    attentions = {
        "attnc": train_tiny.LIB.causal_attention,
        "sdpa": lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
        "flex_attention": lambda q, k, v: flex_attention(q, k, v, block_mask=mask),
    }
    results = {}
    for name, attention in attentions.items():
        try:
            results[name] = step_times(attention, a.steps, a.warmup)
        except NotImplementedError as e:
            results[name] = None
            print(f"{name}: n/a ({str(e).splitlines()[0][:100]})")
    print(f"train_tiny step (batch 16, length 63, dim 64, 4 heads, 2 layers), torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, median of {a.steps} steps")
    print("| attention | step (ms) | / sdpa |")
    print("|---|---:|---:|")
    for name, ms in results.items():
        if ms is None:
            print(f"| {name} | n/a | n/a |")
        else:
            print(f"| {name} | {ms:.2f} | {ms / results['sdpa']:.2f} |")


if __name__ == "__main__":
    main()
