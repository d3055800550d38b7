"""export_csv.py: how the tables of harness/tools read their inputs
(ab_table.py, kv_slopes.py): a results file's rows as `PROG export` writes
them (CSV text), or an export already written (a path ending in .csv) as
it is. A file that cannot be read, a program that cannot run, or a file
mlabench refuses ends by the caller's die() with one line naming it."""
import subprocess


def export_text(path, prog, die):
    """The CSV text of path's rows (die(message) on any failure)."""
    if path.endswith(".csv"):
        try:
            with open(path, newline="") as f:
                return f.read()
        except OSError as e:
            die("%s: cannot read (%s)" % (path, e.strerror))
    try:
        r = subprocess.run([prog, "export", path], capture_output=True, text=True)
    except OSError as e:
        die("%s: cannot run %s (%s)" % (path, prog, e.strerror))
    if r.returncode != 0:
        err = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
        die("%s: not a results file (%s export: %s)" % (path, prog, err))
    return r.stdout
