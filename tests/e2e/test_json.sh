# JSON: `--export-json FILE` of run and report, `matrix plan --json`.  The
# documents are read with Python's json module and checked value by value
# against the run folder's CSV files (tests/e2e/json_check.py) or the text
# of `matrix plan`; the README's jq conversions for dashboards are run on
# them.

JSON_CHECK() { python3 "$REPO/tests/e2e/json_check.py" "$@"; }

# a copy of tests/data/NAME in $T/out
json_golden_copy() {
	rm -rf out && cp -R "$REPO/tests/data/$1" out || die "cannot copy tests/data/$1"
}

t_report_json_holds_the_csv_figures() {
	json_golden_copy golden7
	run_matrix report out --quiet --export-json r.json; expect_rc 0
	[ -s r.json ] || die "no r.json"
	JSON_CHECK r.json out || die "r.json differs from summary.csv, ratios.csv or meta.csv (above)"
	# a few by hand, as the golden tests know them
	python3 - r.json <<'P' || die "r.json: hand-checked values (above)"
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["cell"]: x for x in d["cells"]}
assert sorted(c) == [1, 2, 3, 4, 6, 8], sorted(c)
m = c[1]["stats"]["msgs_per_s"]
assert (m["n"], m["median"], m["ci_lo"], m["ci_hi"]) == (12, 10370, 10000, 10950), m
assert m["ci_level"] == 0.961426, m
assert c[1]["params"] == {"pattern": "pingpong", "transport": "unix", "size": 16, "count": 1000}
assert c[4]["ok"] == 0 and c[4]["stats"]["msgs_per_s"]["median"] is None
assert c[6]["stats"]["rtt_p50_us"] == {"n": 0, **{k: None for k in ("median", "ci_lo", "ci_hi",
    "min", "max", "mean", "stdev", "cv", "ci_level", "bound")}}, c[6]["stats"]["rtt_p50_us"]
r = {x["name"]: x for x in d["ratios"]}
assert set(r) == {"UNIX/TCP", "UNIX/TCP p50", "1KiB/16"}, set(r)
assert r["UNIX/TCP p50"]["metric"] == "rtt_p50_us"
assert r["1KiB/16"]["numerator"] == 1024 and r["1KiB/16"]["denominator"] == 16
assert d["meta"]["host"] == "goldenhost" and d["verdicts"] == []
assert [x["better"] for x in d["metrics"] if x["name"] in ("msgs_per_s", "rtt_p50_us")] == \
    ["higher", "lower"]
P
	# with an in-run A/B, its verdicts, equal to ab.csv's, and its status
	run_matrix report out --quiet --compare transport=unix:tcp --export-json ab.json; expect_rc 1
	JSON_CHECK ab.json out --verdicts 1 --status 1 || die "ab.json differs from the CSV files (above)"
	python3 - ab.json <<'P' || die "ab.json: the A/B's description (above)"
import json, sys
v = json.load(open(sys.argv[1]))["verdicts"][0]
assert (v["kind"], v["dimension"], v["threshold"], v["baseline_dir"]) == ("ab", "transport", 0.05, None), v
assert v["counts"]["regressed"] == 2 and v["rows"][0]["verdict"] == "regressed", v["counts"]
P
}

t_run_json_is_the_report_json() {
	mat m.yaml <<'Y'
name: js
description: the JSON of a run
repeat: 3
warmup: 5
matrix:
  pattern: [pingpong, stream]
  transport: [unix, tcp]
  size: [64, 1KiB]
  count: 200
  interval: 20ms
Y
	run_matrix run m.yaml -o out --export-json run.json; expect_rc 0
	[ "$(tail -n 1 "$T/.out")" = out ] || die "stdout's last line: $(tail -n 1 "$T/.out")"
	expect_err "matrix: JSON in run.json"
	JSON_CHECK run.json out || die "run.json differs from the run folder's CSV files (above)"
	[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cells"]))' run.json)" -eq 8 ] ||
		die "run.json does not hold 8 cells"
	# the folder alone gives the same document, byte for byte
	run_matrix report out --quiet --export-json again.json; expect_rc 0
	cmp -s run.json again.json || die "report's JSON differs from run's: $(diff run.json again.json | head -5)"
	# into the run folder itself, and over an older file, whole
	echo old >out/old.json
	run_matrix report out --quiet --export-json out/old.json; expect_rc 0
	cmp -s run.json out/old.json || die "out/old.json was not replaced by the document"
	ls -a out | grep -q '\.tmp' && die "a temporary file was left: $(ls -a out)"
	expect_no_leftovers
}

