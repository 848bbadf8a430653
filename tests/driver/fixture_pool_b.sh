# fixture_pool_a.sh's peer: a test that meets it, one that skips.  Not a
# test file of the suite.
source "$REPO/tests/driver/pool_lib.sh"

t_b_meets_a() { meet b a; }

t_b_skips() { skip "no widget beside the pool"; }
