# report.html in a real browser: headless Chromium loads the page a run
# writes, and the rendered DOM, its console and a screenshot are checked.

# chromium_ok: skips the test (with the reason) where Chromium cannot run.
chromium_ok() {
	command -v chromium >/dev/null 2>&1 || skip "chromium is not installed (Debian package chromium; make deps)"
	printf '<!DOCTYPE html><title>t</title><p>ok</p>' >"$T/probe.html"
	browse --dump-dom "$T/probe.html" >"$T/probe.dom" 2>"$T/probe.err" ||
		skip "chromium cannot run here: $(grep -v dbus "$T/probe.err" | tail -2)"
	grep -q '<p>ok</p>' "$T/probe.dom" || skip "chromium rendered nothing here: $(tail -2 "$T/probe.err")"
}

# browse ARGS... PAGE: headless Chromium on a local file, its own profile
# in $T, bounded in time; the console goes to stderr.
browse() {
	local page=${*: -1}
	set -- "${@:1:$#-1}"
	HOME=$T timeout 30 chromium --headless --disable-gpu --no-sandbox --no-first-run \
		--user-data-dir="$T/chrome" --enable-logging=stderr --v=0 --hide-scrollbars \
		"$@" "file://$page"
}

# png_inked FILE: a PNG of at least 100x100 whose pixels are not all one
# colour, with at least 1% of them differing from the corner's.
png_inked() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
if data[:8] != b'\x89PNG\r\n\x1a\n':
    sys.exit('not a PNG')
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
if not w or depth != 8 or ctype not in (2, 6):
    sys.exit('unexpected PNG header')
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, rows = bytearray(stride), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
corner = rows[0][:3]
inked = sum(1 for r in rows[::4] for x in range(0, stride, bpp * 4) if r[x:x + 3] != corner)
total = len(rows[::4]) * len(range(0, stride, bpp * 4))
if w < 100 or h < 100 or inked * 100 < total:
    sys.exit('%dx%d, %d of %d sampled pixels differ from the corner' % (w, h, inked, total))
PY
}

# The page's DOM as Chromium built it, with no console message on the way.
dom_of() {
	browse --dump-dom "$1" >"$T/dom.html" 2>"$T/console.err" || die "chromium failed on $1: $(tail -3 "$T/console.err")"
	! grep -E ':CONSOLE|Uncaught' "$T/console.err" || die "console messages loading $1"
	[ -s "$T/dom.html" ] || die "chromium gave no DOM for $1"
}

