#!/usr/bin/env python3
"""Checks a JSON export (--export-json) against the files of its run folder,
value by value: meta.csv, summary.csv, ratios.csv, and the ab.csv or
compare.csv of every comparison the document holds.  Read with Python's
own json and csv modules, never with matrix's code.  Numbers must be EQUAL
to the CSV's (the JSON carries the same digits); an empty CSV field must
be null.

usage: json_check.py FILE.json RUN_DIR [--verdicts N] [--status S]
  --verdicts N  the document holds N comparisons (default 0)
  --status S    the first comparison's exit_status is S
Exit 0, or 1 with every difference on stderr."""

import csv
import json
import math
import os
import sys

errors = []


def err(msg):
    errors.append(msg)


def rows(path):
    with open(path, newline="", encoding="utf-8", errors="surrogateescape") as f:
        return list(csv.DictReader(f))


def same_number(csv_text, value, where):
    """csv_text (a CSV field) and value (from the JSON) say the same figure."""
    if csv_text == "":
        if value is not None:
            err(f"{where}: CSV empty, JSON {value!r}")
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        err(f"{where}: CSV {csv_text!r}, JSON {value!r} is not a number")
        return
    want = float(csv_text)
    if not (want == value or (math.isnan(want) and math.isnan(value))):
        err(f"{where}: CSV {csv_text!r}, JSON {value!r}")


def same_param(csv_text, value, where):
    """A dimension's value: a JSON number, boolean or string for its text."""
    if isinstance(value, bool):
        ok = csv_text == ("true" if value else "false")
    elif isinstance(value, int):
        ok = csv_text == str(value)
    elif isinstance(value, float):
        ok = float(csv_text) == value
    else:
        ok = csv_text == value
    if not ok:
        err(f"{where}: CSV {csv_text!r}, JSON {value!r}")


def check_meta(doc, d):
    path = os.path.join(d, "meta.csv")
    if not os.path.exists(path):
        if doc["meta"]:
            err("meta: no meta.csv, yet the JSON has some")
        return
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        want = {r["key"]: r["value"] for r in csv.DictReader(f)}
    got = doc["meta"]
    if list(want) != list(got):
        err(f"meta keys: CSV {list(want)}, JSON {list(got)}")
    for k, v in want.items():
        # a byte that is not UTF-8 reads as U+FFFD here and '?' in the JSON
        if got.get(k) != v and got.get(k) != v.replace("\ufffd", "?"):
            err(f"meta {k}: CSV {v!r}, JSON {got.get(k)!r}")


STATS = ["n", "median", "ci_lo", "ci_hi", "min", "max", "mean", "stdev", "cv"]


def check_cells(doc, d):
    summary = rows(os.path.join(d, "summary.csv"))
    dims = doc["dimensions"]
    metrics = [m["name"] for m in doc["metrics"]]
    header = list(summary[0].keys()) if summary else []
    want_metrics = [h[: -len("_median")] for h in header if h.endswith("_median")]
    if metrics != want_metrics:
        err(f"metrics: summary.csv has {want_metrics}, JSON {metrics}")
    if header[1:1 + len(dims)] != dims:
        err(f"dimensions: summary.csv has {header[1:1 + len(dims)]}, JSON {dims}")
    cells = {c["cell"]: c for c in doc["cells"]}
    if len(cells) != len(doc["cells"]) or sorted(cells) != sorted(int(r["cell"]) for r in summary):
        err(f"cells: summary.csv has {[r['cell'] for r in summary]}, JSON {list(cells)}")
    for r in summary:
        c = cells.get(int(r["cell"]))
        if c is None:
            continue
        at = f"cell {r['cell']}"
        if list(c["params"]) != dims:
            err(f"{at}: params {list(c['params'])}, dimensions {dims}")
        for k in dims:
            same_param(r[k], c["params"].get(k), f"{at} {k}")
        label = " ".join(f"{k}={r[k]}" for k in dims)
        if c["label"] != label:
            err(f"{at}: label {c['label']!r}, expected {label!r}")
        for k in ("reps", "ok", "failed"):
            if c[k] != int(r[k]):
                err(f"{at} {k}: CSV {r[k]}, JSON {c[k]}")
        if c["status"] != r["status"]:
            err(f"{at} status: CSV {r['status']!r}, JSON {c['status']!r}")
        if ";".join(c["noisy"]) != r["noisy"]:
            err(f"{at} noisy: CSV {r['noisy']!r}, JSON {c['noisy']!r}")
        same_number(r["ci_level"], c["stats"]["msgs_per_s"]["ci_level"], f"{at} ci_level")
        for m in metrics:
            st = c["stats"][m]
            for s in STATS + ["ci_level"]:
                same_number(r[f"{m}_{s}"], st[s], f"{at} {m}_{s}")
            if not isinstance(st["n"], int):
                err(f"{at} {m}_n: {st['n']!r} is not an integer")


