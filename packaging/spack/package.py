# SPDX-License-Identifier: BSD-3-Clause
# Spack recipe for numaprobe: `spack repo add`-able as packages/numaprobe/package.py of a site
# repository. Its dependencies are those of packaging/dependencies.txt (packaging.recipes checks
# it); it has not been built by Spack here (packaging/README.md).

from spack.package import *


class Numaprobe(CMakePackage):
    """Fleet-wide NUMA memory benchmark: idle latency and bandwidth of every NUMA node pair,
    cache curves, thread scaling and verified page placement on every host of an MPI job, in
    one HDF5 file; numaprobe-report compares node types and finds outlier hosts."""

    # The project's public address: set these where the repository is published.
    homepage = "https://example.org/numaprobe"
    git = "https://example.org/numaprobe.git"

    license("BSD-3-Clause")

    version("main", branch="main")
    version("0.2.0", tag="v0.2.0")

    depends_on("c", type="build")  # a C17 compiler with OpenMP
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("help2man", type="build")  # the man pages

    depends_on("mpi")
    depends_on("hwloc@2:")
    depends_on("numactl")
    depends_on("libyaml")
    depends_on("jansson")  # --summary-json
    depends_on("hdf5+mpi")

    # numaprobe-report
    depends_on("python", type="run")
    depends_on("py-h5py", type="run")
    depends_on("py-pandas", type="run")
    depends_on("py-matplotlib", type="run")
    depends_on("py-numpy", type="run")
    depends_on("py-scipy", type="run")
    depends_on("py-pyyaml", type="run")  # compare --references REF.yaml

    def cmake_args(self):
        return [
            self.define("NPRB_BUILD_TESTS", False),
            # numaprobe-report's interpreter: Spack's Python, which has its packages.
            self.define("NPRB_PYTHON", self.spec["python"].command.path),
        ]

    @run_after("install")
    @on_package_attributes(run_tests=True)
    def check_installed(self):
        numaprobe = Executable(self.prefix.bin.numaprobe)
        numaprobe("--version")
        numaprobe("-c", "quick", "--dry-run")