t_default_matrix_page_in_chromium() {
	chromium_ok
	run_matrix run "$REPO/matrices/af_unix_vs_inet.yaml" --set repeat=3 --set count=2000 -o out --quiet
	expect_rc 0
	[ -s out/report.html ] || die "no out/report.html"
	local charts n
	charts=$(ls out/plots/*.svg | wc -l)
	[ "$charts" -ge 4 ] || die "only $charts charts in plots/"
	# self-contained: no script, nothing fetched, no other stylesheet
	! grep -nEi '<script|<link|<iframe|<svg|@import|https?://[^"]*"[^>]*>' out/report.html |
		grep -v 'xmlns' || die "report.html loads or runs something"
	dom_of "$T/out/report.html"
	# every chart an image whose source is a data: URI, and no inline SVG or script
	n=$(grep -o '<img alt="[^"]*" src="data:image/svg+xml;base64,' dom.html | wc -l)
	[ "$n" -eq "$charts" ] || die "$n data: images in the DOM, $charts charts in plots/"
	[ "$(grep -oE '<img[^>]*>' dom.html | grep -vc 'src="data:image/svg+xml;base64,')" -eq 0 ] ||
		die "an image that is not a data: URI"
	! grep -qEi '<svg|<script' dom.html || die "inline SVG or script in the DOM"
	# the tables come before the first chart
	local at_t at_f
	at_t=$(grep -n -m1 '<table' dom.html | cut -d: -f1)
	at_f=$(grep -n -m1 '<figure' dom.html | cut -d: -f1)
	[ "$at_t" -lt "$at_f" ] || die "the first chart (line $at_f) comes before the tables (line $at_t)"
	# which p50 is which, on the page
	grep -q 'the median of repetitions' dom.html || die "the tables' p50 is not labelled"
	grep -q 'merged histogram of all repetitions' dom.html || die "the charts' p50 is not labelled"
	! ls out/plots/latency*.svg >/dev/null 2>&1 ||
		grep -q 'merged histogram of all repetitions' out/plots/latency*.svg ||
		die "the latency chart does not say its p50 is of the merged histogram"
	grep -q '<h1>af_unix_vs_inet</h1>' dom.html || die "no title"
	# the headline first, once: a sentence per ratio and scenario
	grep -qE '<li>(unix delivered [0-9.]+× \([0-9.]+–[0-9.]+, ≥56%\) the messages per second of tcp|no clear difference between unix and tcp in messages per second: unix/tcp is [0-9.]+× \([0-9.]+–[0-9.]+, ≥56%\), an interval across 1×): echo, 10B, 1 client</li>' dom.html ||
		die "no headline: $(grep -m2 -A3 'class="headline"' dom.html)"
	[ "$(grep -c '>Headline</h2>' dom.html)" -eq 1 ] || die "the headline is not there once"
	local at_h at_c
	at_h=$(grep -n 'class="headline"' dom.html | cut -d: -f1)
	at_c=$(grep -n '<h2 id="charts">' dom.html | cut -d: -f1)
	[ "$at_h" -lt "$at_c" ] || die "the headline comes after the charts"
	grep -q '<h3>messages per second</h3>' dom.html || die "no messages per second table"
	grep -q '<th class="num">AF_UNIX/AF_INET</th>' dom.html || die "no ratio column"
	grep -qE '<td class="num">[0-9.]+× \([0-9.]+–[0-9.]+, ≥56%\)</td>' dom.html ||
		die "no ratio with its interval"
	[ "$(grep -o '<table' dom.html | wc -l)" -ge 7 ] || die "tables missing"
	grep -q 'id="c-ratios"' dom.html || die "no ratio chart"
	# the screenshot: a page with ink on it
	browse --screenshot="$T/shot.png" --window-size=1200,1800 "$T/out/report.html" \
		>/dev/null 2>"$T/shot.err" || die "no screenshot: $(tail -3 shot.err)"
	png_inked shot.png || die "the screenshot is blank"
	# `matrix report` writes the same page
	cp out/report.html first.html
	run_matrix report out --quiet; expect_rc 0
	cmp -s first.html out/report.html || die "matrix report changed report.html: $(diff first.html out/report.html | head -5)"
	rm -rf chrome
	expect_no_leftovers
}

t_hostile_text_stays_text_in_chromium() {
	chromium_ok
	mat m.yaml <<'Y'
name: hostile
description: "<img src=x onerror=alert(1)> </p><script>alert(2)</script> & \"q\" 'a'"
repeat: 1
warmup: 0
matrix:
  transport: [unix, tcp]
  count: 50
report:
  ratios:
    - name: "</text></svg><script>alert(3)</script><b>r</b> & 'z'"
      dimension: transport
      numerator: unix
      denominator: tcp
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	dom_of "$T/out/report.html"
	! grep -Ei '<img src=x|<script|<b>r' dom.html || die "matrix text became markup"
	grep -qF '&lt;img src=x onerror=alert(1)&gt; &lt;/p&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; "q" '"'a'" dom.html ||
		die "the description is not shown as text: $(grep -m1 'onerror' dom.html)"
	grep -qF '&lt;/text&gt;&lt;/svg&gt;&lt;script&gt;alert(3)&lt;/script&gt;&lt;b&gt;r&lt;/b&gt; &amp;' dom.html ||
		die "the ratio name is not shown as text"
	local charts n
	charts=$(ls out/plots/*.svg | wc -l)
	n=$(grep -o 'src="data:image/svg+xml;base64,' dom.html | wc -l)
	[ "$n" -eq "$charts" ] || die "$n charts in the DOM, $charts in plots/ (the ratio chart names the ratio)"
	grep -q 'class="missing"' dom.html && die "a chart was refused: $(grep -m1 'class="missing"' dom.html)"
	return 0
}

# Without gnuplot the page is still whole: the tables, and says why no chart.
t_page_without_gnuplot() {
	mat m.yaml <<'Y'
name: nognuplot
repeat: 1
warmup: 0
matrix:
  transport: [unix, tcp]
  count: 50
Y
	mkdir bin
	ln -s "$(command -v true)" bin/true
	PATH=$T/bin run_matrix run m.yaml -o out --quiet; expect_rc 0
	grep -q 'No charts: plots/ has no SVG image' out/report.html || die "no word on the missing charts"
	grep -q '<h3>messages per second</h3>' out/report.html || die "no table"
	grep -q '</html>' out/report.html || die "page cut short"
	grep -qE '<svg|<img' out/report.html && die "a chart with no gnuplot"
	return 0
}

# One section per pattern, each holding its own charts after its tables
# (DOM order: heading, tables, images); the charts of no one pattern in
# the final Charts section; every index link names an id on the page.
t_pattern_sections() {
	mat m.yaml <<'Y'
name: twopat
repeat: 1
warmup: 0
matrix:
  pattern: [pingpong, stream]
  transport: [unix, tcp]
  count: 50
Y
	run_matrix run m.yaml -o out --quiet; expect_rc 0
	[ -s out/plots/latency-1.svg ] || skip "no latency chart drawn (gnuplot?)"
	python3 - out/report.html <<'PY' || die "report.html's sections are not as they should be"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.ids, s.hrefs, s.items, s.h2, s.cur = set(), [], [], None, None
    def handle_starttag(s, tag, a):
        a = dict(a)
        if 'id' in a: s.ids.add(a['id'])
        if tag == 'a' and a.get('href', '').startswith('#'): s.hrefs.append(a['href'][1:])
        if tag == 'h2': s.h2 = ''
        if tag in ('table', 'img') and s.cur is not None: s.items.append((s.cur, tag, a.get('alt', '')))
    def handle_data(s, d):
        if s.h2 is not None: s.h2 += d
    def handle_endtag(s, tag):
        if tag == 'h2': s.cur, s.h2 = s.h2.strip(), None; s.items.append((s.cur, 'h2', ''))
p = P(); p.feed(open(sys.argv[1]).read())
bad = [h for h in p.hrefs if h not in p.ids]
if bad or len(p.hrefs) < 3: sys.exit('index links to no id: %s' % bad)
def sec(name): return [(t, alt) for s, t, alt in p.items if s == name and t != 'h2']
for pat in ('pingpong', 'stream'):
    kinds = [t for t, _ in sec(pat)]
    if 'table' not in kinds: sys.exit('no table in the %s section' % pat)
    if 'img' in kinds and kinds.index('img') < len(kinds) - 1 - kinds[::-1].index('table'):
        sys.exit('a chart before a table in the %s section' % pat)
    for t, alt in sec(pat):
        if t == 'img' and not alt.endswith(': ' + pat) and (': ' + pat + ',') not in alt:
            sys.exit('chart %r in the %s section' % (alt, pat))
if not any(alt.endswith(': pingpong') for t, alt in sec('pingpong')):
    sys.exit('the pingpong latency chart is not in its section')
if not any(t == 'img' and alt == 'throughput' for t, alt in sec('Charts')):
    sys.exit('the throughput chart (all patterns) is not in Charts')
PY
}

# A run folder's text is untrusted: a cell's status (results.csv) and the
# machine's facts (meta.csv) that hold tags reach report.html as text,
# through summary.md and md4c, and nothing in them becomes an element.
# And every link of the page's index names an id on it, the section
# whose heading it names.
t_folder_text_escaped_and_index_links() {
	mat m.yaml <<'Y'
name: folder-text
repeat: 1
warmup: 0
matrix:
  transport: [unix, tcp]
  count: 50
Y
	MATRIX_CHARTS=svg run_matrix run m.yaml -o out --quiet; expect_rc 0
	python3 - out <<'PY' || die "could not rewrite the folder"
import csv, sys
d = sys.argv[1]
rows = list(csv.reader(open(d + '/results.csv', newline='')))
st = rows[0].index('status')
for r in rows[1:]:
    if r[rows[0].index('transport')] == 'tcp':
        r[st] = '<script>alert(1)</script><img src=x onerror=alert(2)>'
csv.writer(open(d + '/results.csv', 'w', newline=''), lineterminator='\n').writerows(rows)
meta = list(csv.reader(open(d + '/meta.csv', newline='')))
for r in meta:
    if r[0] == 'host': r[1] = '<img src=x onerror=alert(3)>'
    if r[0] == 'cpu_model': r[1] = '</td></table><script>alert(4)</script> http://x.example/ a@b.example'
csv.writer(open(d + '/meta.csv', 'w', newline=''), lineterminator='\n').writerows(meta)
PY
	MATRIX_CHARTS=svg run_matrix report out --quiet; expect_rc 0
	grep -qF '<script>alert(1)' out/summary.md && die "summary.md carries the status as markup"
	! grep -nE '<script|<img src=x|<a href="(http|mailto)' out/report.html ||
		die "folder text became markup in report.html"
	grep -qF 'failed: &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;' out/report.html ||
		die "the cell's status is not shown as text: $(grep -F 'alert(1)' out/report.html | head -2)"
	grep -qF '&lt;img src=x onerror=alert(3)&gt;' out/report.html || die "the host is not shown as text"
	grep -qF '&lt;/td&gt;&lt;/table&gt;&lt;script&gt;alert(4)&lt;/script&gt; http://x.example/ a@b.example' out/report.html ||
		die "the CPU model is not shown as text: $(grep -F 'alert(4)' out/report.html)"
	python3 - out/report.html <<'PY' || die "the index does not lead to the sections"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.ids, s.links, s.link, s.sec, s.h2, s.heads = {}, [], None, None, None, {}
    def handle_starttag(s, tag, a):
        a = dict(a)
        if 'id' in a:
            if a['id'] in s.ids: sys.exit('id %s twice' % a['id'])
            s.ids[a['id']] = tag
        if tag == 'section': s.sec = a.get('id')
        if tag == 'a' and a.get('href', '').startswith('#'): s.link = [a['href'][1:], '']
        if tag == 'h2': s.h2 = ''
    def handle_data(s, d):
        if s.link is not None: s.link[1] += d
        if s.h2 is not None: s.h2 += d
    def handle_endtag(s, tag):
        if tag == 'a' and s.link is not None: s.links.append(tuple(s.link)); s.link = None
        if tag == 'h2' and s.h2 is not None:
            s.heads.setdefault(s.sec, s.h2.strip()); s.h2 = None
        if tag == 'section': s.sec = None
p = P(); p.feed(open(sys.argv[1]).read())
secs = [(h, t) for h, t in p.links if h.startswith('s')]
if len(secs) < 2 or ('charts', 'Charts') not in p.links: sys.exit('index: %s' % p.links)
for h, t in p.links:
    if h not in p.ids: sys.exit('index link #%s (%s) names no id' % (h, t))
for h, t in secs:
    if p.ids[h] != 'section' or p.heads.get(h) != t.strip():
        sys.exit('#%s (%s) leads to a %s headed %r' % (h, t, p.ids[h], p.heads.get(h)))
PY
}
