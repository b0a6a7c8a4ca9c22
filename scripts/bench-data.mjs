// Writes the data sets of the remote benchmark (cmd/pearson
// BenchmarkRemoteDelay) with DuckDB, as the data-access tests' fixtures are
// written (parquet-fixtures.mjs), so that the benchmark also measures the
// layout of a writer users have:
//
//	cd scripts && npm install && node bench-data.mjs DIR [ROWS ...]
//
// For each ROWS (default 1000000 and 100000000) it writes DIR/duckdb/xy-ROWS.parquet:
// two DOUBLE columns, x standard normal and y = x² + a standard normal,
// with DuckDB's defaults (Snappy, row groups of 122 880 rows, one data page
// per column chunk and no page index). It writes DIR/duckdb/xy-ROWS.csv
// too (a header, then x,y), for the benchmark of CSV objects. With
// threads=1 and a fixed seed the files are the same on every run. A file
// already present is kept. With DIR /tmp/pearson-bench (the benchmarks'
// testtier.FixtureDir), the benchmark's writer=duckdb and writer=duckdb-csv
// cases measure them beside the files it writes itself with parquet-go.
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...sizes] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench-data.mjs DIR [ROWS ...]');
  process.exit(2);
}
const out = join(dir, 'duckdb');
mkdirSync(out, { recursive: true });
const rows = sizes.length > 0 ? sizes.map(Number) : [1000000, 100000000];
for (const n of rows) {
  if (!Number.isSafeInteger(n) || n < 1) {
    console.error(`bench-data.mjs: ${n}: want a positive number of rows`);
    process.exit(2);
  }
}

const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run(`SET threads=1`);
await con.run(`SET preserve_insertion_order=true`);
for (const n of rows) {
  // Box–Muller: x and the noise of y from four uniforms. 1 − random()
  // lies in (0, 1], so that its logarithm is finite.
  const select = `SELECT x, x*x + e AS y FROM (SELECT
      sqrt(-2*ln(1 - random())) * cos(2*pi()*random()) AS x,
      sqrt(-2*ln(1 - random())) * cos(2*pi()*random()) AS e
    FROM range(${n}))`;
  for (const [ext, opts] of [['parquet', '(FORMAT parquet)'], ['csv', '(HEADER)']]) {
    const path = join(out, `xy-${n}.${ext}`);
    if (existsSync(path)) {
      continue;
    }
    const start = Date.now();
    await con.run(`SELECT setseed(0.26)`); // the same values in both files
    await con.run(`COPY (${select}) TO '${path}.tmp' ${opts}`);
    renameSync(`${path}.tmp`, path);
    console.log(`${path}: ${n} rows in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }
}
const r = await con.runAndReadAll(`SELECT file_name, count(DISTINCT row_group_id) AS row_groups,
    max(row_group_num_rows) AS rows, any_value(compression) AS codec
  FROM parquet_metadata('${out}/*.parquet') GROUP BY file_name ORDER BY file_name`);
console.table(r.getRowsJS());
con.closeSync();
inst.closeSync();
