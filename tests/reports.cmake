# Report folders stay lean (papers/reports/*/: README with what/when/commit/
# machine, the .h5 files cited, report.md, PNG figures cited, one rerun.sh;
# size caps; nothing outside the repository).
mlab_py_test(test_reports test_reports.py LABELS cpu)
# Each report's rerun.sh redraws its figures and report from the committed
# results files with this mlabench (the committed files are schema v1: the
# v2 reader reads them).
add_test(NAME reports_rerun COMMAND sh -c "set -e; t=$(mktemp -d); for r in ${CMAKE_SOURCE_DIR}/papers/reports/*/rerun.sh; do MLAB_BIN=$<TARGET_FILE:mlabench> MLAB_SPLIT_PICK=$<TARGET_FILE:mlab_split_pick> \"$r\" --out \"$t/$(basename $(dirname $r))\" > \"$t/out.txt\" || { cat \"$t/out.txt\"; echo \"FAIL: $r\"; exit 1; }; done; rm -rf \"$t\"; echo reports_rerun: ok")
set_tests_properties(reports_rerun PROPERTIES LABELS cpu)
# No tracked file points outside the repository (the shared workspace, a
# machine's absolute path, the old task file): known violations in files owned
# elsewhere are listed, printed, and may only shrink.
mlab_py_test(test_no_outside_paths test_no_outside_paths.py LABELS cpu)
# papers/ideas.md indexes papers/perf-notes.md: every entry (### vN) has a
# row, every row five cells, a known status and a version the notes have.
mlab_py_test(test_ideas test_ideas.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR})
