# The README's tolerance table is a copy of reference/metrics.c's: pin that it
# is current (regenerate with tests/test_readme.py --fix).
mlab_py_test(test_readme test_readme.py LABELS cpu)
