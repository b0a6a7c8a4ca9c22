#!/bin/bash
# cli-snapshot.sh OLD NEW [GOMAXPROCS]: run the same command lines with two
# pearson binaries and compare every output byte for byte (stdout, stderr,
# exit code; JSON timings blanked). Used to show that a refactoring keeps
# behaviour: build OLD from the commit before, NEW from after, e.g.
#   git worktree add /tmp/old HEAD~5 && (cd /tmp/old && go build -o /tmp/pearson-old ./cmd/pearson)
#   go build -o /tmp/pearson-new ./cmd/pearson && scripts/cli-snapshot.sh /tmp/pearson-old /tmp/pearson-new
# Run from the repository's root. Prints "identical" or the differences.
set -u
old=$1 new=$2 procs=${3:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Inputs: a series with a change at row 300, a gzip file with and without
# its extension.
awk 'BEGIN { srand(3); print "t,a,b"; for (i = 0; i < 600; i++) { m = i < 300 ? 0 : 2; u = rand(); v = rand(); z = sqrt(-2*log(u+1e-12))*cos(6.283185307*v); printf "%d,%.6f,%.6f\n", i, m+z, rand()-0.5 } }' > "$work/series.csv"
gzip -c testdata/shift/P.csv > "$work/P.csv.gz"
cp "$work/P.csv.gz" "$work/P-noext"
cases() {
cat <<CASES
divergence testdata/shift/P.csv testdata/shift/Q.csv
divergence --format json --k 50 --m 500 testdata/shift/P.csv testdata/shift/Q.csv
divergence --format csv --draws 1 testdata/shift/P.csv testdata/shift/Q.csv
divergence --k 30 --m 300 $work/P.csv.gz testdata/shift/Q.csv
divergence --k 30 --m 300 $work/P-noext testdata/shift/Q.csv
divergence --exact --folds 3 testdata/shift/P.csv testdata/shift/Q.csv
divergence --k 20 --m 100 --draws 3 --reservoir 50 testdata/shift/P.csv testdata/shift/Q.csv
divergence --k -1 testdata/shift/P.csv testdata/shift/Q.csv
divergence --folds 1 testdata/shift/P.csv testdata/shift/Q.csv
divergence --alpha 1 testdata/shift/P.csv testdata/shift/Q.csv
divergence --sigma -1 testdata/shift/P.csv testdata/shift/Q.csv
divergence --draws 2000000 testdata/shift/P.csv testdata/shift/Q.csv
divergence --max-memory 1K testdata/shift/P.csv testdata/shift/Q.csv
divergence --max-memory 100M --k 3000 testdata/shift/P.csv testdata/shift/Q.csv
divergence --reservoir 1 testdata/shift/P.csv testdata/shift/Q.csv
divergence --exact --k 5 testdata/shift/P.csv testdata/shift/Q.csv
divergence --bogus testdata/shift/P.csv testdata/shift/Q.csv
divergence --k x testdata/shift/P.csv testdata/shift/Q.csv
divergence --format xml testdata/shift/P.csv testdata/shift/Q.csv
test --group group --numerator A --denominator ctl testdata/groups.csv
test --permutations 50 --format json testdata/shift/P.csv testdata/shift/Q.csv
test --permutations -1 testdata/shift/P.csv testdata/shift/Q.csv
test --max-memory 80M --permutations 10000000 testdata/shift/P.csv testdata/shift/Q.csv
mi --x x1 --y y --permutations 200 testdata/regression.csv
mi --x x1 --y y --format json testdata/regression.csv
mi --x x1 --y y --model bogus testdata/regression.csv
mi --x width,length --y species --permutations 50 testdata/classes.csv
mi --x x1 --y y --sigma-x -2 testdata/regression.csv
mi --x x1 --y y --max-memory 70M --permutations 1000000 testdata/regression.csv
rank --target y --permutations 100 testdata/regression.csv
rank --target y --format csv testdata/regression.csv
rank --target y --m -1 testdata/regression.csv
rank --target y --max-memory 65M testdata/regression.csv
qmin --a testdata/qmin/A.csv --d testdata/qmin/d.csv --b testdata/qmin/b.csv --exact
qmin --a testdata/qmin/A.csv --d testdata/qmin/d.csv --b testdata/qmin/b.csv --draws -1 --format json
qmin --a testdata/qmin/A.csv --d testdata/qmin/d.csv --b testdata/qmin/b.csv --k 1000 --without-replacement
drift --k 30 --m 300 --permutations 99 testdata/shift/P.csv testdata/shift/Q.csv
drift --k 30 --m 300 --group group --numerator A --denominator ctl --format json testdata/groups.csv
drift --k 30 --m 300 --group group --numerator A --denominator ctl --adjust holm --format csv testdata/groups.csv
drift --level 2 testdata/shift/P.csv testdata/shift/Q.csv
drift --k -5 testdata/shift/P.csv testdata/shift/Q.csv
drift --drift-share 2 testdata/shift/P.csv testdata/shift/Q.csv
drift --k 30 --m 300 --fail-on-drift --permutations 99 testdata/shift/P.csv testdata/shift/Q.csv
changepoint --time t $work/series.csv
changepoint --time t --format json --step 5 $work/series.csv
changepoint --time t --format jsonl --step 5 $work/series.csv
changepoint --time t --format csv --step 5 $work/series.csv
changepoint --window 1 $work/series.csv
changepoint --alpha 1 $work/series.csv
changepoint --min-distance -1 $work/series.csv
changepoint --threshold NaN $work/series.csv
changepoint --exact --window 6000 $work/series.csv
bogus
--help
divergence --help
drift --help
changepoint --help
qmin --help
divergence --help
test --help
mi --help
rank --help
completion --help
man --help
pe --help
smi --help
completion bash
completion zsh
completion fish
man
help drift
divergence --columns a testdata/shift/P.csv testdata/shift/Q.csv
divergence --exclude a testdata/shift/P.csv testdata/shift/Q.csv
divergence --delimiter ; testdata/shift/P.csv testdata/shift/Q.csv
divergence --delimiter tab testdata/shift/P.csv testdata/shift/Q.csv
divergence --header=false testdata/shift/P.csv testdata/shift/Q.csv
divergence --progress bogus testdata/shift/P.csv testdata/shift/Q.csv
divergence --plot /nonexistent/x.png testdata/shift/P.csv testdata/shift/Q.csv
divergence --plot x.txt testdata/shift/P.csv testdata/shift/Q.csv
divergence --seed 7 --lambda 0.1 --sigma 0.5 --alpha 0.2 testdata/shift/P.csv testdata/shift/Q.csv
divergence --seed 7 testdata/shift/P.csv
divergence testdata/shift/P.csv testdata/shift/Q.csv extra
test --seed 3 --permutations 30 --alpha 0.3 --format csv testdata/shift/P.csv testdata/shift/Q.csv
test --group group --numerator A testdata/groups.csv
test --group nope --numerator A --denominator ctl testdata/groups.csv
mi --x x1 --y y --model kernel --permutations 30 --seed 5 testdata/regression.csv
mi --x x1 --y y --model gaussian-copula --format csv testdata/regression.csv
mi --x x1 --y nope testdata/regression.csv
mi --x x1 testdata/regression.csv
mi --x x1 --y y --exact --m 5 --format json testdata/regression.csv
rank --target species testdata/classes.csv
rank --target y --features x1 --format json testdata/regression.csv
rank --target y --exclude x1 testdata/regression.csv
rank --target y --permutations 20 --exact --k 5 testdata/regression.csv
qmin --a testdata/qmin/A.csv --d testdata/qmin/d.csv --b testdata/qmin/b.csv
qmin --a testdata/qmin/A.csv --d testdata/qmin/d.csv
qmin --a testdata/qmin/A.csv --d testdata/qmin/d.csv --b testdata/qmin/b.csv --format csv --seed 9
drift testdata/examples/ref.csv testdata/examples/cur.csv
drift --format json testdata/examples/ref.csv testdata/examples/cur.csv
drift --format csv --columns latency,region testdata/examples/ref.csv testdata/examples/cur.csv
drift --exact testdata/examples/ref.csv testdata/examples/cur.csv
drift --max-memory 1K testdata/examples/ref.csv testdata/examples/cur.csv
drift --progress bogus testdata/examples/ref.csv testdata/examples/cur.csv
drift testdata/examples/ref.csv
changepoint --time t --step 3 testdata/examples/series.csv
changepoint --time t --step 50 --format csv testdata/examples/series.csv
changepoint --time t testdata/examples/series.csv
changepoint --time t --columns x --window 80 --seed 4 --format json testdata/examples/series.csv
changepoint --time nope testdata/examples/series.csv
changepoint --max-memory 1K testdata/examples/series.csv
changepoint --max-memory 30724K testdata/examples/series.csv
changepoint --stream --window 10000000 --embed 100 --max-memory 100M testdata/examples/series.csv
changepoint --stream --exact --window 5000 --embed 1 --max-memory 500M testdata/examples/series.csv
drift --max-memory 64M testdata/examples/ref.csv testdata/examples/cur.csv
changepoint --format xml testdata/examples/series.csv
changepoint --exact --time t --step 20 testdata/examples/series.csv
rank --target species --format csv testdata/classes.csv
CASES
}
run() { # run BIN DIR
	mkdir -p "$2"
	local i=0
	while IFS= read -r line; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		GOMAXPROCS=$procs timeout 300 "$1" $line >"$2/$i.out" 2>"$2/$i.err" </dev/null
		echo "$? $line" >"$2/$i.rc"
	done < <(cases)
	sed -i -E 's/"timing":\{[^}]*\}/"timing":{}/' "$2"/*.out
	sed -i -E "s#$work#WORK#g" "$2"/*
}
run "$old" "$work/old"
run "$new" "$work/new"
diff -r "$work/old" "$work/new" && echo identical
