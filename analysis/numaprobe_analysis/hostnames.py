# SPDX-License-Identifier: BSD-3-Clause
"""One host under two names: a fleet's files may name the same hosts by their short name one
night (`MPI_Get_processor_name` under one launcher) and by their FQDN the next (another
launcher or resolver setting). Counted twice, the fleet would look twice its size and each host
would be its own run, never its latest."""


def aliases(names_by_file):
    """@p names_by_file: file -> the hostnames it holds. Returns (name -> the name it is counted
    under, notes). `a` and `a.example.org` are one host when one is the other's first label,
    the FQDN is the only one of that first label, and no file holds both (a job that lists
    both measured two hosts). The FQDN names the host: it says more."""
    every = sorted({n for names in names_by_file.values() for n in names})
    by_label = {}
    for name in every:
        by_label.setdefault(name.split(".", 1)[0], []).append(name)
    out, pairs = {}, []
    for label, names in by_label.items():
        long = [n for n in names if n != label]
        if label not in names or len(long) != 1:
            continue
        fqdn = long[0]
        if any(label in held and fqdn in held for held in map(set, names_by_file.values())):
            continue
        out[label] = fqdn
        pairs.append((label, fqdn))
    notes = []
    if pairs:
        shown = ", ".join(f"{a} = {b}" for a, b in pairs[:3])
        more = f" and {len(pairs) - 3} more" if len(pairs) > 3 else ""
        notes.append(f"{len(pairs)} host(s) named by their short name in some files and by "
                     f"their FQDN in others, each counted once under its FQDN: {shown}{more}")
    return out, notes