t_run_json_has_the_verdicts_of_its_comparisons() {
	mat m.yaml <<'Y'
name: jab
repeat: 4
warmup: 5
matrix:
  pattern: pingpong
  transport: [unix, tcp]
  size: 16
  count: 200
report:
  compare: {dimension: transport, baseline: unix, candidate: tcp, threshold: 10%}
Y
	run_matrix run m.yaml -o first -q; case $rc in 0 | 1 | 3) ;; *) die "first run: exit $rc" ;; esac
	run_matrix run m.yaml -o out -q --baseline first --export-json run.json
	case $rc in 0 | 1 | 3) ;; *) cat "$T/.err" >&2; die "run --baseline: exit $rc" ;; esac
	python3 - run.json "$rc" <<'P' || die "run.json's verdicts (above)"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdicts"]
first = [x for x in v if x["look"] == 1]
assert [x["kind"] for x in first] == ["ab", "baseline"], [x["kind"] for x in v]
assert first[0]["dir"] == "out" and first[0]["dimension"] == "transport"
assert first[0]["threshold"] == 0.1, first[0]["threshold"]
assert first[1]["dir"] == "out" and first[1]["baseline_dir"] == "first"
assert all(x["dir"] == "out/look2" for x in v if x["look"] == 2)
assert all(x["alpha"] == 0.0304 for x in v)
# the final verdicts: each kind's last
final = {x["kind"]: x for x in v}
regressed = any(r["verdict"] == "regressed" for x in final.values() for r in x["rows"])
assert (int(sys.argv[2]) == 1) == regressed, (sys.argv[2], regressed)
P
	local n
	n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["verdicts"]))' run.json)
	JSON_CHECK run.json out --verdicts "$n" || die "run.json differs from ab.csv or compare.csv (above)"
	expect_no_leftovers
}

# `matrix plan --json` says what `matrix plan` prints, cell by cell
plan_json_check() {
	run_matrix plan "$@"; expect_rc 0
	cp "$T/.out" plan.txt
	run_matrix plan "$@" --json; expect_rc 0
	python3 - plan.txt "$T/.out" <<'P' || die "plan --json $* differs from plan (above)"
import json, re, sys
text = open(sys.argv[1]).read().splitlines()
d = json.load(open(sys.argv[2]))
assert d["schema_version"] == 1 and d["document"] == "plan"
name, desc = re.match(r"matrix (\S+): (.*)$", text[0]).groups()
assert (d["matrix"]["name"], d["matrix"]["description"]) == (name, desc), d["matrix"]
SIZE = {"B": 1, "KiB": 1024, "MiB": 1 << 20, "GiB": 1 << 30}
DUR = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600}
def amount(text, units):
    n, u = re.match(r"^([0-9.]+)([A-Za-z]+)$", text).groups()
    return float(n) * units[u]
lines = [l for l in text[2:] if re.match(r"^\s*\d+  ", l)]
assert len(lines) == len(d["cells"]), (len(lines), len(d["cells"]))
for line, c in zip(lines, d["cells"]):
    f = line.split()
    assert int(f[0]) == c["cell"], (f, c["cell"])
    assert (f[1], f[2]) == (c["pattern"], c["transport"]), (f, c)
    assert amount(f[3], SIZE) == c["size"], (f[3], c["size"])
    assert (f[4] == "-") == (c["response_size"] is None), (f[4], c["response_size"])
    assert f[4] == "-" or amount(f[4], SIZE) == c["response_size"], (f[4], c)
    assert int(f[5]) == c["concurrency"]
    if c["count"] is None:
        assert abs(amount(f[6], DUR) - c["duration_s"]) < 1e-9, (f[6], c["duration_s"])
    else:
        assert int(f[6]) == c["count"] and c["duration_s"] is None, (f[6], c)
    assert int(f[7]) == c["inflight"]
    assert f[8] == {True: "on", False: "off", None: "-"}[c["nodelay"]], (f[8], c["nodelay"])
    assert (f[9], f[10]) == (c["server"], c["client"]), (f[9:], c)
    assert c["label"] == " ".join(f"{k}={json.dumps(v) if isinstance(v, bool) else v}"
                                  for k, v in c["params"].items()), c["label"]
    assert list(c["params"]) == d["dimensions"]
total = re.match(r"(\d+) cells? x (\d+) repetitions? = (\d+) cell runs, (\d+) worker processes; "
                 r"warmup (\d+) messages per connection, timeout (\S+) per", text[-1]).groups()
assert [int(x) for x in total[:5]] == [len(d["cells"]), d["repeat"], d["cell_runs"],
                                       d["worker_processes"], d["warmup"]], (total, d)
assert abs(amount(total[5], DUR) - d["timeout_s"]) < 1e-9, (total[5], d["timeout_s"])
P
}

