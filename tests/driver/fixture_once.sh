# A test the driver's own tests list in TEST_ONCE: it runs in the first
# build only, and says where it ran.  Not a test file of the suite.

t_once() { echo "$BUILD_TAG" >>"${POOL_DIR:?}/once"; }
