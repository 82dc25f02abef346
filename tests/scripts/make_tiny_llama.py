#!/usr/bin/env python3
"""A tiny random Llama checkpoint, in the Hugging Face layout, and the expected
output of resources/examples/llama_decode.tpo computed from it.

Writes (deterministically: numpy default_rng(7)):
  resources/examples/data/llama_decode/model.safetensors  the weights, F32, with the
      tensor names of transformers' LlamaForCausalLM (tied embedding: no lm_head.weight)
  resources/examples/data/llama_decode/config.json        its LlamaConfig
  resources/examples/data/llama_decode/prompt.npy         int64 (B, P): the prompts
  tests/golden/examples/llama_decode/logits.npy           float32 (B, T, V)
  tests/golden/examples/llama_decode/tok.npy              int64 (B, T): prompt, then greedy ids
  tests/golden/examples/llama_decode/top3.npy             int64 (B, T, 3): the three likeliest next ids

The expected outputs come from a plain NumPy Llama written below (float64, one sequence
and one position at a time, the whole prefix recomputed per position: no KV cache),
which shares nothing with the engine. check_llama_with_transformers.py compares the
same files with transformers' own LlamaForCausalLM.

Usage (needs numpy only; run by hand, the C++ tests read the committed files):
    python3 tests/scripts/make_tiny_llama.py
"""
import json
import os
import struct

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "resources", "examples", "data", "llama_decode")
GOLDEN = os.path.join(ROOT, "tests", "golden", "examples", "llama_decode")

# Must agree with the constants of resources/examples/llama_decode.tpo.
V, E, L, NH, NKV, FF = 64, 32, 2, 4, 2, 48
D = E // NH
EPS, THETA = 1e-5, 10000.0
B, P, T = 2, 3, 8


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


def logits_at(w, ids):
    """The logits after the last of `ids` (one sequence), recomputing the whole prefix."""
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


def main():
    rng = np.random.default_rng(7)
    w = make_weights(rng)
    prompt = rng.integers(0, V, size=(B, P)).astype(np.int64)
    os.makedirs(DATA, exist_ok=True)
    os.makedirs(GOLDEN, exist_ok=True)
    write_safetensors(os.path.join(DATA, "model.safetensors"), w)
    config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "vocab_size": V, "hidden_size": E,
              "intermediate_size": FF, "num_hidden_layers": L, "num_attention_heads": NH,
              "num_key_value_heads": NKV, "head_dim": D, "hidden_act": "silu", "max_position_embeddings": 64,
              "rms_norm_eps": EPS, "rope_theta": THETA, "tie_word_embeddings": True, "attention_bias": False,
              "mlp_bias": False, "torch_dtype": "float32", "bos_token_id": 0, "eos_token_id": 1}
    with open(os.path.join(DATA, "config.json"), "w") as f:
        json.dump(config, f, indent=2, sort_keys=True)
        f.write("\n")
    np.save(os.path.join(DATA, "prompt.npy"), prompt)

    tok = np.zeros((B, T), np.int64)
    logits = np.zeros((B, T, V))
    margin = np.inf
    for b in range(B):
        tok[b, :P] = prompt[b]
        for t in range(T):
            logits[b, t] = logits_at(w, tok[b, :t + 1])
            top = np.sort(logits[b, t])[-2:]
            if t + 1 < T and t + 1 >= P:
                tok[b, t + 1] = int(np.argmax(logits[b, t]))
                margin = min(margin, top[1] - top[0])
    np.save(os.path.join(GOLDEN, "logits.npy"), logits.astype(np.float32))
    np.save(os.path.join(GOLDEN, "tok.npy"), tok)
    np.save(os.path.join(GOLDEN, "top3.npy"), np.argsort(-logits, axis=-1, kind="stable")[..., :3].astype(np.int64))
    print("prompt", prompt.tolist())
    print("tok", tok.tolist())
    print("logits[0, 0, :4]", logits[0, 0, :4].tolist())
    print(f"smallest gap between the best and second-best logit of a greedy choice: {margin:.4g}")


if __name__ == "__main__":
    main()
