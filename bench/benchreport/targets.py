"""targets.csv and against60.csv: one row per LRU, swap mode, workload and setting with the
setting's headline figure against the best static value (or static 60) of the same workload,
swap mode and LRU, lower is better, and its 95% interval; phased counts its worse phase. The
rows with workload "geomean" hold the geometric mean over the workloads of that swap mode and
LRU. The lru column is classic or mglru; in memory (rows, read) a row's swap is the report's
mode (model.mode_key), as everywhere in the report."""
import csv

from . import model
from . import text

HEADER = ["lru", "swap", "workload", "setting", "ratio", "low", "high"]
GEOMEAN = "geomean"


def rows(res, against60=False):
    """The rows of targets.csv (against60: of against60.csv) from compare.Results."""
    head = res.head60 if against60 else res.head
    geo = res.geo60 if against60 else res.geo
    out = []
    for swap in res.data.swaps:
        for wl in res.data.workloads + [GEOMEAN]:
            for s in res.data.settings:
                r = geo.get((swap, s)) if wl == GEOMEAN else head.get((swap, wl, s))
                if r is not None:
                    out.append({"swap": swap, "workload": wl, "setting": model.label(s),
                                "ratio": r.ratio, "low": r.low, "high": r.high})
    return out


def write(path, rows_):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        for r in rows_:
            w.writerow(list(model.split_mode(r["swap"])) + [r["workload"], r["setting"], text.csv_num(r["ratio"]),
                                                             text.csv_num(r["low"]), text.csv_num(r["high"])])


def read(path):
    """The rows of a file that write() made, numbers as floats (None where empty)."""
    def num(x):
        return None if x == "" else float(x)

    with open(path, newline="") as f:
        rd = csv.DictReader(f)
        if rd.fieldnames != HEADER:
            raise ValueError(f"{path}: header {rd.fieldnames}, expected {HEADER}")
        return [{"swap": model.mode_key(r["lru"], r["swap"]), "lru": r["lru"], "workload": r["workload"],
                 "setting": r["setting"], "ratio": num(r["ratio"]), "low": num(r["low"]), "high": num(r["high"])}
                for r in rd]
