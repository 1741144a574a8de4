# live_opts.bash - the options a live tool's parser knows, read from the
# source as echo.bats, ping.bats and bench.bats compare them with --help:
# the tool's own (its own_names and .own_short in FILE), the common
# transport options its .takes names (one table, tools/common/live_opt.c),
# and -h, --help, --version (tools/common/live_opt.c, live_getopt()).

# the LIVE_O_* bits in FILE (its live_cli's .takes), one a line
live_common_bits() {
	grep -oE 'LIVE_O_[A-Z_]+' "$1" | sort -u
}

# the common table's lines for those bits
live_common_lines() {
	local b
	for b in $(live_common_bits "$1"); do
		grep -E "^\s*\{ $b, " "$TOP/tools/common/live_opt.c"
	done
}

live_parser_long_options() {     # $1 = the file with own_names
	{
		# the tool's names (.own_names, or own_names[] given to
		# cli_longs(): tools/common/cliopt.h)
		sed -n '/own_names\(\[\]\)\? =/,/[;,]$/p' "$1" | grep -oE '"[^"]*"' |
			tr -d '"' | tr ' ' '\n' | sed -n 's/=.*//; s/^./{ "&/p'
		live_common_lines "$1" | grep -oE '\{ "[a-z_-]+"'
		printf '{ "help"\n{ "version"\n'
	} | sed 's/{ "/--/; s/"//' | sort -u
}

live_parser_short_options() {    # $1 = the file with .own_short
	{
		grep -oE '\.own_short = "[^"]*"' "$1" | sed 's/.*"\(.*\)"/\1/; s/://g'
		# a long name's letter ("size=S") is its short option too
		# (tools/common/live_opt.c, own_letters())
		sed -n '/own_names\(\[\]\)\? =/,/[;,]$/p' "$1" | grep -oE '"[^"]*"' |
			tr -d '"' | tr ' ' '\n' | sed -n 's/^[^=]*=\(.\)$/\1/p'
		live_common_lines "$1" | grep -oE "}, '[a-zA-Z0-9]' }" | grep -oE "[a-zA-Z0-9]"
		echo h
	} | grep -oE '[a-zA-Z0-9]' | sed 's/^/-/' | sort -u
}
