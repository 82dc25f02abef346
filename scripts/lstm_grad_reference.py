#!/usr/bin/python3
"""PyTorch reference gradients for an LSTM under BPTT (coupled recurrences, issue 14).

Makes the arrays of tests/data/lstm_grad/lstm_bptt.tpo (float64, numpy's default_rng(14)),
computes its forward pass

    c[b, 0] = sigmoid(x[b, 0] @ Wi) * tanh(x[b, 0] @ Wg)
    h[b, 0] = sigmoid(x[b, 0] @ Wo) * tanh(c[b, 0])
    c[b, t] = sigmoid(x @ Wf + h[t-1] @ Uf + bf) * c[t-1] + sigmoid(x @ Wi + h[t-1] @ Ui) * tanh(x @ Wg + h[t-1] @ Ug)
    h[b, t] = sigmoid(x @ Wo + h[t-1] @ Uo) * tanh(c[b, t])

and the loss sum(h * h) over every b and t, then its gradients with respect to Wf, Ui, Uf,
Uo, bf and the input x by torch autograd. Writes the arrays, loss.npy and grad_*.npy into
tests/data/lstm_grad/. The files are committed; the C++ test compares Tempo's grad() with
them, so neither the build nor CI needs torch.
Run with a Python that has torch and numpy:  python3 scripts/lstm_grad_reference.py
"""
import os

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "lstm_grad")
B, T, IN, H = 3, 7, 4, 5
TARGETS = ("Wf", "Ui", "Uf", "Uo", "bf", "x")


def main():
    rng = np.random.default_rng(14)
    arrays = {"x": rng.normal(size=(B, T, IN))}
    for name in ("Wi", "Wf", "Wg", "Wo"):
        arrays[name] = rng.normal(scale=0.5, size=(IN, H))
    for name in ("Ui", "Uf", "Ug", "Uo"):
        arrays[name] = rng.normal(scale=0.5, size=(H, H))
    arrays["bf"] = rng.normal(scale=0.1, size=(H,))
    v = {n: torch.tensor(a, dtype=torch.float64, requires_grad=True) for n, a in arrays.items()}
    x = v["x"]
    c = torch.sigmoid(x[:, 0] @ v["Wi"]) * torch.tanh(x[:, 0] @ v["Wg"])
    h = torch.sigmoid(x[:, 0] @ v["Wo"]) * torch.tanh(c)
    states = [h]
    for t in range(1, T):
        xt = x[:, t]
        c = (torch.sigmoid(xt @ v["Wf"] + h @ v["Uf"] + v["bf"]) * c
             + torch.sigmoid(xt @ v["Wi"] + h @ v["Ui"]) * torch.tanh(xt @ v["Wg"] + h @ v["Ug"]))
        h = torch.sigmoid(xt @ v["Wo"] + h @ v["Uo"]) * torch.tanh(c)
        states.append(h)
    hs = torch.stack(states, dim=1)
    loss = (hs * hs).sum()
    loss.backward()

    os.makedirs(OUT, exist_ok=True)
    for name, value in arrays.items():
        np.save(os.path.join(OUT, name + ".npy"), value)
    np.save(os.path.join(OUT, "loss.npy"), np.array(loss.item(), dtype=np.float64))
    for name in TARGETS:
        np.save(os.path.join(OUT, "grad_" + name + ".npy"), v[name].grad.numpy())
    print("loss = %.17g; wrote %s" % (loss.item(), OUT))


if __name__ == "__main__":
    main()
