#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-tls-model.sh READELF LIBRARY
#
# Fails when the shared LIBRARY reaches a thread-local variable of its own
# through __tls_get_addr(): a dynamic TLS relocation (general or local
# dynamic: DTPMOD, TLSDESC). Every thread-local variable of a flavour
# library is initial-exec (RCU_TLS_MODEL_, rcu/reader.h), one
# thread-pointer-relative access; a definition that lacks the attribute
# compiles as general dynamic in a shared library, a call on every access
# (call_rcu() made four). Also fails when the library has no initial-exec
# TLS relocation at all, which would mean that this check read nothing.
set -eu

readelf=${1:?usage: check-tls-model.sh READELF LIBRARY}
lib=${2:?usage: check-tls-model.sh READELF LIBRARY}

relocs=$("$readelf" --relocs --wide "$lib")
dynamic=$(printf '%s\n' "$relocs" | grep -E 'DTPMOD|TLSDESC' || true)
if [ -n "$dynamic" ]; then
	echo "check-tls-model.sh: $lib reaches thread-local variables through __tls_get_addr():" >&2
	printf '%s\n' "$dynamic" >&2
	exit 1
fi
initial_exec=$(printf '%s\n' "$relocs" | grep -c -E 'TPOFF|TPREL' || true)
if [ "$initial_exec" -eq 0 ]; then
	echo "check-tls-model.sh: $lib has no initial-exec TLS relocation: nothing was checked" >&2
	exit 1
fi
echo "$lib: $initial_exec initial-exec TLS relocations, no dynamic one"