t_plan_json_matches_plan_lines() {
	plan_json_check "$REPO/matrices/all_transports.yaml"
	plan_json_check "$REPO/matrices/byo_example.yaml"
	mat m.yaml <<'Y'
name: pj
matrix:
  pattern: pingpong
  transport: [tcp, unix]
  size: [10, 1500, 64KiB]
  response_size: 3KiB
  concurrency: [1, 3]
  inflight: 2
  nodelay: [true, false]
  count: 1234
exclude:
  - {transport: unix, nodelay: false}
Y
	plan_json_check m.yaml --only size=1500 --only concurrency=3 --set count=99 --repeat 4
	# the params are results.csv's values, typed: what a run of the cell writes
	python3 - "$T/.out" <<'P' || die "plan --json params (above)"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cells"][0]
assert c["params"] == {"pattern": "pingpong", "transport": "tcp", "size": 1500,
                       "response_size": 3072, "concurrency": 3, "inflight": 2, "nodelay": True,
                       "count": 99}, c["params"]
assert len(d["cells"]) == 3 and d["repeat"] == 4, (len(d["cells"]), d["repeat"])
P
	run_matrix plan m.yaml --json --bogus; expect_rc 2
	run_matrix run m.yaml --json; expect_rc 2
	expect_err "usage: matrix run"
}

t_json_bad_path_is_said_and_measurements_kept() {
	mat m.yaml <<'Y'
name: jbad
repeat: 2
warmup: 0
matrix:
  transport: [unix, tcp]
  count: 100
Y
	run_matrix run m.yaml -o out -q --export-json nodir/run.json; expect_rc 1
	expect_err "matrix run: --export-json: nodir/run.json: No such file or directory; the run folder is whole: \`matrix report out --export-json FILE\` writes it again"
	[ "$(tail -n 1 "$T/.out")" = out ] || die "stdout's last line: $(tail -n 1 "$T/.out")"
	expect_all out/results.csv status ok
	[ "$(csvq out/results.csv --rows)" -eq 4 ] || die "results.csv: $(csvq out/results.csv --rows) rows"
	[ -s out/summary.csv ] && [ -s out/summary.md ] || die "the report was not written"
	[ -e nodir ] && die "nodir was made"
	# as the console says: the report writes it again
	run_matrix report out -q --export-json run.json; expect_rc 0
	JSON_CHECK run.json out || die "run.json (above)"
	# report: a report file that could not be written (1), with an A/B a
	# tool failure (2); the report's other files are written all the same
	rm out/summary.csv
	run_matrix report out -q --export-json nodir/r.json; expect_rc 1
	expect_err "matrix report: --export-json: nodir/r.json: No such file or directory"
	[ -s out/summary.csv ] || die "summary.csv was not rebuilt"
	run_matrix report out -q --compare transport=unix:tcp --export-json nodir/r.json; expect_rc 2
	[ -s out/ab.csv ] || die "ab.csv was not written"
	# a run with a comparison: 2, as compare's for a file not written,
	# unless a regression stands (its second look may find one: 1)
	run_matrix run m.yaml -o out2 -q --compare transport=unix:tcp --export-json nodir/r.json
	[ -s out2/ab.csv ] || die "out2/ab.csv was not written"
	local final=out2/ab.csv
	[ ! -e out2/look2/ab.csv ] || final=out2/look2/ab.csv
	if csvq "$final" verdict | grep -qx regressed; then expect_rc 1; else expect_rc 2; fi
	# never renamed over what is not a regular file (we may be root)
	run_matrix report out -q --export-json /dev/null; expect_rc 1
	expect_err "matrix report: --export-json: /dev/null: not a regular file"
	[ -c /dev/null ] || die "/dev/null is no longer a device"
	expect_no_leftovers
}

t_json_escapes_hostile_text() {
	mat m.yaml <<'Y'
name: hostile
description: "quote \" back \\ tab \t nl \n ctl \x01\x7f uni \u00e9\u2603 </script> {x} `id`"
repeat: 1
warmup: 0
matrix:
  transport: [unix, tcp]
  count: 50
report:
  ratios:
    - name: "=a'b`c</script>&\u00e9\u2603,#1"
      dimension: transport
      numerator: unix
      denominator: tcp
Y
	run_matrix run m.yaml -o out -q --export-json h.json; expect_rc 0
	JSON_CHECK h.json out || die "h.json (above)"
	python3 - h.json <<'P' || die "h.json: the hostile text (above)"
import json, sys
raw = open(sys.argv[1], "rb").read()
d = json.loads(raw)
want = "quote \" back \\ tab \t nl \n ctl \x01\x7f uni \u00e9\u2603 </script> {x} `id`"
assert d["matrix"]["description"] == want, repr(d["matrix"]["description"])
assert d["ratios"][0]["name"] == "=a'b`c</script>&\u00e9\u2603,#1", repr(d["ratios"][0]["name"])
# escaped as JSON: no raw control character anywhere in the file
assert not any(b < 0x20 and b not in b"\n " for b in raw), "a raw control byte"
P
	# text that is not UTF-8, and control characters, in meta.csv
	json_golden_copy golden7
	python3 - out/meta.csv <<'P' || die "cannot edit meta.csv"
import sys
p = sys.argv[1]
b = open(p, "rb").read().replace(b"host,goldenhost", b'host,"go\xffld\x01\\ ""x"" y"')
open(p, "wb").write(b)
P
	run_matrix report out -q --export-json g.json; expect_rc 0
	python3 - g.json <<'P' || die "g.json: meta's host (above)"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["meta"]["host"] == 'go?ld\x01\\ "x" y', repr(d["meta"]["host"])
P
}

