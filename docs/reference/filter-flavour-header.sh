#!/bin/sh
# SPDX-License-Identifier: MIT
# Doxygen INPUT_FILTER for rcu/qsbr.h, rcu/memb.h, rcu/bp.h and rcu/mb.h:
# prints the header, then the reference text of its short names from
# docs/reference/short/<name>.dox. The headers declare the same short names
# (rcu_read_lock(), ...), and
# doxygen can only tell which declaration a block documents when the block
# sits in the same file. Appending (and documenting the flavour object on its
# own line) keeps the header's line numbers.
sed 's|^RCU_DECLARE_FLAVOUR(\("[a-z_]*"\))|/** \\brief The flavour object (struct rcu_flavour): C code names it rcu_flavour, the linker \1; cds_lfht_new() passes it to cds_lfht_new_flavour(). */ &|' "$1"
extra="$(dirname "$0")/short/$(basename "$1").dox"
if [ -f "$extra" ]; then
	cat "$extra"
fi
