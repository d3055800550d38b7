# hostile.cmake: hostile files and full disks (issue 15; harness/atomic.c,
# guard.c and the readers' storage checks). Label cpu: results-reader sizes,
# -o targets, FIFOs, a full disk, a killed gen, a contained libhdf5 crash or
# hang, escaped names (test_hostile). Labels fuzz and slow: a bounded
# mutation fuzz of the case reader and of the results reader (fixed seed;
# .ci/run runs them on the ASan+UBSan build; data/README.md gives the longer
# nightly command).
mlab_py_test(test_hostile test_hostile.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)
mlab_py_test(fuzz_case fuzz_h5.py LABELS fuzz slow ARGS case --runs 500 --seed 1)
mlab_py_test(fuzz_results fuzz_h5.py LABELS fuzz slow ARGS results --runs 500 --seed 1)