def check_ratios(doc, d):
    want = rows(os.path.join(d, "ratios.csv"))
    dims = doc["dimensions"]
    names = []
    for r in want:
        if r["name"] not in names:
            names.append(r["name"])
    got = doc["ratios"]
    # a name a spreadsheet would read as a formula has a leading ' in the CSV
    plain = [n[1:] if n[:2] in ("'=", "'+", "'-", "'@") else n for n in names]
    if [g["name"] for g in got] != plain:
        err(f"ratios: CSV {names}, JSON {[g['name'] for g in got]}")
        return
    for name, g in zip(names, got):
        mine = [r for r in want if r["name"] == name]
        pairs = [r for r in mine if r["scope"] == "cell"]
        gm = [r for r in mine if r["scope"] == "geomean"]
        at = f"ratio {name}"
        for k in ("metric", "dimension"):
            if g[k] != mine[0][k]:
                err(f"{at} {k}: CSV {mine[0][k]!r}, JSON {g[k]!r}")
        same_param(mine[0]["numerator"], g["numerator"], f"{at} numerator")
        same_param(mine[0]["denominator"], g["denominator"], f"{at} denominator")
        same_number(gm[0]["ratio"], g["geomean"], f"{at} geomean")
        same_number(gm[0]["pairs"], g["pairs"], f"{at} pairs")
        # the geometric means per pattern: ratios.csv's scope = pattern rows
        pm = [r for r in mine if r["scope"] == "pattern"]
        if [r["pattern"] for r in pm] != [b["pattern"] for b in g["by_pattern"]]:
            err(f"{at} by_pattern: CSV {[r['pattern'] for r in pm]}, "
                f"JSON {[b['pattern'] for b in g['by_pattern']]}")
        for r, b in zip(pm, g["by_pattern"]):
            same_number(r["ratio"], b["geomean"], f"{at} {r['pattern']} geomean")
            same_number(r["pairs"], b["pairs"], f"{at} {r['pattern']} pairs")
        if len(pairs) != len(g["cells"]):
            err(f"{at}: {len(pairs)} pairs in the CSV, {len(g['cells'])} in the JSON")
            continue
        for r, p in zip(pairs, g["cells"]):
            pat = f"{at} {r['num_cell']}/{r['den_cell']}"
            if (p["num_cell"], p["den_cell"]) != (int(r["num_cell"]), int(r["den_cell"])):
                err(f"{pat}: JSON pairs cells {p['num_cell']}/{p['den_cell']}")
            for k in ("ratio", "ci_lo", "ci_hi", "n_num", "n_den", "ci_level"):
                same_number(r[k], p[k], f"{pat} {k}")
            shared = [k for k in dims if k != g["dimension"]]
            if list(p["params"]) != shared:
                err(f"{pat}: params {list(p['params'])}, expected {shared}")
            for k in shared:
                same_param(r[k], p["params"].get(k), f"{pat} {k}")


VERDICT_NUMBERS = ["base_n", "new_n", "base_median", "new_median", "change", "change_lo",
                   "change_hi", "ci_level", "p_worse", "q_worse", "p_better", "q_better"]


def check_verdicts(doc, nverdicts, status):
    got = doc["verdicts"]
    if len(got) != nverdicts:
        err(f"verdicts: {len(got)} comparisons in the JSON, expected {nverdicts}")
        return
    if status is not None and got and got[0]["exit_status"] != status:
        err(f"verdicts[0].exit_status {got[0]['exit_status']}, expected {status}")
    for i, v in enumerate(got):
        name = "ab" if v["kind"] == "ab" else "compare"
        want = rows(os.path.join(v["dir"], f"{name}.csv"))
        at = f"verdicts[{i}] ({v['dir']}/{name}.csv)"
        if v["kind"] not in ("ab", "baseline"):
            err(f"{at}: kind {v['kind']!r}")
        if v["look"] != (2 if v["dir"].endswith("/look2") else 1):
            err(f"{at}: look {v['look']}")
        if len(want) != len(v["rows"]):
            err(f"{at}: {len(want)} rows in the CSV, {len(v['rows'])} in the JSON")
            continue
        counts = {}
        for r, g in zip(want, v["rows"]):
            rat = f"{at} {r['label']} {r['metric']}"
            label = r["label"][1:] if r["label"][:2] in ("'=", "'+", "'-", "'@") else r["label"]
            if (g["label"], g["metric"] or "", g["verdict"], g["why"]) != \
               (label, r["metric"], r["verdict"], r["why"]):
                err(f"{rat}: JSON {g['label']!r} {g['metric']!r} {g['verdict']!r} {g['why']!r}")
            for k in ("base_cell", "new_cell", "rounds", "look") + tuple(VERDICT_NUMBERS):
                same_number(r[k], g[k], f"{rat} {k}")
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
        if {k: n for k, n in v["counts"].items() if n} != counts:
            err(f"{at}: counts {v['counts']}, the CSV's {counts}")


def main():
    args = sys.argv[1:]
    path, d = args[0], args[1]
    nverdicts = int(args[args.index("--verdicts") + 1]) if "--verdicts" in args else 0
    status = int(args[args.index("--status") + 1]) if "--status" in args else None
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("schema_version") != 1 or doc.get("document") != "run":
        err(f"schema_version {doc.get('schema_version')!r}, document {doc.get('document')!r}")
    if doc.get("run_dir") != d:
        err(f"run_dir {doc.get('run_dir')!r}, expected {d!r}")
    check_meta(doc, d)
    check_cells(doc, d)
    check_ratios(doc, d)
    check_verdicts(doc, nverdicts, status)
    for e in errors[:40]:
        print(e, file=sys.stderr)
    if len(errors) > 40:
        print(f"... and {len(errors) - 40} more", file=sys.stderr)
    sys.exit(1 if errors else 0)


main()
