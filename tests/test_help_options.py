#!/usr/bin/env python3
"""test_help_options.py: every long option a command accepts is in its --help.

The option tables are read from the sources: each `struct option NAME[] = {...}`
in harness/*.c (MLAB_SWEEP_OPTIONS expanded from harness/sweep.h), its
command the one its function names (`mlab_arg_once("gen", ...`,
`mlab_arg_getopt_error("check", ...`, `cmd = "report"`). For each command,
`mlabench CMD --help` exits 0 and names every option of its table as
`--NAME` (run, gen and import took --output and their helps said only -o).
The reader is checked too: every command of main.c's list but `tolerances`
has a table found, with --help in it, and each table one command.
Environment: MLAB_BIN = the mlabench binary, MLAB_SRC = the source tree.
Exit 0 pass, 1 fail, 77 skip ($MLAB_BIN missing).
"""
import os
import re
import subprocess
import sys

from mlabtest import bin_or_skip, check, finish, say, scratch

OPT = re.compile(r'\{\s*"([a-z0-9-]+)"\s*,\s*(?:no|required|optional)_argument\b')


def sweep_options(src):
    """The long options MLAB_SWEEP_OPTIONS lists (harness/sweep.h)."""
    h = open(os.path.join(src, "harness", "sweep.h")).read()
    m = re.search(r"#define MLAB_SWEEP_OPTIONS((?:[^\n]*\\\n)*[^\n]*)", h)
    return OPT.findall(m.group(1)) if m else []


def option_tables(src):
    """{command: [long option names]} from the option tables of harness/*.c."""
    sweep = sweep_options(src)
    tables = {}
    hdir = os.path.join(src, "harness")
    for name in sorted(os.listdir(hdir)):
        if not name.endswith(".c"):
            continue
        text = open(os.path.join(hdir, name)).read()
        for m in re.finditer(r"struct option\s+\w+\s*\[\s*\]\s*=\s*\{", text):
            end = text.find("};", m.end())
            body = text[m.end():end]
            names = OPT.findall(body) + (sweep if "MLAB_SWEEP_OPTIONS" in body else [])
            # the function around the table: from its opening brace (column 0) to its closing one
            start = text.rfind("\n{\n", 0, m.start())
            stop = text.find("\n}\n", m.start())
            fn = text[start:stop if stop >= 0 else len(text)]
            cmds = set(re.findall(r'\b(?:mlab_arg_once\w*|mlab_arg_getopt_error)\(\s*"(\w+)"', fn))
            cmds |= set(re.findall(r'\bcmd\s*=\s*"(\w+)"', fn))
            check(len(cmds) == 1, f"{name}: the option table at offset {m.start()} belongs to "
                                  f"one command, found {sorted(cmds)}")
            for c in cmds:
                tables.setdefault(c, []).extend(names)
    return tables


def main():
    binp = bin_or_skip()
    src = os.environ.get("MLAB_SRC", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    tmp = scratch("help_options")
    main_c = open(os.path.join(src, "harness", "main.c")).read()
    commands = re.findall(r'\{"(\w+)",\s*mlab_cmd_\w+,', main_c)
    tables = option_tables(src)
    want = [c for c in commands if c != "tolerances"]
    say(len(want) >= 10 and all(c in tables and "help" in tables[c] for c in want)
        and set(tables) <= set(commands),
        f"an option table with --help read for each of {len(want)} commands of main.c",
        f"commands {commands}, tables {sorted(tables)}")
    for cmd in sorted(tables):
        p = subprocess.run([binp, cmd, "--help"], capture_output=True, text=True, timeout=60)
        missing = [o for o in tables[cmd]
                   if o != "help" and not re.search(r"(?<![\w-])--%s(?![\w-])" % re.escape(o), p.stdout)]
        say(p.returncode == 0 and not missing,
            f"`{cmd} --help` names its {len(tables[cmd])} long options",
            f"exit {p.returncode}; not in the help: " + " ".join("--" + o for o in missing))
    return finish("test_help_options", tmp)


if __name__ == "__main__":
    sys.exit(main())
