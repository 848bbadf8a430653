# Run folders as untrusted input (issue 26): whatever links a folder
# holds, no command writes, truncates, appends to or removes anything
# outside it.  Each test keeps a decoy folder beside the run folder and
# checks it is exactly as it was (snapshot), and that nothing measured
# was lost.

# A small finished run folder R (2 cells x 2 repetitions, hist.csv too).
links_run() {
	mat m.yaml <<'Y'
name: links
repeat: 2
warmup: 5
matrix:
  pattern: pingpong
  transport: [unix, tcp]
  count: 200
Y
	run_matrix run m.yaml -o R -q; expect_rc 0
	[ -s R/hist.csv ] || die "the run wrote no hist.csv"
}

# The decoy: files with the names the tool creates and removes, outside
# every run folder.
make_decoy() {
	mkdir -p decoy
	local f
	for f in latency-9.svg latency-9.gp latency-1.gp timeline.svg throughput.svg \
		throughput.gp gnuplot.log victim results.csv hist.csv log; do
		echo "precious $f" >"decoy/$f"
	done
}

# Every entry of a tree: path, type, size, mtime, link target; and the
# files' contents.
snap() {
	find "$1" -printf '%p %y %s %T@ %l\n' | sort
	find "$1" -type f -exec md5sum {} + | sort
}

expect_same_snap() {	# FILE-WITH-OLD-SNAPSHOT TREE
	[ "$(snap "$2")" = "$(cat "$1")" ] || die "$2 changed: $(diff <(cat "$1") <(snap "$2") | head -8)"
}

# Item 1: --export-json FILE that is the matrix file, or a file the
# command reads or writes in its folders, is refused before anything is
# written (exit 2, the flag named), however the path reaches it.
t_export_json_never_replaces_what_the_command_reads() {
	links_run
	snap R >R.snap
	local f
	for f in results.csv meta.csv hist.csv matrix.yaml summary.csv plots/rtt.gp; do
		run_matrix report R -q --export-json "R/$f"; expect_rc 2
		expect_err "matrix report: --export-json R/$f: that is $f of the run folder R"
		expect_same_snap R.snap R
	done
	# through a link to the file, and through a linked folder
	ln -s R/results.csv out.json
	run_matrix report R -q --export-json out.json; expect_rc 2
	expect_err "matrix report: --export-json out.json: that is results.csv of the run folder R"
	ln -s R rlink
	run_matrix report R -q --export-json rlink/meta.csv; expect_rc 2
	expect_same_snap R.snap R
	[ -L out.json ] || die "out.json was replaced"
	# -o DIR whose files would land among the folder's own
	run_matrix report R -q -o R/plots/new; expect_rc 2
	expect_err "matrix report: -o R/plots/new: its summary.csv would be plots/new/summary.csv of the run folder R, which report writes"
	expect_same_snap R.snap R
	# run: the matrix file, the new run folder's files, the baseline's
	cp m.yaml m.orig
	run_matrix run m.yaml -o N -q --export-json m.yaml; expect_rc 2
	expect_err "matrix run: --export-json m.yaml: that is the matrix file m.yaml"
	cmp -s m.yaml m.orig || die "m.yaml was changed"
	run_matrix run m.yaml -o N -q --export-json N/results.csv; expect_rc 2
	expect_err "matrix run: --export-json N/results.csv: that is results.csv of the run folder N"
	run_matrix run m.yaml -q --baseline R --export-json R/hist.csv; expect_rc 2
	expect_err "matrix run: --export-json R/hist.csv: that is hist.csv of the run folder R"
	[ ! -e N ] && [ ! -e results ] || die "a refused run made a folder: $(ls)"
	expect_same_snap R.snap R
	# a file of its own in the folder is still written
	run_matrix report R -q --export-json R/mine.json; expect_rc 0
	[ -s R/mine.json ] || die "R/mine.json was not written"
}

# Item 5: a plots/ that is a link (or not a folder) is refused by report,
# compare and history before they write anything; chart names that are
# links in a real plots/ are never written through.
t_plots_link_is_never_followed() {
	links_run
	make_decoy
	snap decoy >decoy.snap
	cp -a R A
	cp -a R B
	rm -rf A/plots B/plots
	ln -s "$T/decoy" A/plots
	ln -s ../decoy B/plots
	cp A/results.csv a.results
	run_matrix report A -q; expect_rc 2
	expect_err "matrix report: A/plots: a symbolic link"
	cmp -s A/results.csv a.results || die "A/results.csv changed"
	expect_same_snap decoy.snap decoy
	run_matrix compare R B -q; expect_rc 2
	expect_err "matrix compare: B/plots: a symbolic link"
	[ ! -e B/compare.csv ] || die "compare wrote B/compare.csv"
	expect_same_snap decoy.snap decoy
	mkdir H
	cp -a R H/r1
	cp -a R H/r2
	ln -s "$T/decoy" H/plots
	run_matrix history H -q; expect_rc 2
	expect_err "matrix history: H/plots: a symbolic link"
	[ ! -e H/history.csv ] || die "history wrote H/history.csv"
	expect_same_snap decoy.snap decoy
	# not a folder
	rm A/plots
	echo mine >A/plots
	run_matrix report A -q; expect_rc 2
	expect_err "matrix report: A/plots: not a directory"
	[ "$(cat A/plots)" = mine ] || die "A/plots was changed"
	# in a real plots/: gnuplot's log and the charts, links elsewhere
	ln -sf "$T/decoy/gnuplot.log" R/plots/gnuplot.log
	ln -sf "$T/decoy/victim" R/plots/throughput.svg
	ln -sf "$T/decoy/latency-9.svg" R/plots/latency-9.svg
	# a report file that is a link: renamed over, the link replaced
	rm R/summary.csv
	ln -s "$T/decoy/throughput.gp" R/summary.csv
	run_matrix report R -q; expect_rc 0
	expect_same_snap decoy.snap decoy
	[ -f R/summary.csv ] && [ ! -L R/summary.csv ] || die "R/summary.csv is still a link"
	[ -f R/plots/throughput.svg ] && [ ! -L R/plots/throughput.svg ] ||
		die "R/plots/throughput.svg is not the new image"
	grep -q '</svg>' R/plots/throughput.svg || die "R/plots/throughput.svg is no image"
	# a chart of another name that is a link: report.html shows it could
	# not be shown, and never takes in the file it points to
	cp R/plots/throughput.svg decoy-secret.svg
	sed -i 's/<title>/<title>SECRET-OUTSIDE /' decoy-secret.svg
	grep -q SECRET-OUTSIDE decoy-secret.svg || die "no marker in the decoy image"
	ln -s "$T/decoy-secret.svg" R/plots/extra.svg
	run_matrix report R -q; expect_rc 0
	grep -q SECRET-OUTSIDE R/report.html && die "report.html took in a linked image from outside"
	grep -q 'id="c-extra"' R/report.html || die "the linked chart is not named in report.html"
	return 0
}

