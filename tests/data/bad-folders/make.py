#!/usr/bin/env python3
"""Makes the hostile run folders of tests/data/bad-folders/ from the good
one, tests/data/tiny-run/ (a real run's, hist.csv's buckets merged to one a
repetition): each NAME/ is that folder with one defect (DEFECTS below).
NAME/expected.err is not made here: it is the first line `matrix report
NAME` prints, checked by hand, with the folder's path as DIR
(tests/e2e/test_bad_folders.sh).  A case the fuzzer found is a folder made
by hand beside them, with its own expected.err.

    python3 tests/data/bad-folders/make.py      # remakes every NAME/ below
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GOOD = os.path.join(HERE, '..', 'tiny-run')


def field(text, line, col, value):
    """text with the field `col` (0-based) of line `line` (1-based) set."""
    lines = text.split('\n')
    f = lines[line - 1].split(',')
    f[col] = value
    lines[line - 1] = ','.join(f)
    return '\n'.join(lines)


def column(text, name):
    return text.split('\n')[0].split(',').index(name)


def set_field(name, line, value):
    return lambda t: field(t, line, column(t, name), value)


def append_line(line):
    return lambda t: t + t.split('\n')[line - 1] + '\n'


def append_rows(t):
    return t + ''.join(l + '\n' for l in t.split('\n')[1:] if l)


# NAME: (file, edit of its text)
DEFECTS = {
    'duplicate-row': ('results.csv', append_line(9)),
    'rows-appended-twice': ('results.csv', append_rows),
    'negative-rate': ('results.csv', set_field('msgs_per_s', 2, '-5000000000')),
    'negative-count': ('results.csv', set_field('messages', 3, '-100')),
    'negative-time': ('results.csv', set_field('elapsed_s', 4, '-0.5')),
    'negative-duration': ('results.csv', set_field('wall_s', 6, '-1')),
    'hex-figure': ('results.csv', set_field('msgs_per_s', 2, '0x10')),
    'inf-figure': ('results.csv', set_field('rtt_p50_us', 2, 'inf')),
    'huge-figure': ('results.csv', set_field('rtt_max_us', 7, '1e400')),
    'nul-in-field': ('results.csv', set_field('messages', 5, '"8\0"')),
    'rep-not-number': ('results.csv', set_field('rep', 3, '1x')),
    'rep-zero': ('results.csv', set_field('rep', 3, '0')),
    'rep-hex': ('results.csv', set_field('rep', 3, '0x1')),
    'cell-negative': ('results.csv', set_field('cell', 4, '-3')),
    'unknown-transport': ('results.csv', set_field('transport', 5, '"tcp\n..."')),
    'one-cell-two-numbers': ('results.csv', set_field('cell', 9, '5')),
    'other-transport': ('results.csv', set_field('transport', 2, 'udp')),
    'short-row': ('results.csv', lambda t: t + '1,pingpong,unix\n'),
    'stray-quote': ('results.csv', set_field('error', 3, 'a"b')),
    'hist-count-2e64': ('hist.csv', set_field('count', 2, '18446744073709551616')),
    'hist-count-1e30': ('hist.csv', set_field('count', 3, '1e30')),
    'hist-count-fraction': ('hist.csv', set_field('count', 3, '99.5')),
    'hist-sum-mismatch': ('hist.csv', set_field('count', 3, '99')),
    'hist-negative-bound': ('hist.csv', set_field('low_us', 4, '-1')),
    'hist-hex-bound': ('hist.csv', set_field('high_us', 5, '0x1f')),
    'timeline-negative': ('timeline.csv', set_field('messages', 3, '-30')),
    'timeline-nan': ('timeline.csv', set_field('covered_s', 4, 'nan')),
    'timeline-header': ('timeline.csv', lambda t: t.replace('covered_s', 'covered', 1)),
    'meta-nul': ('meta.csv', lambda t: t.replace('cores,2', '"cores","2\0"', 1)),
    'meta-header': ('meta.csv', lambda t: t.replace('key,value', 'k,v', 1)),
}


def main():
    for name, (file, edit) in sorted(DEFECTS.items()):
        out = os.path.join(HERE, name)
        keep = os.path.join(out, 'expected.err')
        err = open(keep, 'rb').read() if os.path.exists(keep) else None
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(GOOD, out)
        path = os.path.join(out, file)
        text = open(path, encoding='utf-8', newline='').read()
        bad = edit(text)
        if bad == text:
            sys.exit(f'{name}: the edit changed nothing')
        open(path, 'w', encoding='utf-8', newline='').write(bad)
        if err is not None:
            open(keep, 'wb').write(err)


if __name__ == '__main__':
    main()
