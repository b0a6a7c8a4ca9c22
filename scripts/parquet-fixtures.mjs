// Writes the Parquet fixtures of the dataset package's tests, with DuckDB,
// a writer independent of the Go library that reads them:
//
//	cd scripts && npm install && node parquet-fixtures.mjs
//
// The output goes to ../testdata/parquet (replaced). With threads=1 and a
// fixed seed the layout is deterministic: ROW_GROUP_SIZE 2048 (DuckDB's
// floor, its vector size) gives row groups of 2048 rows and a shorter last
// one. Each table is also written as CSV, so that the tests can check that
// both formats give the same values. DuckDB writes one data page per column
// chunk and no page index; the offset-index path is tested with files that
// the tests write with parquet-go itself.
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'testdata', 'parquet');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const q = (sql) => con.run(sql);
await q(`SET threads=1`);
await q(`SELECT setseed(0.42)`);

// t: every numeric type, nulls, a dictionary-encoded string, a date.
// 6500 rows: row groups of 2048, 2048, 2048, 356.
await q(`CREATE TABLE t AS SELECT
    i::BIGINT AS id,
    round(random()*10, 6)::DOUBLE AS x,
    (random()*100)::FLOAT AS f,
    (i % 1000 - 500)::INTEGER AS i32,
    CASE WHEN i % 7 = 0 THEN NULL ELSE round(random(), 6) END AS xnull,
    (random()*1000 - 500)::DECIMAL(9,3) AS d9,
    (random()*1000 - 500)::DECIMAL(18,4) AS d18,
    (random()*2e6 - 1e6)::DECIMAL(30,6) AS d30,
    ['a','bb','ccc'][1 + (i % 3)] AS grp,
    DATE '2024-01-01' + (i % 365)::INTEGER AS day,
    (i % 4)::INTEGER AS part
  FROM range(6500) r(i)`);
const numeric = `id, x, f, i32, xnull, d9, d18, d30, grp, day`;
await q(`COPY (SELECT ${numeric} FROM t) TO '${out}/types.csv' (HEADER)`);
await q(`COPY (SELECT ${numeric} FROM t) TO '${out}/zstd.parquet' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048)`);
await q(`COPY (SELECT id, x, xnull, grp FROM t) TO '${out}/snappy.parquet' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 2048)`);
await q(`COPY (SELECT id, x, xnull, grp FROM t) TO '${out}/plain.parquet' (FORMAT parquet, COMPRESSION uncompressed, ROW_GROUP_SIZE 2048)`);
await q(`COPY (SELECT id, x, xnull, grp FROM t) TO '${out}/v2.parquet' (FORMAT parquet, COMPRESSION zstd, PARQUET_VERSION v2, ROW_GROUP_SIZE 2048)`);
await q(`COPY (SELECT id, x, grp FROM t LIMIT 2000) TO '${out}/one_rg.parquet' (FORMAT parquet)`);

// A partitioned dataset: parts/part=0/data_0.parquet ... (the partition
// column lives only in the paths; part = id % 4).
await q(`COPY (SELECT id, x, grp, part FROM t) TO '${out}/parts' (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (part), ROW_GROUP_SIZE 2048)`);

// Two shards, the second lacking column y.
mkdirSync(`${out}/badshard`, { recursive: true });
await q(`COPY (SELECT id, x, x*2 AS y FROM t LIMIT 3000) TO '${out}/badshard/a.parquet' (FORMAT parquet)`);
await q(`COPY (SELECT id, x FROM t LIMIT 3000) TO '${out}/badshard/b.parquet' (FORMAT parquet)`);

// Sorted by the value: 16 row groups of 2048 rows, each a narrow slice of
// the distribution, far from a random sample of it.
await q(`COPY (SELECT round(i/32768 + random()/1000, 4)::DOUBLE AS x FROM range(32768) r(i) ORDER BY x)
  TO '${out}/sorted.parquet' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048)`);
