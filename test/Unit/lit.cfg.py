# Runs the GoogleTest binaries built under <build>/unittests.
import os

import lit.formats

config.name = "DLC-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.dlc_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
