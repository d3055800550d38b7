# The README's tolerance table is a copy of reference/metrics.c's: pin that it
# is current (regenerate with tests/test_readme.py --fix).
mlab_py_test(test_readme test_readme.py LABELS cpu)
# the README's H200 table is the results file it names, cell by cell (and the checker can fail)
mlab_py_test(test_readme_h200 test_readme_h200.py LABELS cpu)
mlab_py_test(test_readme_h200_selftest test_readme_h200.py LABELS cpu ARGS --self-test)
# and readme_table.py prints that table from that file (the next suite's table is generated)
mlab_py_test(test_readme_table test_readme_table.py LABELS cpu)
# every MLAB_* environment variable the project reads is named in a user
# document or in the opening comment of a file reading it (and the check can fail)
mlab_py_test(test_env_docs test_env_docs.py LABELS cpu)
mlab_py_test(test_env_docs_selftest test_env_docs.py LABELS cpu ARGS --self-test)
# goals.py: a results file against papers/goals/ (issue 9's bars), the values
# cross-checked against the README's H200 table, and the check can fail
mlab_py_test(test_goals test_goals.py LABELS cpu)
