# Runs every GoogleTest binary built in this directory, one lit test per case.
import os
import lit.formats

config.name = "Adjoint-Unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.adjoint_unit_dir
config.test_exec_root = config.adjoint_unit_dir