await q(`COPY (SELECT round(i/32768 + random()/1000, 4)::DOUBLE AS x FROM range(0) r(i)) TO '${out}/empty.parquet' (FORMAT parquet)`);

// A mixed table (Query.Mixed): a string column with nulls and blank
// strings beside numbers with nulls, in 4 row groups (2048, 2048, 2048,
// 56), and the same as CSV (a null an empty cell).
await q(`CREATE TABLE m AS SELECT
    ['ctl','trt'][1 + (i % 2)] AS grp,
    CASE WHEN i % 11 = 0 THEN NULL ELSE round(random()*10, 4) END AS x,
    CASE WHEN i % 13 = 0 THEN NULL WHEN i % 17 = 0 THEN ' ' ELSE ['red','green','blue'][1 + (i % 3)] END AS color,
    (i % 5)::INTEGER AS level
  FROM range(6200) r(i)`);
await q(`COPY m TO '${out}/mixed.csv' (HEADER)`);
await q(`COPY m TO '${out}/mixed.parquet' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048)`);

// A series with its times (changepoint's --time): a DATE, TIMESTAMPs in
// each unit, adjusted to UTC or not, and ISO 8601 strings, each from
// before to after 1970-01-01, beside a value with a level step at row 60, a
// NaN at rows 7 and 90 and nulls at rows 11 and 12. times.csv holds the
// same series with its times as ISO 8601 text (written by DuckDB's
// strftime, not by the Parquet writer): the tests check that both give the
// same output times and rows dropped.
await q(`SET TimeZone='UTC'`);
await q(`CREATE TABLE s AS SELECT
    DATE '1969-11-01' + i::INTEGER AS day,
    TIMESTAMP '1969-12-31 12:00:00.125' + i * INTERVAL 90 MINUTE AS ts,
    (TIMESTAMP '1969-12-31 12:00:00.125' + i * INTERVAL 90 MINUTE)::TIMESTAMP_MS AS ts_ms,
    (TIMESTAMP '1969-12-31 12:00:00.125' + i * INTERVAL 90 MINUTE)::TIMESTAMP_NS AS ts_ns,
    (TIMESTAMP '1969-12-31 12:00:00.125' + i * INTERVAL 90 MINUTE)::TIMESTAMPTZ AS tstz,
    strftime(TIMESTAMP '1969-12-31 12:00:00' + i * INTERVAL 90 MINUTE, '%Y-%m-%d %H:%M:%S+02:00') AS iso,
    CASE WHEN i IN (7, 90) THEN 'NaN'::DOUBLE WHEN i IN (11, 12) THEN NULL
      ELSE round((i >= 60)::INTEGER * 3 + sin(i * 1.7), 6) END AS x
  FROM range(120) r(i)`);
await q(`COPY s TO '${out}/times.parquet' (FORMAT parquet, COMPRESSION zstd)`);
await q(`COPY (SELECT strftime(day, '%Y-%m-%d') AS day,
    strftime(ts, '%Y-%m-%dT%H:%M:%S.%g') AS ts, strftime(ts_ms, '%Y-%m-%dT%H:%M:%S.%g') AS ts_ms,
    strftime(ts_ns, '%Y-%m-%dT%H:%M:%S.%g') AS ts_ns, strftime(tstz, '%Y-%m-%dT%H:%M:%S.%gZ') AS tstz,
    iso, CASE WHEN isnan(x) THEN 'NaN' ELSE x::VARCHAR END AS x FROM s)
  TO '${out}/times.csv' (HEADER)`);

const r = await con.runAndReadAll(`SELECT file_name, count(DISTINCT row_group_id) AS row_groups,
    list(DISTINCT row_group_num_rows) AS rows, any_value(compression) AS codec
  FROM parquet_metadata('${out}/**/*.parquet') GROUP BY file_name ORDER BY file_name`);
console.table(r.getRowsJS());
con.closeSync();
inst.closeSync();
