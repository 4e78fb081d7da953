"""The time axis of the bar panels that results/report.py (h200.png) and results/report_cpu.py
(cpu.png) draw: plain tick labels ("0.5", "250", "1.2k"), few of them, none overlapping; and the
row reductions' rate-over-N panels (rate_panels: h200_rows.png, cpu_rows.png).

A panel whose values span more than LOG_SPAN (max / min) gets a log axis with majors at
1, 2, 5 x 10^n (or only 10^n over many decades) and unlabelled minors; any other panel gets a
linear axis from 0, so a bar's length stays proportional to its time. Both scripts run as
`python3 results/SCRIPT.py`, which puts this folder on sys.path; they import this module only
once matplotlib has imported.
"""
import math

from matplotlib.ticker import (FixedLocator, FuncFormatter, LogLocator, MaxNLocator, NullFormatter,
                               NullLocator)

LOG_SPAN = 10.0  # a log axis only past one decade
MAX_DECADES_125 = 3.2  # up to this many decades, log majors at 1, 2, 5; beyond, only 10^n


def plain_number(v, _pos=None):
    """A tick label without exponents: 0.05, 0.5, 5, 250, 1k, 1.2k, 25k, 400k, 1.5M."""
    if v == 0:
        return "0"
    a = abs(v)
    for scale, unit in ((1e6, "M"), (1e3, "k")):
        if a >= scale:
            return f"{v / scale:.3g}{unit}"
    if a >= 1:
        return f"{v:.3g}"
    return f"{v:.2g}" if a >= 0.01 else f"{v:.1g}"


def time_axis(ax, values, log_span=LOG_SPAN):
    """Sets the x axis of a horizontal-bar panel from every value drawn on it (bar lengths,
    floor lines, markers): scale, limits, locators and formatters. Returns True for a log axis,
    False for a linear one."""
    vs = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    if not vs:
        return False
    lo, hi = min(vs), max(vs)
    if hi / lo > log_span:
        ax.set_xscale("log")
        ax.set_xlim(lo / 1.6, hi * 1.6)
        decades = math.log10(hi / lo) + 2 * math.log10(1.6)
        subs = (1.0, 2.0, 5.0) if decades <= MAX_DECADES_125 else (1.0,)
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=subs, numticks=12))
        ax.xaxis.set_minor_locator(LogLocator(base=10, subs=tuple(float(s) for s in range(2, 10)), numticks=12))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.xaxis.set_major_formatter(FuncFormatter(plain_number))
        return True
    ax.set_xscale("linear")
    ax.set_xlim(0, hi * 1.08)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(plain_number))
    return False


# ---- rate over row length: the row reductions' panels (h200_rows.png, cpu_rows.png) ---------

def n_label(n):
    """A row length as a tick label: 256, 1k, 4k, 64k, 256k (powers of two; others plainly)."""
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024}k"
    return str(int(n))


def n_axis(ax, ns):
    """A log-2 x axis with a labelled tick at every row length drawn."""
    ns = sorted({int(n) for n in ns if n})
    if not ns:
        return
    ax.set_xscale("log", base=2)
    ax.set_xlim(ns[0] / 1.4, ns[-1] * 1.4)
    ax.xaxis.set_major_locator(FixedLocator(ns))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos=None: n_label(round(v))))
    ax.xaxis.set_minor_locator(NullLocator())


def rate_panels(panels, path, title, ylabel, cols=3, dpi=80):
    """One panel per entry of `panels`, each {"title", "series": [{"label", "points": [(n, rate)],
    "color", "linestyle", "marker", "linewidth", "alpha", "legend"}], "ceiling": rate or None,
    "ceiling_label"}: lines of rate over N (log 2), the rate axis linear from 0 (so that heights
    compare as ratios), the ceiling dashed. One legend for the figure, below the
    title. Returns False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows_n = max(1, (len(panels) + cols - 1) // cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(5.2 * cols, 3.3 * rows_n + 0.7), squeeze=False)
    legend = {}
    for ax, p in zip(axes.flat, panels):
        top, ns = 0.0, []
        for s in p["series"]:
            pts = sorted((n, v) for n, v in s["points"] if v is not None and v > 0 and math.isfinite(v))
            if not pts:
                continue
            ns += [n for n, _ in pts]
            top = max(top, max(v for _, v in pts))
            line, = ax.plot([n for n, _ in pts], [v for _, v in pts], color=s.get("color"),
                            linestyle=s.get("linestyle", "-"), marker=s.get("marker"), markersize=4,
                            linewidth=s.get("linewidth", 1.3), alpha=s.get("alpha", 1.0))
            if s.get("legend", True):
                legend.setdefault(s["label"], line)
        if p.get("ceiling"):
            top = max(top, p["ceiling"])
            line = ax.axhline(p["ceiling"], color="black", linestyle="--", linewidth=1)
            legend.setdefault(p.get("ceiling_label", "copy"), line)
        n_axis(ax, ns)
        ax.set_ylim(0, top * 1.08 if top else 1)
        ax.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
        ax.yaxis.set_major_formatter(FuncFormatter(plain_number))
        ax.set_title(p["title"], fontsize=9)
        ax.set_xlabel("N (row length)", fontsize=8)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, linewidth=0.3, alpha=0.5)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    fig.suptitle(title, fontsize=10)
    if legend:
        fig.legend(list(legend.values()), list(legend), loc="upper center", ncol=min(6, len(legend)),
                   fontsize=7, bbox_to_anchor=(0.5, 1 - 0.3 / fig.get_figheight()), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.6 / fig.get_figheight()))
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return True
