#!/bin/bash
# The first 7-man table: builds KNNNNNvK with its closure (KNvK to KNNNNvK) into DIR (default
# tables7), verifies it by forward moves, rewrites the set in the shipping form into DIR/shipping,
# and probes the longest win of each side to move through tbprobe, Python and tbserve, which must
# agree with the table's statistics. It needs about 7.3 GiB of memory and 25 GB of disk at the peak
# (tbgen KNNNNNvK --dry-run), and hours on 2 cores. After an interruption the same command resumes.
# MATERIAL=KNNNvK scripts/seven-men.sh /tmp/t runs the same steps on a smaller table.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-tables7}
material=${MATERIAL:-KNNNNNvK}
bin=build/bin
[ -x "$bin/tbgen" ] && [ -x "$bin/tbserve" ] || scripts/build.sh

mkdir -p "$dir"
/usr/bin/time -v -o "$dir/$material.build.time" "$bin/tbgen" "$material" -o "$dir"
/usr/bin/time -v -o "$dir/$material.verify.time" "$bin/tbgen" --verify "$dir/$material.rtb"
"$bin/tbpack" --shipping "$dir" "$dir/shipping"
ls -l "$dir/$material.rtb" "$dir/shipping/$material.rtb"
grep -h "Maximum resident" "$dir/$material.build.time" "$dir/$material.verify.time"

stats=$("$bin/tbgen" "$material" -o "$dir" --json 2>/dev/null | tail -1)
port_file=$(mktemp)
"$bin/tbserve" --tables "$dir/shipping" --port 0 > "$port_file" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$port_file"' EXIT
for _ in $(seq 50); do grep -q '[0-9]' "$port_file" && break; sleep 0.2; done
port=$(grep -o 'port [0-9]*\|:[0-9]*' "$port_file" | grep -o '[0-9]*' | tail -1)

# Each FEN's value as "win N" or "loss N" through the three interfaces, from the shipping form.
for side in wtm btm; do
    for kind in win loss; do
        expected=$(python3 -c 'import json,sys; s=json.loads(sys.argv[1])[sys.argv[2]]
n=s["longest_" + sys.argv[3]]; print(sys.argv[3], n, s["longest_" + sys.argv[3] + "_fen"] if n >= 0 else "")' \
            "$stats" "$side" "$kind")
        fen=${expected#* * }
        [ -n "$fen" ] || continue
        expected=${expected%% $fen}
        cli=$("$bin/tbprobe" --tables "$dir/shipping" --no-line "$fen" | sed -n 's/^value: *\([a-z]* [0-9]*\).*/\1/p')
        py=$(PYTHONPATH=build/python python3 -c 'import retrograde,sys
v=retrograde.Tablebase(sys.argv[1]).probe(sys.argv[2]); print(v.category, abs(v.dtm))' "$dir/shipping" "$fen")
        http=$(python3 -c 'import json,sys,urllib.parse,urllib.request
a=json.load(urllib.request.urlopen("http://127.0.0.1:%s/standard?fen=%s" % (sys.argv[1], urllib.parse.quote(sys.argv[2]))))
print(a["category"], abs(a["dtm"]))' "$port" "$fen")
        echo "$side longest $kind: $fen: table $expected, tbprobe $cli, Python $py, tbserve $http"
        [ "$cli" = "$expected" ] && [ "$py" = "$expected" ] && [ "$http" = "$expected" ] ||
            { echo "the interfaces disagree" >&2; exit 1; }
    done
done
echo "$material: built, verified, shipped and probed in $dir"
