#!/usr/bin/env python3
"""The EMNIST CNN (datasets/emnist/small_cnn.hpp) against an independent numpy computation.

    small_cnn_reference.py CNN_DUMP FEMNIST_DIGITS_DIR

For each network size below, runs CNN_DUMP (tests/datasets/emnist/cnn_dump.cpp), which writes
the C++ network's logits, the gradient of a batch's mean cross-entropy and a short training from
initial parameters it drew, and recomputes all three here in float64: the convolutions as sums
over sliding windows (numpy's einsum), ReLU before max-pooling with numpy's argmax (the first
maximum, as PyTorch), backpropagation by hand, and torch.optim.Adam's update with L2 as weight
decay. Exit 0 when everything agrees within float32 tolerances, 1 otherwise, 77 (skipped)
without numpy or the data.
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    from numpy.lib.stride_tricks import sliding_window_view
except ImportError:
    print("skipped: no numpy")
    sys.exit(77)

# (conv1, conv2, hidden, digits, epochs, batch): the default network, and one whose sizes are
# not multiples of the kernels' blocks (channel tails, padded hidden units, a short batch).
SIZES = [(4, 8, 32, 40, 2, 16), (3, 5, 13, 21, 2, 8)]
LR, DECAY, L2 = 0.01, 0.5, 0.01  # cnn_dump's training
BETA1, BETA2, EPS = 0.9, 0.999, 1e-8


def shapes(c1, c2, h):
    return [("conv1.weight", (c1, 1, 5, 5)), ("conv1.bias", (c1,)),
            ("conv2.weight", (c2, c1, 5, 5)), ("conv2.bias", (c2,)),
            ("fc1.weight", (h, c2 * 49)), ("fc1.bias", (h,)),
            ("fc2.weight", (10, h)), ("fc2.bias", (10,))]


def unflatten(flat, c1, c2, h):
    out, at = {}, 0
    for name, shape in shapes(c1, c2, h):
        size = int(np.prod(shape))
        out[name] = flat[at:at + size].reshape(shape)
        at += size
    assert at == flat.size, (at, flat.size)
    return out


def flatten(d, c1, c2, h):
    return np.concatenate([d[name].ravel() for name, _ in shapes(c1, c2, h)])


def windows(x):
    """x: n, c, H, W -> n, c, H, W, 5, 5 (5x5 patches of the zero-padded map, 'same')."""
    return sliding_window_view(np.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2))), (5, 5), axis=(2, 3))


def conv(x, w, b):
    return np.einsum("ncyxij,dcij->ndyx", windows(x), w) + b[None, :, None, None]


def pool(a):
    """2x2 max-pool of a (n, c, H, W): values and the argmax within each window (row-major)."""
    n, c, hh, ww = a.shape
    blocks = a.reshape(n, c, hh // 2, 2, ww // 2, 2).transpose(0, 1, 2, 4, 3, 5)
    blocks = blocks.reshape(n, c, hh // 2, ww // 2, 4)
    return blocks.max(-1), blocks.argmax(-1)


def unpool(g, idx):
    n, c, hh, ww = g.shape
    onehot = (np.arange(4) == idx[..., None]) * g[..., None]
    return onehot.reshape(n, c, hh, ww, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(n, c, 2 * hh, 2 * ww)


def forward(p, x):
    z1 = conv(x, p["conv1.weight"], p["conv1.bias"])
    p1, i1 = pool(np.maximum(z1, 0))
    z2 = conv(p1, p["conv2.weight"], p["conv2.bias"])
    p2, i2 = pool(np.maximum(z2, 0))
    f = p2.reshape(len(x), -1)
    u = f @ p["fc1.weight"].T + p["fc1.bias"]
    h = np.maximum(u, 0)
    logits = h @ p["fc2.weight"].T + p["fc2.bias"]
    return logits, (x, z1, p1, i1, z2, p2, i2, f, u, h)


def gradient(p, x, y):
    """Gradient of the mean cross-entropy of the batch (x: n x 1 x 28 x 28, labels y)."""
    logits, (x, z1, p1, i1, z2, p2, i2, f, u, h) = forward(p, x)
    e = np.exp(logits - logits.max(1, keepdims=True))
    dz = (e / e.sum(1, keepdims=True) - np.eye(10)[y]) / len(x)
    g = {"fc2.weight": dz.T @ h, "fc2.bias": dz.sum(0)}
    du = (dz @ p["fc2.weight"]) * (u > 0)
    g["fc1.weight"], g["fc1.bias"] = du.T @ f, du.sum(0)
    dz2 = unpool((du @ p["fc1.weight"]).reshape(p2.shape), i2) * (z2 > 0)
    g["conv2.weight"] = np.einsum("ndyx,ncyxij->dcij", dz2, windows(p1))
    g["conv2.bias"] = dz2.sum((0, 2, 3))
    dp1 = np.einsum("ndyxij,dcij->ncyx", windows(dz2), p["conv2.weight"][:, :, ::-1, ::-1])
    dz1 = unpool(dp1, i1) * (z1 > 0)
    g["conv1.weight"] = np.einsum("ndyx,ncyxij->dcij", dz1, windows(x))
    g["conv1.bias"] = dz1.sum((0, 2, 3))
    return g


def train(p, x, y, orders, batch, c1, c2, h):
    flat = flatten(p, c1, c2, h).copy()
    m, v = np.zeros_like(flat), np.zeros_like(flat)
    t = 0
    for e, order in enumerate(orders):
        lr = LR / (1 + DECAY * e)
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            g = flatten(gradient(unflatten(flat, c1, c2, h), x[idx], y[idx]), c1, c2, h)
            g = g + L2 * flat
            t += 1
            m = BETA1 * m + (1 - BETA1) * g
            v = BETA2 * v + (1 - BETA2) * g * g
            denom = np.sqrt(v) / np.sqrt(1 - BETA2**t) + EPS
            flat = flat - lr / (1 - BETA1**t) * m / denom
    return flat


def load(d, name, dtype=float):
    return np.loadtxt(os.path.join(d, name), dtype=dtype, ndmin=1)


def check(what, ours, ref, atol, rtol=0.0):
    err = np.abs(ours - ref)
    bad = err > atol + rtol * np.abs(ref)
    worst = float(err.max()) if err.size else 0.0
    print(f"{'FAIL' if bad.any() else 'ok  '} {what}: max |diff| {worst:.3g} "
          f"(tolerance {atol:.3g} + {rtol:.3g} |ref|), {int(bad.sum())} of {err.size} outside")
    return not bad.any()


def run(dump, data, c1, c2, h, n, epochs, batch):
    print(f"network {c1}/{c2}/{h}, {n} digits, {epochs} epochs of batches of {batch}")
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([dump, data, d] + [str(a) for a in (c1, c2, h, n, epochs, batch)],
                       check=True)
        x = load(d, "images.txt").reshape(n, 1, 28, 28)
        y = load(d, "labels.txt", int)
        p = unflatten(load(d, "params.txt"), c1, c2, h)
        logits = load(d, "logits.txt").reshape(n, 10)
        grad = unflatten(load(d, "gradient.txt"), c1, c2, h)
        initial = unflatten(load(d, "train_initial.txt"), c1, c2, h)
        orders = load(d, "train_orders.txt", int).reshape(epochs, n)
        final = load(d, "train_final.txt")
    ok = True
    for name, shape in shapes(c1, c2, h):  # PyTorch's init: uniform(+-1/sqrt(fan_in))
        bound = 1 / np.sqrt(np.prod(shape[1:]) if name.endswith("weight") else
                            np.prod(dict(shapes(c1, c2, h))[name.replace("bias", "weight")][1:]))
        ok &= bool(np.abs(p[name]).max() <= bound and np.abs(initial[name]).max() <= bound)
    ok &= bool(all(sorted(o) == list(range(n)) for o in orders))
    ref_logits, _ = forward(p, x)
    ok &= check("logits", logits, ref_logits, 1e-6, 1e-6)
    ref = gradient(p, x, y)
    for name, _ in shapes(c1, c2, h):
        scale = np.abs(ref[name]).max()
        ok &= check(f"gradient {name}", grad[name], ref[name], 2e-5 * scale)
    ref_final = train(initial, x, y, orders, batch, c1, c2, h)
    moved = np.abs(ref_final - flatten(initial, c1, c2, h)).max()
    ok &= check(f"parameters after {epochs * -(-n // batch)} Adam steps (moved up to {moved:.3g})",
                final, ref_final, 1e-4 * moved)
    return ok


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    dump, data = sys.argv[1:]
    if os.environ.get("FBOSIM_DATA"):  # where fbosim and the other data tests look
        data = os.path.join(os.environ["FBOSIM_DATA"], "femnist_digits")
    if not os.path.isdir(data):
        print(f"skipped: no FEMNIST digits at {data} (tools/fetch_datasets.sh downloads the "
              "data sets)")
        return 77
    ok = all([run(dump, data, *s) for s in SIZES])
    print("all agree" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
