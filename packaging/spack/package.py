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

    # Spack asks these GitHub accounts to review changes to this recipe. The project publishes
    # none, and a made-up one would be asked in vain: a site keeping this recipe in its own
    # repository names its own, maintainers("its-github-handle"). packaging.recipes requires
    # the directive and that each name is a GitHub handle, not a placeholder.
    maintainers()

    license("BSD-3-Clause")

    version("main", branch="main")
    # 0.2.0 has no release and no tag yet: this pins a commit of the repository whose
    # CMakeLists.txt says 0.2.0 (packaging.recipes checks both). On the release: tag it and put
    # `git rev-parse v0.2.0^{commit}` here, with tag="v0.2.0" beside it, and the same commit
    # and its archive's sha256 in the easyconfig.
    version("0.2.0", commit="40aac2cee439c41ccd048a2e458bffc7ef130fbf")

    # numaprobe-report, the fleet analysis, needs a Python with its packages; ~analysis builds the
    # MPI program alone, with no Python at all (a compute-node-only installation).
    variant("analysis", default=True, description="Install numaprobe-report (Python analysis)")
    # The commit 0.2.0 pins installs numaprobe-report whatever it is told: without its Python it
    # would be a command that cannot start.
    conflicts("~analysis", when="@0.2.0", msg="0.2.0's commit predates ~analysis: use @main")

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
    depends_on("libdeflate")  # the readers inflate the tables' chunks themselves

    # numaprobe-report: a Python program run by this Python (build and run: the build runs its
    # --help for the man page, which imports the packages typed "build" too). Its package goes
    # to libexec/numaprobe, private to it, not to site-packages: no extends("python").
    depends_on("python", type=("build", "run"), when="+analysis")
    depends_on("py-h5py", type=("build", "run"), when="+analysis")
    depends_on("py-pandas", type=("build", "run"), when="+analysis")
    depends_on("py-matplotlib", type=("build", "run"), when="+analysis")
    depends_on("py-numpy", type=("build", "run"), when="+analysis")
    depends_on("py-scipy", type=("build", "run"), when="+analysis")
    depends_on("py-pyyaml", type="run", when="+analysis")  # compare --references REF.yaml

    def cmake_args(self):
        args = [
            self.define("NPRB_BUILD_TESTS", False),
            self.define_from_variant("NPRB_ANALYSIS", "analysis"),
        ]
        if self.spec.satisfies("+analysis"):
            # numaprobe-report's interpreter: Spack's Python, which has its packages.
            args.append(self.define("NPRB_PYTHON", self.spec["python"].command.path))
        return args

    @run_after("install")
    @on_package_attributes(run_tests=True)
    def check_installed(self):
        numaprobe = Executable(self.prefix.bin.numaprobe)
        numaprobe("--version")
        numaprobe("-c", "quick", "--dry-run")
