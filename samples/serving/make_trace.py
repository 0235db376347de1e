"""Writes trace.json, the serving trace of samples/serving, `attnc bench --serving` and
bench/python/paged.py: one scheduler step of a server with 64 requests in flight (seeded, so the
file is reproducible: python3 samples/serving/make_trace.py > samples/serving/trace.json).

Prompts are uniform in 100-8000 tokens. Half the requests prefill: this step is the last chunk
(at most 512 tokens) of the prompt, chunked prefill as vLLM schedules it, so q_len <= kv_len = the
prompt. The other half decode: one new token over the prompt and the 1-512 tokens generated so far.
The cache has 16-token pages; the model's attention is Llama-3-8B's (32 query heads over 8
key/value heads, head dimension 128)."""

import json
import random

rng = random.Random(2026)
requests = []
for i in range(64):
    prompt = rng.randint(100, 8000)
    if i % 2 == 0:
        requests.append({"q_len": min(prompt, 512), "kv_len": prompt})
    else:
        requests.append({"q_len": 1, "kv_len": prompt + rng.randint(1, 512)})
trace = {
    "about": "one step of 64 requests: even ones prefill the last <= 512 tokens of a 100-8000 token prompt, "
             "odd ones decode one token; written by samples/serving/make_trace.py",
    "page_size": 16,
    "heads": 32,
    "kv_heads": 8,
    "head_dim": 128,
    "requests": requests,
}
# One request a line.
text = json.dumps(trace, indent=1)
for r in requests:
    text = text.replace(json.dumps(r, indent=1).replace("\n", "\n  "), json.dumps(r), 1)
print(text)
