#!/usr/bin/env python3
"""A tiny random Llama checkpoint, in the Hugging Face layout, and the expected
outputs of resources/examples/llama_decode.tpo and llama_sample.tpo computed from it.

Writes (deterministically: numpy default_rng(7)):
  resources/examples/data/llama_decode/model.safetensors  the weights, F32, with the
      tensor names of transformers' LlamaForCausalLM (tied embedding: no lm_head.weight)
  resources/examples/data/llama_decode/config.json        its LlamaConfig (eos_token_id below)
  resources/examples/data/llama_decode/prompt.npy         int64 (B, P): the prompts
  tests/golden/examples/llama_decode/logits.npy           float32 (B, S, V)
  tests/golden/examples/llama_decode/tok.npy              int64 (B, S): prompt, then greedy ids
  tests/golden/examples/llama_decode/top3.npy             int64 (B, S, 3): the three likeliest next ids
  tests/golden/examples/llama_decode/fin.npy              bool (B, S): the sequence has finished
  tests/golden/examples/llama_sample/tok.npy              int64 (S', B): prompt, then top-k samples
  tests/golden/examples/llama_sample/fin.npy              bool (S', B)

Both examples decode until every sequence has generated the end-of-sequence id (at most
T_GREEDY and T_SAMPLE positions); S and S' are the positions run, the step where the last
sequence finished plus one, and a finished sequence is padded with EOS (transformers'
generate with pad_token_id = eos_token_id). The model is random, so no id means "end":
EOS is the id that ends greedy decoding of both prompts soonest (the prompts' ids and
BOS excluded), and SEED, the sampling example's seed, is the smallest that makes both
sampled sequences end within T_SAMPLE, so that each example shows its stop.

The expected outputs come from a plain NumPy Llama written below (float64, one sequence
and one position at a time, the whole prefix recomputed per position: no KV cache),
which shares nothing with the engine; the samples use the documented draws of
`categorical` (docs/language.md: splitmix64 bits, one uniform per (t, b) numbered
t * B + b, class = how many of the first TOPK - 1 cumulative probabilities are below it).
check_llama_with_transformers.py compares the greedy files with transformers' own
LlamaForCausalLM and generate().

Usage (needs numpy only; run by hand, the C++ tests read the committed files):
    python3 tests/scripts/make_tiny_llama.py
"""
import json
import os
import re
import struct

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "resources", "examples", "data", "llama_decode")
GOLDEN = os.path.join(ROOT, "tests", "golden", "examples", "llama_decode")
GOLDEN_SAMPLE = os.path.join(ROOT, "tests", "golden", "examples", "llama_sample")
EXAMPLES = os.path.join(ROOT, "resources", "examples")

# Must agree with the constants of resources/examples/llama_decode.tpo and llama_sample.tpo
# (main() checks EOS, TOPK, SEED and T there).
V, E, L, NH, NKV, FF = 64, 32, 2, 4, 2, 48
D = E // NH
EPS, THETA = 1e-5, 10000.0
B, P = 2, 3
T_GREEDY, T_SAMPLE, TOPK = 16, 24, 5
BOS = 0


def make_weights(rng):
    w = {"model.embed_tokens.weight": 0.5 * rng.standard_normal((V, E)),
         "model.norm.weight": 1.0 + 0.1 * rng.standard_normal(E)}
    for l in range(L):
        pre = f"model.layers.{l}."
        w[pre + "input_layernorm.weight"] = 1.0 + 0.1 * rng.standard_normal(E)
        w[pre + "post_attention_layernorm.weight"] = 1.0 + 0.1 * rng.standard_normal(E)
        for name, (out, inp) in {"self_attn.q_proj": (NH * D, E), "self_attn.k_proj": (NKV * D, E),
                                 "self_attn.v_proj": (NKV * D, E), "self_attn.o_proj": (E, NH * D),
                                 "mlp.gate_proj": (FF, E), "mlp.up_proj": (FF, E),
                                 "mlp.down_proj": (E, FF)}.items():
            w[pre + name + ".weight"] = 2.0 * rng.standard_normal((out, inp)) / np.sqrt(inp)
    return {k: v.astype(np.float32) for k, v in w.items()}


