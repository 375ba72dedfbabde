-- SPDX-License-Identifier: BSD-3-Clause
-- Lmod modulefile for an installation of numaprobe (cmake --install . --prefix ROOT). Copy it to
-- MODULEPATH/numaprobe/0.2.0.lua and set root. After `module load numaprobe` the job scripts in
-- $NUMAPROBE_ROOT/share/numaprobe/jobs find numaprobe on PATH and the configs by name
-- (install.lmod_module loads it with Lmod and runs numaprobe from it).
help([[numaprobe 0.2.0: fleet-wide NUMA memory benchmark (numaprobe, numaprobe-report).
Job scripts: $NUMAPROBE_ROOT/share/numaprobe/jobs; configs by name: numaprobe -c default.]])
whatis("Name: numaprobe")
whatis("Version: 0.2.0")
whatis("Description: fleet-wide NUMA memory benchmark")
whatis("URL: https://example.org/numaprobe")

-- The installation prefix (NUMAPROBE_MODULE_ROOT, if set, overrides it: the test uses that).
local root = os.getenv("NUMAPROBE_MODULE_ROOT") or "/opt/numaprobe/0.2.0"

-- The MPI library numaprobe was built with, where the site provides it as a module:
-- depends_on("openmpi")

setenv("NUMAPROBE_ROOT", root)
prepend_path("PATH", pathJoin(root, "bin"))
prepend_path("MANPATH", pathJoin(root, "share/man"))
