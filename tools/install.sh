#!/bin/sh
# tools/install.sh MEMPATH [DESTDIR] [PREFIX] - `make install`: the binary,
# the man page and the bash and zsh completions, the last three written by
# the binary from its own tables (so they describe exactly what it does), and
# the reference values of data/.
# PREFIX defaults to /usr/local; DESTDIR (a staging root) to none.
set -eu
bin=${1:?usage: tools/install.sh MEMPATH [DESTDIR] [PREFIX]}
dest=${2:-}
prefix=${3:-/usr/local}
root=$dest$prefix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# everything is written before anything is installed: a failure leaves nothing half done
"$bin" help --man >"$tmp/mempath.1"
"$bin" completion bash >"$tmp/mempath.bash"
"$bin" completion zsh >"$tmp/_mempath"
install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
	"$root/share/zsh/site-functions" "$root/share/doc/mempath" "$root/share/mempath/data"
install -m 755 "$bin" "$root/bin/mempath"
install -m 644 "$tmp/mempath.1" "$root/share/man/man1/mempath.1"
install -m 644 "$tmp/mempath.bash" "$root/share/bash-completion/completions/mempath"
install -m 644 "$tmp/_mempath" "$root/share/zsh/site-functions/_mempath"
install -m 644 "$(dirname "$0")/../LICENSE" "$root/share/doc/mempath/LICENSE"
# the reference values `check` and `fleet` judge against (docs/design.md §5.9)
install -m 644 "$(dirname "$0")"/../data/*.json "$root/share/mempath/data/"
for f in bin/mempath share/man/man1/mempath.1 share/bash-completion/completions/mempath \
	share/zsh/site-functions/_mempath share/doc/mempath/LICENSE share/mempath/data; do
	echo "installed $root/$f"
done
