#!/usr/bin/python3
"""PyTorch reference gradients for the RNN example under BPTT.

Reads the RNN example's weights and inputs (resources/examples/data/rnn/*.npy,
float32), computes in float64 the forward pass of resources/examples/rnn.tpo

    h[b, 0] = tanh(x[b, 0] @ W + bias)
    h[b, t] = tanh(x[b, t] @ W + h[b, t-1] @ U + bias)
    y[b]    = mean over t of h[b, t]

and the loss `sum(y * y)` (summed over b, as Tempo sums a loss over its
domain), then its gradients with respect to W, U, bias and the input x by
torch autograd (backpropagation through time). Writes into tests/data/rnn_grad/:

  x.npy W.npy U.npy bias.npy   the example's arrays as float64 (exact copies),
                               loaded by tests/data/rnn_grad/rnn_bptt.tpo
  loss.npy                     the loss, shape ()
  grad_x.npy grad_W.npy grad_U.npy grad_bias.npy   the reference gradients

The files are committed; the C++ test (tests/compiler/AutodiffPyTorchReferenceTest.cpp)
compares Tempo's grad() with them, so neither the build nor CI needs torch.
Run with a Python that has torch and numpy:  /usr/bin/python3 scripts/rnn_grad_reference.py
"""
import os

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE_DATA = os.path.join(ROOT, "resources", "examples", "data", "rnn")
OUT = os.path.join(ROOT, "tests", "data", "rnn_grad")


def load64(name):
    return np.load(os.path.join(EXAMPLE_DATA, name + ".npy")).astype(np.float64)


def main():
    arrays = {name: load64(name) for name in ("x", "W", "U", "bias")}
    x, W, U, bias = (torch.tensor(arrays[n], dtype=torch.float64, requires_grad=True)
                     for n in ("x", "W", "U", "bias"))
    B, T, _ = x.shape
    h = torch.tanh(x[:, 0] @ W + bias)
    states = [h]
    for t in range(1, T):
        h = torch.tanh(x[:, t] @ W + h @ U + bias)
        states.append(h)
    y = torch.stack(states, dim=1).mean(dim=1)  # (B, H)
    loss = (y * y).sum()
    loss.backward()

    os.makedirs(OUT, exist_ok=True)
    for name, value in arrays.items():
        np.save(os.path.join(OUT, name + ".npy"), value)
    np.save(os.path.join(OUT, "loss.npy"), np.array(loss.item(), dtype=np.float64))
    for name, tensor in (("x", x), ("W", W), ("U", U), ("bias", bias)):
        np.save(os.path.join(OUT, "grad_" + name + ".npy"), tensor.grad.numpy())
    print("loss = %.17g; wrote %s" % (loss.item(), OUT))


if __name__ == "__main__":
    main()