def write_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name in sorted(tensors):
        data = np.ascontiguousarray(tensors[name], dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensors[name].shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def rmsnorm(x, w):
    return x / np.sqrt(np.mean(x * x) + EPS) * w


def rope(v, pos):
    """v: (heads, D); rotates pairs (i, i + D/2) by pos * THETA^(-2i/D), as rotate_half does."""
    inv = 1.0 / THETA ** (np.arange(0, D, 2) / D)
    c, s = np.cos(pos * inv), np.sin(pos * inv)
    a, b = v[:, :D // 2], v[:, D // 2:]
    return np.concatenate([a * c - b * s, b * c + a * s], axis=1)


_CACHE = {}


def logits_at(w, ids):
    """The logits after the last of `ids` (one sequence), recomputing the whole prefix."""
    key = tuple(int(i) for i in ids)
    if key not in _CACHE:
        _CACHE[key] = _logits_at(w, ids)
    return _CACHE[key]


def _logits_at(w, ids):
    g = {k: v.astype(np.float64) for k, v in w.items()}
    S = len(ids)
    x = g["model.embed_tokens.weight"][ids]                    # (S, E)
    for l in range(L):
        pre = f"model.layers.{l}."
        n = np.stack([rmsnorm(r, g[pre + "input_layernorm.weight"]) for r in x])
        q = [rope((n[s] @ g[pre + "self_attn.q_proj.weight"].T).reshape(NH, D), s) for s in range(S)]
        k = [rope((n[s] @ g[pre + "self_attn.k_proj.weight"].T).reshape(NKV, D), s) for s in range(S)]
        v = [(n[s] @ g[pre + "self_attn.v_proj.weight"].T).reshape(NKV, D) for s in range(S)]
        att = np.zeros((S, NH, D))
        for s in range(S):
            for h in range(NH):
                kv = h // (NH // NKV)                           # grouped-query attention
                scores = np.array([q[s][h] @ k[j][kv] for j in range(s + 1)]) / np.sqrt(D)
                p = np.exp(scores - scores.max())
                p /= p.sum()
                att[s, h] = sum(p[j] * v[j][kv] for j in range(s + 1))
        a = x + att.reshape(S, NH * D) @ g[pre + "self_attn.o_proj.weight"].T
        n2 = np.stack([rmsnorm(r, g[pre + "post_attention_layernorm.weight"]) for r in a])
        gate = n2 @ g[pre + "mlp.gate_proj.weight"].T
        up = n2 @ g[pre + "mlp.up_proj.weight"].T
        x = a + (gate / (1.0 + np.exp(-gate)) * up) @ g[pre + "mlp.down_proj.weight"].T
    return rmsnorm(x[-1], g["model.norm.weight"]) @ g["model.embed_tokens.weight"].T


MASK64 = (1 << 64) - 1


def u01(seed, n):
    """The n-th uniform of `seed`: splitmix64's n-th output, its top 53 bits (docs/language.md)."""
    z = (seed + (n + 1) * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return (z >> 11) * 2.0 ** -53


def decode(w, prompt, steps, choose, eos):
    """Tokens (B, S) and logits (B, S, V) until every sequence has generated `eos` (S <= steps):
    position t + 1 of sequence b is choose(logits, t, b), or eos once b has finished."""
    tok = np.zeros((B, steps), np.int64)
    logits = np.zeros((B, steps, V))
    fin = np.zeros((B, steps), bool)
    tok[:, :P] = prompt
    for t in range(steps):
        for b in range(B):
            if t >= P:
                tok[b, t] = eos if fin[b, t - 1] else choose(logits, t - 1, b)
                fin[b, t] = fin[b, t - 1] or tok[b, t] == eos
            logits[b, t] = logits_at(w, tok[b, :t + 1])
        if fin[:, t].all():
            return tok[:, :t + 1], logits[:, :t + 1], fin[:, :t + 1]
    return tok, logits, fin


def greedy(logits, t, b):
    return int(np.argmax(logits[b, t]))


def sampler(seed, margins):
    """Top-k sampling with the draws of `categorical(topk(logits, TOPK), seed=seed)` over (t, b)."""
    def choose(logits, t, b):
        best = np.argsort(-logits[b, t], kind="stable")[:TOPK]
        p = np.exp(logits[b, t][best] - logits[b, t][best].max())
        cdf = np.cumsum(p / p.sum())[:TOPK - 1]
        u = u01(seed, t * B + b)
        margins.append(np.min(np.abs(cdf - u)))
        return int(best[np.sum(cdf < u)])
    return choose


def first_generated(tok, ident):
    """The first position at or after P where each sequence has `ident`; T_GREEDY where none has."""
    hits = [[t for t in range(P, tok.shape[1]) if tok[b, t] == ident] for b in range(B)]
    return max(h[0] if h else T_GREEDY for h in hits)


def tpo_const(name, example):
    text = open(os.path.join(EXAMPLES, example)).read()
    m = re.search(r"\b" + name + r" = (\d+)", text)
    return int(m.group(1)) if m else None


def check_example(example, name, value):
    found = tpo_const(name, example)
    if found != value:
        raise SystemExit(f"{example}: {name} = {found}, but this script computed {value}: update the example")


def main():
    rng = np.random.default_rng(7)
    w = make_weights(rng)
    prompt = rng.integers(0, V, size=(B, P)).astype(np.int64)
    os.makedirs(DATA, exist_ok=True)
    os.makedirs(GOLDEN, exist_ok=True)
    os.makedirs(GOLDEN_SAMPLE, exist_ok=True)

    # EOS: with no end id, greedy decoding runs T_GREEDY positions; the id whose first
    # generation in both sequences comes soonest ends it soonest.
    plain, _, _ = decode(w, prompt, T_GREEDY, greedy, eos=-1)
    candidates = [i for i in range(V) if i != BOS and i not in prompt]
    eos = min(candidates, key=lambda i: (first_generated(plain, i), i))
    if first_generated(plain, eos) >= T_GREEDY - 1:
        raise SystemExit("no id ends greedy decoding within T_GREEDY positions")

    write_safetensors(os.path.join(DATA, "model.safetensors"), w)
    config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "vocab_size": V, "hidden_size": E,
              "intermediate_size": FF, "num_hidden_layers": L, "num_attention_heads": NH,
              "num_key_value_heads": NKV, "head_dim": D, "hidden_act": "silu", "max_position_embeddings": 64,
              "rms_norm_eps": EPS, "rope_theta": THETA, "tie_word_embeddings": True, "attention_bias": False,
              "mlp_bias": False, "torch_dtype": "float32", "bos_token_id": BOS, "eos_token_id": eos,
              "pad_token_id": eos}
    with open(os.path.join(DATA, "config.json"), "w") as f:
        json.dump(config, f, indent=2, sort_keys=True)
        f.write("\n")
    np.save(os.path.join(DATA, "prompt.npy"), prompt)

    tok, logits, fin = decode(w, prompt, T_GREEDY, greedy, eos)
    gaps = [np.diff(np.sort(logits[b, t])[-2:])[0] for b in range(B) for t in range(P - 1, tok.shape[1] - 1)]
    np.save(os.path.join(GOLDEN, "logits.npy"), logits.astype(np.float32))
    np.save(os.path.join(GOLDEN, "tok.npy"), tok)
    np.save(os.path.join(GOLDEN, "top3.npy"), np.argsort(-logits, axis=-1, kind="stable")[..., :3].astype(np.int64))
    np.save(os.path.join(GOLDEN, "fin.npy"), fin)

    for seed in range(1, 1000):
        margins = []
        stok, _, sfin = decode(w, prompt, T_SAMPLE, sampler(seed, margins), eos)
        if sfin[:, -1].all():
            break
    else:
        raise SystemExit("no seed below 1000 ends both sampled sequences within T_SAMPLE positions")
    np.save(os.path.join(GOLDEN_SAMPLE, "tok.npy"), stok.T.copy())  # (S', B): t is the example's first dim
    np.save(os.path.join(GOLDEN_SAMPLE, "fin.npy"), sfin.T.copy())

    for example in ("llama_decode.tpo", "llama_sample.tpo"):
        check_example(example, "EOS", eos)
    check_example("llama_decode.tpo", "T", T_GREEDY)
    check_example("llama_sample.tpo", "T", T_SAMPLE)
    check_example("llama_sample.tpo", "TOPK", TOPK)
    check_example("llama_sample.tpo", "SEED", seed)
    print("prompt", prompt.tolist())
    print(f"EOS {eos}; greedy: {tok.shape[1]} of {T_GREEDY} positions")
    print("tok", tok.tolist())
    print("logits[0, 0, :4]", logits[0, 0, :4].tolist())
    print(f"smallest gap between the best and second-best logit of a greedy choice: {min(gaps):.4g}")
    print(f"SEED {seed}; sampled: {stok.shape[1]} of {T_SAMPLE} positions")
    print("sampled tok", stok.tolist())
    print(f"smallest distance between a draw and a cumulative probability: {min(margins):.4g}")


if __name__ == "__main__":
    main()
