#!/usr/bin/env python3
"""The coefficients of generators/math.h's tanh_cpu for |v| < 0.55: tanh(v) ~ v P(v^2), P of
degree 5, fitted to tanh(v) / v in relative error (least squares on a dense grid, reweighted
towards the largest errors until it is nearly equi-ripple), then checked in float32 Horner
arithmetic as the generated code evaluates it.

    .venv/bin/python tools/fit_tanh.py
"""
import numpy as np

T, DEG = 0.55, 5


def fit():
    x = np.linspace(1e-6, T, 20001)
    u = x * x
    y = np.tanh(x) / x
    w = np.ones_like(u)
    A0 = np.vander(u, DEG + 1, increasing=True)
    for _ in range(60):
        c, *_ = np.linalg.lstsq(A0 * w[:, None], y * w, rcond=None)
        err = (A0 @ c - y) / y
        w = w * (1 + 50 * np.abs(err) / np.abs(err).max())
        w /= w.mean()
    return [np.float32("%.9g" % np.float32(v)) for v in c]


def tanh32(c, x):
    u = x * x
    p = c[-1]
    for k in reversed(c[:-1]):
        p = np.float32(p * u + k)
    return x * p


c = fit()
x = np.linspace(1e-7, T, 400001).astype(np.float32)
ref = np.tanh(x.astype(np.float64))
print("coefficients, v^0 first:", ", ".join("%.9g" % v for v in c))
print("max relative error in float32 on (0, %.2f): %.2e" % (T, (np.abs(tanh32(c, x) - ref) / ref).max()))
