#!/usr/bin/env python3
"""Generate the data of resources/examples/*.tpo and their expected outputs.

1. Writes every input/param array the example programs load (float32, deterministic:
   numpy default_rng with a fixed seed per example).
2. Re-reads those float32 files and computes every `out` of every example with a
   plain, independent NumPy reference (float64 math, loops over the dimensions),
   then stores the result as float32 under tests/golden/examples/NAME/OUT.npy.

Output layout (the same as `tempo run` writes): the bounds of the output's domain in
dim-declaration order, then its spatial shape.

Nothing here shares code with the C++ engine. Run once by hand and commit the results:

    /usr/bin/python3 tests/scripts/make_example_goldens.py
"""
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EX = os.path.join(ROOT, "resources", "examples")
GOLD = os.path.join(ROOT, "tests", "golden", "examples")

F32 = np.float32


# ----------------------------------------------------------------------------- io
def save_data(rel, arr, dtype=F32):
    """Save an input/param array; rel is relative to resources/examples."""
    path = os.path.join(EX, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.save(path, np.ascontiguousarray(arr, dtype=dtype))


def load_data(rel):
    """Read a data file back and widen it to float64 for the reference math."""
    a = np.load(os.path.join(EX, rel))
    assert a.dtype in (F32, np.float64), (rel, a.dtype)
    return a.astype(np.float64)


SUMMARY = []


def save_out(example, name, arr, shape):
    arr = np.asarray(arr, dtype=np.float64)
    assert arr.shape == tuple(shape), (example, name, arr.shape, shape)
    assert np.all(np.isfinite(arr)), (example, name)
    path = os.path.join(GOLD, example, name + ".npy")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.save(path, arr.astype(F32))
    SUMMARY.append((example, name, arr.shape, arr))


# ---------------------------------------------------------------------- helpers
def softmax(z, axis):
    z = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


def layer_norm(x, gain, eps=1e-5):
    mu = np.mean(x)
    xc = x - mu
    var = np.mean(xc * xc)
    return xc / np.sqrt(var + eps) * gain


def normal(rng, shape, std):
    return rng.standard_normal(shape) * std


# ---------------------------------------------------------------------------- rnn
def rnn():
    B, T, IN, H = 4, 16, 5, 8
    rng = np.random.default_rng(1001)
    d = "data/rnn/"
    save_data(d + "x.npy", normal(rng, (B, T, IN), 1.0))
    save_data(d + "W.npy", normal(rng, (IN, H), 1.0 / np.sqrt(IN)))
    save_data(d + "U.npy", normal(rng, (H, H), 0.7 / np.sqrt(H)))
    save_data(d + "bias.npy", normal(rng, (H,), 0.1))

    x, W, U, bias = (load_data(d + n) for n in ("x.npy", "W.npy", "U.npy", "bias.npy"))
    h = np.zeros((B, T, H))
    for b in range(B):
        for t in range(T):
            pre = x[b, t] @ W + bias
            if t > 0:
                pre = pre + h[b, t - 1] @ U
            h[b, t] = np.tanh(pre)
    y = np.zeros((B, H))
    for b in range(B):
        y[b] = np.mean(h[b, 0:T], axis=0)
    save_out("rnn", "y", y, (B, H))
    save_out("rnn", "h", h, (B, T, H))


# ---------------------------------------------------------------------- attention
def attention(name, window, seed):
    B, T, E, D = 2, 12, 8, 8
    rng = np.random.default_rng(seed)
    d = "data/%s/" % name
    save_data(d + "x.npy", normal(rng, (B, T, E), 1.0))
    for w in ("Wq", "Wk", "Wv"):
        save_data(d + w + ".npy", normal(rng, (E, D), 1.0 / np.sqrt(E)))

    x, Wq, Wk, Wv = (load_data(d + n + ".npy") for n in ("x", "Wq", "Wk", "Wv"))
    o = np.zeros((B, T, D))
    for b in range(B):
        for t in range(T):
            lo = 0 if window is None else max(0, t - window + 1)
            q = x[b, t] @ Wq
            K = np.stack([x[b, s] @ Wk for s in range(lo, t + 1)])  # (S, D)
            V = np.stack([x[b, s] @ Wv for s in range(lo, t + 1)])
            assert K.shape == (t + 1 - lo, D)
            scores = (K @ q) / np.sqrt(D)
            att = softmax(scores, axis=0)
            o[b, t] = att @ V
    save_out(name, "o", o, (B, T, D))


# ------------------------------------------------------------------------ returns
def returns():
    B, T, GAMMA = 3, 10, 0.9
    rng = np.random.default_rng(1004)
    d = "data/returns/"
    save_data(d + "r.npy", np.round(rng.uniform(-1.0, 1.0, (B, T)), 2))

    r = load_data(d + "r.npy")
    g = np.zeros((B, T))
    G = np.zeros((B, T))
    for b in range(B):
        for t in reversed(range(T)):
            g[b, t] = r[b, t] if t == T - 1 else r[b, t] + GAMMA * g[b, t + 1]
            G[b, t] = np.sum(r[b, t:T])
    save_out("returns", "g", g, (B, T))
    save_out("returns", "G", G, (B, T))


# ---------------------------------------------------------------------------- gpt
def gpt(name, win, seed):
    L, T, E, NH, D, FF = 2, 8, 16, 2, 8, 32
    assert NH * D == E
    rng = np.random.default_rng(seed)
    d = "data/%s/" % name
    save_data(d + "x0.npy", normal(rng, (E,), 1.0))
    for w in ("Wq", "Wk", "Wv"):
        save_data(d + w + ".npy", normal(rng, (L, E, E), 1.0 / np.sqrt(E)))
    save_data(d + "Wo.npy", normal(rng, (L, E, E), 0.25 / np.sqrt(E)))
    save_data(d + "W1.npy", normal(rng, (L, E, FF), 1.0 / np.sqrt(E)))
    save_data(d + "W2.npy", normal(rng, (L, FF, E), 0.25 / np.sqrt(FF)))
    save_data(d + "g1.npy", 1.0 + normal(rng, (L, E), 0.1))
    save_data(d + "g2.npy", 1.0 + normal(rng, (L, E), 0.1))

    P = {n: load_data(d + n + ".npy")
         for n in ("x0", "Wq", "Wk", "Wv", "Wo", "W1", "W2", "g1", "g2")}
    x = np.zeros((L, T, E))
    y = np.zeros((L, T, E))
    k = np.zeros((L, T, NH, D))
    v = np.zeros((L, T, NH, D))
    # Evaluate in the only order the dependences allow: position-major, then layer.
    for t in range(T):
        for l in range(L):
            if l == 0 and t == 0:
                x[l, t] = P["x0"]
            elif l == 0:
                x[l, t] = y[L - 1, t - 1]
            else:
                x[l, t] = y[l - 1, t]
            n1 = layer_norm(x[l, t], P["g1"][l])
            q = (n1 @ P["Wq"][l]).reshape(NH, D)
            k[l, t] = (n1 @ P["Wk"][l]).reshape(NH, D)
            v[l, t] = (n1 @ P["Wv"][l]).reshape(NH, D)
            lo = 0 if win is None else max(0, t - win + 1)
            heads = np.zeros((NH, D))
            for hd in range(NH):  # per head, without the permute/reshape tricks
                Kh = k[l, lo:t + 1, hd, :]  # (S, D)
                Vh = v[l, lo:t + 1, hd, :]
                att = softmax(Kh @ q[hd] / np.sqrt(D), axis=0)
                heads[hd] = att @ Vh
            a = x[l, t] + heads.reshape(E) @ P["Wo"][l]
            n2 = layer_norm(a, P["g2"][l])
            y[l, t] = a + np.maximum(n2 @ P["W1"][l], 0.0) @ P["W2"][l]
    save_out(name, "y", y, (L, T, E))
    save_out(name, "last", y[L - 1], (T, E))


# ----------------------------------------------------------------------- training
# The optimisers as torch.optim documents them (SGD without dampening, Adam
# without amsgrad) and clip_grad_norm_; f64 programs with f64 data.
class Adam:
    def __init__(self, lr, b1=0.9, b2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps, self.m, self.v, self.t = lr, b1, b2, eps, {}, {}, 0

    def step(self, params, grads):
        self.t += 1
        for k in params:
            g = grads[k]
            self.m[k] = self.b1 * self.m.get(k, 0.0) + (1 - self.b1) * g
            self.v[k] = self.b2 * self.v.get(k, 0.0) + (1 - self.b2) * g * g
            m_hat = self.m[k] / (1 - self.b1 ** self.t)
            v_hat = self.v[k] / (1 - self.b2 ** self.t)
            params[k] = params[k] - self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


def clip(grads, max_norm):
    norm = np.sqrt(sum(np.sum(g * g) for g in grads.values()))
    coef = min(max_norm / (norm + 1e-6), 1.0)
    return {k: g * coef for k, g in grads.items()}


def rnn_train():
    I, B, T, H = 30, 4, 8, 8
    rng = np.random.default_rng(1007)
    d = "data/rnn_train/"
    save_data(d + "x.npy", rng.uniform(-1, 1, (B, T)), np.float64)
    save_data(d + "Wx.npy", normal(rng, (H,), 0.5), np.float64)
    save_data(d + "U.npy", normal(rng, (H, H), 0.3), np.float64)
    save_data(d + "V.npy", normal(rng, (H,), 0.3), np.float64)
    x = load_data(d + "x.npy")
    p = {"Wx": load_data(d + "Wx.npy"), "U": load_data(d + "U.npy"), "bh": np.zeros(H),
         "V": load_data(d + "V.npy"), "c": np.zeros(())}
    target = np.zeros((B, T))
    target[:, 1:] = x[:, :-1]
    opt = Adam(0.05)
    losses = []
    for _ in range(I):
        h = np.zeros((B, T, H))
        for b in range(B):
            for t in range(T):
                pre = x[b, t] * p["Wx"] + p["bh"]
                if t > 0:
                    pre = pre + h[b, t - 1] @ p["U"]
                h[b, t] = np.tanh(pre)
        err = h @ p["V"] + p["c"] - target
        losses.append(np.sum(err * err) / (B * T))
        # Backpropagation through time.
        g = {k: np.zeros_like(v) for k, v in p.items()}
        for b in range(B):
            dh_next = np.zeros(H)
            for t in reversed(range(T)):
                dpred = 2 * err[b, t] / (B * T)
                g["V"] += dpred * h[b, t]
                g["c"] += dpred
                dh = dpred * p["V"] + dh_next
                da = dh * (1 - h[b, t] ** 2)
                g["Wx"] += da * x[b, t]
                g["bh"] += da
                if t > 0:
                    g["U"] += np.outer(h[b, t - 1], da)
                dh_next = p["U"] @ da
        opt.step(p, g)
    save_out("rnn_train", "loss", losses, (I,))
    assert losses[-1] < losses[0] / 10, (losses[0], losses[-1])


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def gated_rnn_task(name, seed, gates, B=4, T=10, H=8, delay=2):
    """The data of a gated RNN example (lstm_train, gru_train): a (B, T) input, per gate
    an input weight vector W and a recurrent matrix U (zero biases b), the readout V and
    cb; the target is the input `delay` steps before. Returns x, the params, the target."""
    rng = np.random.default_rng(seed)
    d = "data/" + name + "/"
    save_data(d + "x.npy", rng.uniform(-1, 1, (B, T)), np.float64)
    for k in gates:
        save_data(d + "W" + k + ".npy", normal(rng, (H,), 0.5), np.float64)
    for k in gates:
        save_data(d + "U" + k + ".npy", normal(rng, (H, H), 0.3), np.float64)
    save_data(d + "V.npy", normal(rng, (H,), 0.3), np.float64)
    x = load_data(d + "x.npy")
    p = {"V": load_data(d + "V.npy"), "cb": np.zeros(())}
    for k in gates:
        p["W" + k], p["U" + k], p["b" + k] = load_data(d + "W" + k + ".npy"), load_data(d + "U" + k + ".npy"), np.zeros(H)
    target = np.zeros((B, T))
    target[:, delay:] = x[:, :-delay]
    return x, p, target


def lstm_train():
    """An LSTM (coupled recurrences c and h) trained by a hand-written BPTT and Adam."""
    I, B, T, H = 60, 4, 10, 8
    gates = "ifgo"
    x, p, target = gated_rnn_task("lstm_train", 1011, gates, B, T, H)
    opt = Adam(0.05)
    losses = []
    for _ in range(I):
        h, c, saved = np.zeros((B, T, H)), np.zeros((B, T, H)), {}
        for t in range(T):
            hp = h[:, t - 1] if t > 0 else np.zeros((B, H))
            cp = c[:, t - 1] if t > 0 else np.zeros((B, H))
            a = {k: x[:, t, None] * p["W" + k] + p["b" + k] + (hp @ p["U" + k] if t > 0 else 0) for k in gates}
            i_, f_, g_, o_ = sigmoid(a["i"]), sigmoid(a["f"]), np.tanh(a["g"]), sigmoid(a["o"])
            if t == 0:
                f_ = np.zeros((B, H))  # c[0] = i * g: no forget term
            c[:, t] = f_ * cp + i_ * g_
            h[:, t] = o_ * np.tanh(c[:, t])
            saved[t] = (i_, f_, g_, o_, hp, cp)
        err = h @ p["V"] + p["cb"] - target
        losses.append(np.sum(err * err) / (B * T))
        # Backpropagation through time, through both recurrences.
        g = {k: np.zeros_like(v) for k, v in p.items()}
        dh_next, dc_next = np.zeros((B, H)), np.zeros((B, H))
        for t in reversed(range(T)):
            i_, f_, g_, o_, hp, cp = saved[t]
            dpred = 2 * err[:, t] / (B * T)
            g["V"] += dpred @ h[:, t]
            g["cb"] += dpred.sum()
            dh = dpred[:, None] * p["V"] + dh_next
            tc = np.tanh(c[:, t])
            dc = dh * o_ * (1 - tc ** 2) + dc_next
            da = {"i": dc * g_ * i_ * (1 - i_), "f": dc * cp * f_ * (1 - f_), "g": dc * i_ * (1 - g_ ** 2),
                  "o": dh * tc * o_ * (1 - o_)}
            if t == 0:
                da["f"] = np.zeros((B, H))
            dh_next = np.zeros((B, H))
            for k in gates:
                g["W" + k] += da[k].T @ x[:, t]
                g["b" + k] += da[k].sum(axis=0)
                if t > 0:
                    g["U" + k] += hp.T @ da[k]
                    dh_next += da[k] @ p["U" + k].T
            dc_next = dc * f_
        opt.step(p, g)
    save_out("lstm_train", "loss", losses, (I,))
    assert losses[-1] < losses[0] / 10, (losses[0], losses[-1])


def gru_train():
    """A GRU (PyTorch's gate convention) trained by a hand-written BPTT and Adam."""
    I, B, T, H = 60, 4, 10, 8
    gates = "rzn"
    x, p, target = gated_rnn_task("gru_train", 1013, gates, B, T, H)
    opt = Adam(0.05)
    losses = []
    for _ in range(I):
        h, saved = np.zeros((B, T, H)), {}
        for t in range(T):
            hp = h[:, t - 1] if t > 0 else np.zeros((B, H))
            r = sigmoid(x[:, t, None] * p["Wr"] + hp @ p["Ur"] + p["br"])
            z = sigmoid(x[:, t, None] * p["Wz"] + hp @ p["Uz"] + p["bz"])
            hu = hp @ p["Un"]
            n = np.tanh(x[:, t, None] * p["Wn"] + p["bn"] + r * hu)
            h[:, t] = (1 - z) * n + z * hp
            saved[t] = (r, z, n, hu, hp)
        err = h @ p["V"] + p["cb"] - target
        losses.append(np.sum(err * err) / (B * T))
        g = {k: np.zeros_like(v) for k, v in p.items()}
        dh_next = np.zeros((B, H))
        for t in reversed(range(T)):
            r, z, n, hu, hp = saved[t]
            dpred = 2 * err[:, t] / (B * T)
            g["V"] += dpred @ h[:, t]
            g["cb"] += dpred.sum()
            dh = dpred[:, None] * p["V"] + dh_next
            dan = dh * (1 - z) * (1 - n ** 2)
            da = {"r": dan * hu * r * (1 - r), "z": dh * (hp - n) * z * (1 - z), "n": dan}
            for k in gates:
                g["W" + k] += da[k].T @ x[:, t]
                g["b" + k] += da[k].sum(axis=0)
            g["Ur"] += hp.T @ da["r"]
            g["Uz"] += hp.T @ da["z"]
            g["Un"] += hp.T @ (dan * r)
            dh_next = dh * z + da["r"] @ p["Ur"].T + da["z"] @ p["Uz"].T + (dan * r) @ p["Un"].T
        opt.step(p, g)
    save_out("gru_train", "loss", losses, (I,))
    assert losses[-1] < losses[0] / 10, (losses[0], losses[-1])


def train_small():
    save_data("small/data/train_sgd/W0.npy", [1, 2, 3], np.float64)
    save_data("small/data/train_sgd/c.npy", [0.5, -1, 2], np.float64)
    W, c = load_data("small/data/train_sgd/W0.npy"), load_data("small/data/train_sgd/c.npy")
    I, buf, losses, Ws = 6, None, [], []
    for i in range(I):
        losses.append(np.sum((W - c) ** 2))
        Ws.append(W)
        g = 2 * (W - c)
        buf = g if i == 0 else 0.9 * buf + g
        W = W - 0.1 * buf
    save_out("small/train_sgd", "loss", losses, (I,))
    save_out("small/train_sgd", "W", Ws, (I, 3))

    rng = np.random.default_rng(1008)
    I, B, IN = 8, 4, 3
    save_data("small/data/train_adam/x.npy", rng.normal(0, 1, (B, IN)), np.float64)
    save_data("small/data/train_adam/y.npy", rng.normal(0, 1, (B,)), np.float64)
    x, y = load_data("small/data/train_adam/x.npy"), load_data("small/data/train_adam/y.npy")
    p = {"W": np.zeros(IN), "bias": np.zeros(())}
    opt, losses, Ws = Adam(0.1, 0.9, 0.99), [], []
    for _ in range(I):
        err = x @ p["W"] + p["bias"] - y
        losses.append(np.mean(err * err))
        Ws.append(p["W"])
        grads = clip({"W": 2 * err @ x / B, "bias": np.sum(2 * err) / B}, 1.0)
        opt.step(p, grads)
    save_out("small/train_adam", "loss", losses, (I,))
    save_out("small/train_adam", "W", Ws, (I, IN))


# -------------------------------------------------------------------------- small
# Hand-checkable programs in resources/examples/small/; data in small/data/NAME/.
def small():
    save_data("small/data/running_sum/v.npy", [1, 2, 3, 4])
    save_data("small/data/suffix_sum/v.npy", [1, 2, 3, 4])
    save_data("small/data/matmul2x2/A.npy", [[1, 2], [3, 4]])
    save_data("small/data/matmul2x2/Bm.npy", [[5, 6], [7, 8]])
    save_data("small/data/window_max/v.npy", [[3, 1, 4, 1], [5, 9, 2, 6]])

    # counter: c[0] = 1, c[t] = c[t-1] + 1
    c = [1.0]
    for _ in range(1, 5):
        c.append(c[-1] + 1.0)
    save_out("small/counter", "c", c, (5,))
    assert c == [1, 2, 3, 4, 5]

    v = load_data("small/data/running_sum/v.npy")
    s = np.zeros(4)
    for t in range(4):
        s[t] = v[0] if t == 0 else s[t - 1] + v[t]
    w = np.array([np.sum(v[0:t + 1]) for t in range(4)])
    save_out("small/running_sum", "s", s, (4,))
    save_out("small/running_sum", "w", w, (4,))
    assert list(s) == [1, 3, 6, 10] and list(w) == [1, 3, 6, 10]

    v = load_data("small/data/suffix_sum/v.npy")
    f = np.zeros(4)
    for t in reversed(range(4)):
        f[t] = v[3] if t == 3 else v[t] + f[t + 1]
    nxt = np.array([v[t + 1] if t < 3 else 0.0 for t in range(4)])
    save_out("small/suffix_sum", "f", f, (4,))
    save_out("small/suffix_sum", "nxt", nxt, (4,))
    assert list(f) == [10, 9, 7, 4] and list(nxt) == [2, 3, 4, 0]

    A = load_data("small/data/matmul2x2/A.npy")
    Bm = load_data("small/data/matmul2x2/Bm.npy")
    C = np.array([[sum(A[i, j] * Bm[j, k] for j in range(2)) for k in range(2)]
                  for i in range(2)])
    save_out("small/matmul2x2", "C", C, (2, 2))
    assert C.tolist() == [[19, 22], [43, 50]]

    v = load_data("small/data/window_max/v.npy")
    m = np.array([[np.max(v[b, max(0, t - 1):t + 1]) for t in range(4)] for b in range(2)])
    z = 2.0 * v + 1.0
    save_out("small/window_max", "m", m, (2, 4))
    save_out("small/window_max", "z", z, (2, 4))
    assert m.tolist() == [[3, 3, 4, 4], [5, 9, 9, 6]]
    assert z.tolist() == [[7, 3, 9, 3], [11, 19, 5, 13]]


def main():
    rnn()
    attention("attention_causal", None, 1002)
    attention("attention_window", 4, 1003)
    returns()
    gpt("gpt_decode", None, 1005)
    gpt("gpt_decode_window", 3, 1006)
    small()
    rnn_train()
    lstm_train()
    gru_train()
    train_small()
    np.set_printoptions(precision=4, suppress=True, linewidth=120)
    for ex, name, shape, arr in SUMMARY:
        flat = arr.reshape(-1)
        print("%-24s %-5s %-14s min % .4f max % .4f first %s"
              % (ex, name, shape, flat.min(), flat.max(), flat[:4]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
