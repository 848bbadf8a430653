# End-to-end tests for the driver's own tests of its pool (test_driver.sh
# runs them through tests/run.sh --e2e, with fixture_pool_b.sh beside):
# one that meets its peer in the other file, one that must run alone
# (TEST_ALONE), one that fails.  Not a test file of the suite.
source "$REPO/tests/driver/pool_lib.sh"

t_a_meets_b() { meet a b; }

t_a_alone() { alone; }

t_a_fails() { die "a failure in a job beside another"; }
