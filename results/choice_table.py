"""The choice's leave-one-out table (`fuselab tune --fit RUN.json --choice-out`), as h200.md's and
cpu.md's section, and issue 29's targets on it: results/report.py and results/report_cpu.py."""
import math

TARGET_PREFIX = "issue 29:"


def targets(choice):
    """Issue 29's leave-one-out targets, each {"target", "value", "held"}."""
    if not choice:
        return []
    regrets = [c["regret"] for c in choice]
    within = sum(r <= 1.10 for r in regrets)
    worst = max(choice, key=lambda c: c["regret"])
    gm = math.exp(sum(math.log(r) for r in regrets) / len(regrets))
    return [
        {"target": f"{TARGET_PREFIX} the leave-one-out regret at most 1.10 at every (workload, size, dtype)",
         "value": f"{within} of {len(regrets)}; worst {worst['regret']:.2f}x ({worst['workload']} {worst['size']} "
                  f"{worst.get('dtype', 'float32')}: {worst['predicted']} against {worst['measured']})",
         "held": within == len(regrets)},
        {"target": f"{TARGET_PREFIX} the leave-one-out regret's geometric mean at most 1.03",
         "value": f"{gm:.3f}", "held": gm <= 1.03},
    ]


def section(choice):
    """The markdown lines: the targets, then every row, worst last."""
    if not choice:
        return []
    lines = ["## fuselab's choice, each size left out (issue 29)", "",
             "At every (workload, size, dtype) of this run, the strategy choose() picks with that size's own "
             "measurements left out: from the nearest other shapes measured (`by` measured, "
             "runtime/fuselab/measured.h), else the cost model fitted without them (`by` model); its time over the "
             "measured winner's, both from this run.", "",
             "| target | this run | held |", "|---|---|---|"]
    lines += [f"| {t['target']} | {t['value']} | {'yes' if t['held'] else 'no'} |" for t in targets(choice)]
    lines += ["", "| workload | size | dtype | pick | by | measured winner | regret |", "|---|---|---|---|---|---|---|"]
    for c in sorted(choice, key=lambda c: c["regret"]):
        lines.append(f"| {c['workload']} | {c['size']} | {c.get('dtype', 'float32')} | {c['predicted']} | "
                     f"{c.get('source', 'model')} | {c['measured']} | {c['regret']:.2f}x |")
    return lines + [""]
