#!/usr/bin/env python3
"""Outside oracle: the examples recomputed in PyTorch (float32, batched, the
way a PyTorch user writes them) and compared with the outputs of our engine.

Usage (by hand; tests never need Python):
    /usr/bin/python3 tests/scripts/check_with_pytorch.py build/app/tempo

Runs `tempo run EXAMPLE --out DIR` for each example, loads DIR/*.npy and
prints the largest relative error per output against PyTorch; exits 1 if any
exceeds 1e-4 (relative to max|value|, so values near zero do not blow up).
Needs python3-torch and python3-numpy (Debian packages)."""
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "resources", "examples")


def load(example, name):
    return torch.from_numpy(np.load(os.path.join(EX, "data", example, name + ".npy")))


def rnn():
    x, W, U, b = (load("rnn", n) for n in ("x", "W", "U", "bias"))
    B, T, _ = x.shape
    h = torch.zeros(B, W.shape[1])
    hs = []
    for t in range(T):
        h = torch.tanh(x[:, t] @ W + (h @ U if t > 0 else 0) + b)
        hs.append(h)
    H = torch.stack(hs, 1)
    return {"h": H, "y": H.mean(1)}


def attention(example, window):
    x, Wq, Wk, Wv = (load(example, n) for n in ("x", "Wq", "Wk", "Wv"))
    B, T, _ = x.shape
    q, k, v = x @ Wq, x @ Wk, x @ Wv                      # (B, T, D)
    scores = q @ k.transpose(1, 2) / Wq.shape[1] ** 0.5   # (B, T, T)
    t = torch.arange(T)
    mask = t[None, :] <= t[:, None]
    if window is not None:
        mask &= t[None, :] > t[:, None] - window
    scores = scores.masked_fill(~mask, float("-inf"))
    return {"o": torch.softmax(scores, -1) @ v}


def returns():
    r = load("returns", "r")
    g = torch.zeros_like(r)
    g[:, -1] = r[:, -1]
    for t in reversed(range(r.shape[1] - 1)):
        g[:, t] = r[:, t] + 0.9 * g[:, t + 1]
    G = torch.flip(torch.cumsum(torch.flip(r, [1]), 1), [1])
    return {"g": g, "G": G}


def gpt(example, window):
    P = {n: load(example, n) for n in ("x0", "Wq", "Wk", "Wv", "Wo", "W1", "W2", "g1", "g2")}
    L, E, _ = P["Wq"].shape
    NH, D, T = 2, 8, 8
    ln = torch.nn.functional.layer_norm
    K = [[] for _ in range(L)]
    V = [[] for _ in range(L)]
    y = torch.zeros(L, T, E)
    x = P["x0"]
    for t in range(T):
        for l in range(L):
            n1 = ln(x, (E,), eps=1e-5) * P["g1"][l]
            q = (n1 @ P["Wq"][l]).view(NH, D)
            K[l].append((n1 @ P["Wk"][l]).view(NH, D))
            V[l].append((n1 @ P["Wv"][l]).view(NH, D))
            lo = 0 if window is None else max(0, t - window + 1)
            k = torch.stack(K[l][lo:], 1)  # (NH, S, D)
            v = torch.stack(V[l][lo:], 1)
            att = torch.softmax((k @ q.unsqueeze(-1)).squeeze(-1) / D ** 0.5, -1)  # (NH, S)
            a = x + (att.unsqueeze(1) @ v).reshape(E) @ P["Wo"][l]
            n2 = ln(a, (E,), eps=1e-5) * P["g2"][l]
            x = a + torch.relu(n2 @ P["W1"][l]) @ P["W2"][l]
            y[l, t] = x
    return {"y": y, "last": y[L - 1]}


CASES = {
    "rnn": rnn,
    "attention_causal": lambda: attention("attention_causal", None),
    "attention_window": lambda: attention("attention_window", 4),
    "returns": returns,
    "gpt_decode": lambda: gpt("gpt_decode", None),
    "gpt_decode_window": lambda: gpt("gpt_decode_window", 3),
}


def main():
    tempo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "app", "tempo")
    worst = 0.0
    print("| example | output | shape | max rel. error vs PyTorch |")
    print("|---|---|---|---|")
    for name, fn in CASES.items():
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([tempo, "run", os.path.join(EX, name + ".tpo"), "--out", out],
                           check=True, stdout=subprocess.DEVNULL)
            with torch.no_grad():
                expected = fn()
            for out_name, ref in expected.items():
                got = np.load(os.path.join(out, out_name + ".npy"))
                ref = ref.numpy().astype(np.float64)
                assert got.shape == ref.shape, (name, out_name, got.shape, ref.shape)
                err = float(np.max(np.abs(got - ref)) / max(np.max(np.abs(ref)), 1e-30))
                worst = max(worst, err)
                print("| %s | %s | %s | %.2e |" % (name, out_name, got.shape, err))
    print("worst: %.2e (%s)" % (worst, "ok" if worst <= 1e-4 else "FAIL"))
    return 0 if worst <= 1e-4 else 1


if __name__ == "__main__":
    sys.exit(main())
