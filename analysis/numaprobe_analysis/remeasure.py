# SPDX-License-Identifier: BSD-3-Clause
"""The command that measures the noisy hosts again: a figure that could not be judged is to be
measured, not ignored. It runs what the first run ran (its config, its `--set` options, its
`--time-budget` and its `--only`, read back from the file's `command_line` attribute), so its file has the same
measurement config and pools with the first one without --allow-mixed-configs."""

import shlex

# The options of `numaprobe` that decide the effective config (src/job/cli.c), long and short:
# the others (output, progress, verbosity) change nothing measured.
CONFIG_OPTIONS = {"--config": "-c", "--set": "-s", "--time-budget": None, "--only": None}


def run_options(command_line, config_source=""):
    """[(option, value)] of @p command_line (rank 0's argv joined by spaces) that decide the
    effective config, in their order, each as its long name; where the command line names no
    config, the file's @p config_source unless it is the built-in defaults."""
    words = str(command_line).split()
    short = {s: long for long, s in CONFIG_OPTIONS.items() if s}
    out, i = [], 1
    while i < len(words):
        word = words[i]
        name, value = word, None
        if word.startswith("--") and "=" in word:
            name, value = word.split("=", 1)
        elif word[:2] in short and len(word) > 2:  # -cquick, -skey=value
            name, value = word[:2], word[2:]
        name = short.get(name, name)
        if name in CONFIG_OPTIONS:
            if value is None:
                i += 1
                value = words[i] if i < len(words) else ""
            out.append((name, value))
        i += 1
    if not any(name == "--config" for name, _ in out) and config_source \
            and not str(config_source).startswith("built-in"):
        out.insert(0, ("--config", str(config_source)))
    return out


def remeasure_line(noisy_hosts, attrs, most=None):
    """The line for @p noisy_hosts (names) of a run whose root attributes are @p attrs; empty
    when there is no host. Past @p most hosts the line names the first @p most and says where
    the rest are (a fleet's stdout stays readable; noisy.csv lists every figure)."""
    if not noisy_hosts:
        return ""
    options = run_options(attrs.get("command_line", ""), attrs.get("config_source", ""))
    args = "".join(f" {name} {shlex.quote(value)}" for name, value in options)
    names = sorted(noisy_hosts)
    what = "the noisy hosts"
    if most is not None and len(names) > most:
        what = (f"the first {most} of {len(names)} noisy hosts (noisy.csv in the report "
                f"directory names them all)")
        names = names[:most]
    return (f"re-measure {what}: mpirun --host {','.join(names)} --map-by ppr:1:node --bind-to "
            f"none numaprobe{args} -o remeasure.h5")