# A copy of R as a run interrupted before its last row (as
# test_reliability.sh makes one), in D; the cell and repetition of that
# row in $lc and $lr.
interrupted_copy() {
	rm -rf D
	cp -a R D
	sed -i 's/^status,ok$/status,interrupted/' D/meta.csv
	read -r lc lr <<<"$(csvq D/results.csv cell rep | tail -n 1)"
	head -n -1 D/results.csv >r.tmp && mv r.tmp D/results.csv
	# its hist.csv rows run again too
	awk -F, -v c="$lc" -v r="$lr" 'NR == 1 || $1 != c || $2 != r' D/hist.csv >h.tmp &&
		mv h.tmp D/hist.csv
	[ "$(wc -l <D/hist.csv)" -lt "$(wc -l <R/hist.csv)" ] || die "no hist.csv row of cell $lc rep $lr"
}

# Item 6: --resume refuses a folder whose .lock, results.csv, hist.csv,
# logs/ or a log it would write is a link (exit 2, the file named and
# called a symbolic link), before it touches anything.
t_resume_never_writes_through_links() {
	links_run
	make_decoy
	local how
	for how in lock results hist logdir log; do
		interrupted_copy
		case $how in
		lock) rm -f D/.lock; ln -s "$T/decoy/victim" D/.lock; want="D/.lock: a symbolic link" ;;
		results) cp D/results.csv decoy/results.csv; rm D/results.csv
			ln -s "$T/decoy/results.csv" D/results.csv
			want="D/results.csv: a symbolic link" ;;
		hist) cp D/hist.csv decoy/hist.csv; rm D/hist.csv
			ln -s "$T/decoy/hist.csv" D/hist.csv
			want="D/hist.csv: a symbolic link" ;;
		logdir) rm -rf D/logs; ln -s "$T/decoy" D/logs; want="D/logs: a symbolic link" ;;
		log) mkdir -p D/logs
			ln -s "$T/decoy/log" "D/logs/cell$lc-rep$lr-server.log"
			want="D/logs/cell$lc-rep$lr-server.log: a symbolic link" ;;
		esac
		snap decoy >decoy.snap
		rm -f d.results && cp D/results.csv d.results
		run_matrix run --resume D -q; expect_rc 2
		expect_err "matrix: --resume D: $want"
		expect_same_snap decoy.snap decoy
		cmp -s D/results.csv d.results || die "$how: D/results.csv changed"
	done
	# without the links it resumes: one row more, the rows before kept
	interrupted_copy
	cp D/results.csv d.results
	run_matrix run --resume D -q; expect_rc 0
	[ "$(head -n "$(wc -l <d.results)" D/results.csv)" = "$(cat d.results)" ] ||
		die "the rows before the resume changed"
	[ "$(csvq D/results.csv --rows)" -eq 4 ] || die "$(csvq D/results.csv --rows) rows, not 4"
}

# Item 15: `latest` is replaced only when it is the tool's own link (to a
# run folder beside it); a link of the user's is left, said once.
t_latest_of_the_user_is_left_alone() {
	mat m.yaml <<'Y'
name: lk
repeat: 2
warmup: 5
matrix:
  transport: unix
  count: 100
Y
	mkdir -p results/lk decoy
	ln -s "$T/decoy" results/lk/latest
	run_matrix run m.yaml -q; expect_rc 0
	[ "$(readlink results/lk/latest)" = "$T/decoy" ] || die "the user's latest was replaced: $(readlink results/lk/latest)"
	expect_err "matrix: results/lk/latest is not a link of ours (it points to $T/decoy): left as it is"
	[ "$(grep -c 'latest is not a link of ours' "$T/.err")" -eq 1 ] || die "said more than once: $(cat "$T/.err")"
	# a sibling folder that is no run folder is not ours either
	mkdir results/lk/notarun
	ln -sfn notarun results/lk/latest
	run_matrix run m.yaml -q; expect_rc 0
	[ "$(readlink results/lk/latest)" = notarun ] || die "latest -> notarun was replaced"
	# the tool's own link moves to the new run
	local first
	first=$(tail -n 1 "$T/.out")
	ln -sfn "${first##*/}" results/lk/latest
	run_matrix run m.yaml -q; expect_rc 0
	local second
	second=$(tail -n 1 "$T/.out")
	[ "$(readlink results/lk/latest)" = "${second##*/}" ] || die "latest: $(readlink results/lk/latest), not ${second##*/}"
}
