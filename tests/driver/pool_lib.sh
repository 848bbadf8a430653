# Helpers of the pool's fixtures (fixture_pool_a.sh, fixture_pool_b.sh):
# tests that pass only when the driver runs the two files at once, and one
# that passes only when nothing runs beside it.  They keep their marks in
# $POOL_DIR, which test_driver.sh makes for each case.

: "${POOL_DIR:?}"

# meet ME PEER: this test of file ME waits (POOL_WAIT seconds, 20) for a
# test of file PEER to run at the same time, each seen by its mark in
# $POOL_DIR/running; once seen, it stays 1 s more, for the peer to see it
# too (and the lone test to see both).  Run one after the other, they
# never meet.
meet() {
	local i mark=$POOL_DIR/running/$1.$BUILD_TAG
	mkdir -p "$POOL_DIR/running" && : >"$mark"
	for i in $(seq $((${POOL_WAIT:-20} * 20))); do
		compgen -G "$POOL_DIR/running/$2.*" >/dev/null && break
		sleep 0.05
	done
	compgen -G "$POOL_DIR/running/$2.*" >/dev/null || {
		rm -f "$mark"
		die "fixture_pool_$1.sh ($BUILD_TAG) never ran beside fixture_pool_$2.sh"
	}
	sleep 1
	rm -f "$mark"
}

# alone: no other test runs at this test's start, nor in the second after
alone() {
	local i
	for i in 1 2 3; do
		[ -z "$(ls -A "$POOL_DIR/running" 2>/dev/null)" ] ||
			die "running beside the lone test: $(ls "$POOL_DIR/running")"
		[ "$i" -eq 3 ] || sleep 0.5
	done
	echo "$BUILD_TAG" >>"$POOL_DIR/alone"
}
