"""Analysis of numaprobe results files: loading (load), tables (tables), command line (cli)."""
