"""The time axis of the bar panels that results/report.py (h200.png) and results/report_cpu.py
(cpu.png) draw: plain tick labels ("0.5", "250", "1.2k"), few of them, none overlapping.

A panel whose values span more than LOG_SPAN (max / min) gets a log axis with majors at
1, 2, 5 x 10^n (or only 10^n over many decades) and unlabelled minors; any other panel gets a
linear axis from 0, so a bar's length stays proportional to its time. Both scripts run as
`python3 results/SCRIPT.py`, which puts this folder on sys.path; they import this module only
once matplotlib has imported.
"""
import math

from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter, NullLocator

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
