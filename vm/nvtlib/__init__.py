# SPDX-License-Identifier: GPL-2.0-only
"""The host side of the build-and-boot harness, one module per concern;
vm/nvt.py is its command line."""