# The README's jq lines that turn the JSON into what dashboards read:
# github-action-benchmark's customBiggerIsBetter / customSmallerIsBetter
# (an array of {name, unit, value, range, extra}) and Bencher's BMF
# ({benchmark: {measure: {value, lower_value, upper_value}}}).
t_json_feeds_dashboards_with_the_readme_jq() {
	command -v jq >/dev/null || skip "no jq here (Debian's jq)"
	json_golden_copy golden7
	run_matrix report out -q --export-json r.json; expect_rc 0
	# the lines as the README writes them
	local gh bmf
	gh=$(sed -n 's/^    jq --arg better higher \(.*\) run.json > bigger.json$/\1/p' "$REPO/docs/reference.md")
	bmf=$(sed -n 's/^    jq \(.*\) run.json > bmf.json$/\1/p' "$REPO/docs/reference.md")
	[ -n "$gh" ] && [ -n "$bmf" ] || die "the README's jq lines were not found"
	eval "jq --arg better higher $gh r.json" >bigger.json || die "jq (bigger) failed"
	eval "jq --arg better lower $gh r.json" >smaller.json || die "jq (smaller) failed"
	eval "jq $bmf r.json" >bmf.json || die "jq (bmf) failed"
	python3 - r.json bigger.json smaller.json bmf.json <<'P' || die "dashboard formats (above)"
import json, sys
d, big, small, bmf = (json.load(open(p)) for p in sys.argv[1:])
better = {m["name"]: m["better"] for m in d["metrics"]}
unit = {m["name"]: m["unit"] for m in d["metrics"]}
cells = {c["label"]: c for c in d["cells"]}
for entries, way in ((big, "higher"), (small, "lower")):
    assert isinstance(entries, list) and entries, way
    want = sorted(f"{c['label']} {m}" for c in d["cells"] for m, s in c["stats"].items()
                  if better[m] == way and s["median"] is not None)
    assert sorted(e["name"] for e in entries) == want, (way, len(entries), len(want))
    for e in entries:
        assert set(e) == {"name", "unit", "value", "range", "extra"}, e
        assert all(isinstance(e[k], str) for k in ("name", "unit", "range", "extra")), e
        label, m = e["name"].rsplit(" ", 1)
        s = cells[label]["stats"][m]
        assert e["value"] == s["median"] and e["unit"] == unit[m], (e, s)
        assert isinstance(e["value"], (int, float)) and not isinstance(e["value"], bool)
assert set(bmf) == {c["label"] for c in d["cells"] if c["ok"] > 0}, sorted(bmf)
for label, measures in bmf.items():
    for m, v in measures.items():
        s = cells[label]["stats"][m]
        assert v == {"value": s["median"], "lower_value": s["ci_lo"], "upper_value": s["ci_hi"]}, (v, s)
        assert all(isinstance(x, (int, float)) for x in v.values()), v
        assert v["lower_value"] <= v["value"] <= v["upper_value"], v
P
}

# `report -o DIR --export-json F`: the document names the run folder it
# read (run_dir), not the folder the report went to; a finished run's
# --resume writes no document and says so.
t_json_run_dir_is_the_run_folder() {
	json_golden_copy golden7
	run_matrix report out -o elsewhere -q --export-json a.json; expect_rc 0
	[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_dir"])' a.json)" = out ] ||
		die "run_dir: $(grep -o '"run_dir": *"[^"]*"' a.json)"
	mat m.yaml <<'Y'
name: jr
repeat: 1
warmup: 5
matrix:
  transport: unix
  count: 100
Y
	run_matrix run m.yaml -o d -q; expect_rc 0
	run_matrix run --resume d --export-json b.json; expect_rc 2
	expect_err "nothing was resumed, so nothing written"
	[ ! -e b.json ] || die "b.json written"
}
