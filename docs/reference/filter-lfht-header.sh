#!/bin/sh
# SPDX-License-Identifier: MIT
# Doxygen INPUT_FILTER for lfht/lfht.h: prints the header with two things
# blanked out (as empty lines, so that line numbers stay the header's):
#   - the cds_lfht_lookup() macro, which routes calls to an inline copy of
#     the lookup: the reference documents cds_lfht_lookup() once, as the
#     function it behaves as;
#   - the unnamed enum of internal flags (LFHT_REMOVED_, ...): its members
#     are excluded as internal, which would leave an empty "enum" behind.
awk '
skip_macro {
	print ""
	if ($0 !~ /\\$/)
		skip_macro = 0
	next
}
/^#define cds_lfht_lookup\(/ {
	print ""
	if ($0 ~ /\\$/)
		skip_macro = 1
	next
}
in_enum {
	print ""
	if ($0 ~ /^};/)
		in_enum = 0
	next
}
held != "" {
	if ($0 ~ /^[ \t]*LFHT_[A-Z_]*_ *=/) {
		print ""
		print ""
		in_enum = 1
		held = ""
		next
	}
	print held
	held = ""
}
/^enum \{$/ {
	held = $0
	next
}
{ print }
END { if (held != "") print held }
' "$1"
